"""Seats in the browser: a rejoin link moves a seat from one browser to another, the host hands a
friend's seat to a bot and back, "I'm back", away seats, and the room's spectators setting."""

import json
import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.async_api import Browser, Page

from tests.browser.pages import DESKTOP, PHONE, serious_violations, shot, sideways_overflow, wait_until, watch_errors
from tests.browser.test_client import create_room
from tests.server.conftest import make_settings
from tests.server.helpers import bearer
from tests.server.live import LiveServer

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def seats_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The client's server, with seats away one second after their last connection closes."""
    db = tmp_path_factory.mktemp("web-seats") / "wonders.db"
    server = LiveServer(make_settings(f"sqlite:///{db}", bot_delay_ms=0, away_grace_seconds=1))
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def saved_token(page: Page, code: str) -> str:
    saved = await page.evaluate("code => localStorage.getItem('wonders.seat.' + code)", code)
    return json.loads(saved)["token"]


async def join_as(page: Page, url: str, name: str) -> None:
    await page.goto(url)
    await page.fill("#join-seat input[name=name]", name)
    await page.click("#join-seat button[type=submit]")
    await page.wait_for_selector(f"#seats li:has-text('{name} — you')")


async def test_a_rejoin_link_moves_the_seat_to_another_browser(seats_server: LiveServer, chromium: Browser) -> None:
    url = seats_server.url
    ada = await (await chromium.new_context(viewport=DESKTOP)).new_page()
    errors = watch_errors(ada)
    code = await create_room(ada, url, name="Ada", players=3, bots=2)
    await ada.click("#start:enabled")
    await ada.wait_for_selector("#hand button.hand-card")
    old_token = await saved_token(ada, code)

    await ada.wait_for_selector("#room-details[data-folded]", state="attached")  # folded during a game
    await ada.click("#room-details summary")
    await ada.get_by_role("button", name="Play on another device").click()
    await ada.wait_for_selector("#device-link:not([hidden])")
    link = await ada.input_value("#rejoin-link")
    assert re.fullmatch(rf"{re.escape(url)}/room\.html\?code={code}&rejoin=[\w-]+", link)
    assert "this browser stops being it" in await ada.inner_text("#device-link")
    await shot(ada, "seats-rejoin-link-desktop")
    assert await serious_violations(ada) == []
    await ada.set_viewport_size(PHONE)
    assert await sideways_overflow(ada) == 0
    await shot(ada, "seats-rejoin-link-phone")
    await ada.set_viewport_size(DESKTOP)

    phone = await (await chromium.new_context(viewport=PHONE)).new_page()  # another browser: a phone
    errors += watch_errors(phone)
    await phone.goto(link)
    mine = await phone.wait_for_selector("#seats li:has-text('— you')", state="attached")  # folded in a game
    assert (await mine.text_content()).startswith("Ada ★ host — you")
    await wait_until(phone, "document.querySelector('#conn').innerText === 'connected as Ada'")
    assert "rejoin" not in phone.url and phone.url.endswith(f"/room.html?code={code}")  # the link is spent
    await phone.wait_for_selector("#hand button.hand-card")
    assert await sideways_overflow(phone) == 0
    await shot(phone, "seats-rejoined-phone")

    # the first browser lost the seat: it says so and only watches
    await ada.wait_for_selector("#error:has-text('You no longer hold your seat')")
    await wait_until(ada, "document.querySelector('#conn').innerText === 'watching'")
    assert await ada.locator("#seats li:has-text('— you')").count() == 0
    assert await ada.locator("#hand-region").is_hidden()
    await shot(ada, "seats-seat-lost-desktop")
    await ada.set_viewport_size(PHONE)
    await shot(ada, "seats-seat-lost-phone")
    async with httpx.AsyncClient(base_url=url) as http:
        r = await http.get(f"/api/rooms/{code}/game", headers=bearer(old_token))
        assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
        r = await http.get(f"/api/rooms/{code}/game", headers=bearer(await saved_token(phone, code)))
        assert r.status_code == 200 and r.json()["seat"] == 0

    # a used link says why it cannot take the seat again
    again = await (await chromium.new_context(viewport=DESKTOP)).new_page()
    await again.goto(link)
    await again.wait_for_selector("#error:has-text('already used')")
    assert "rejoin" not in again.url
    assert errors == []


async def test_the_host_hands_a_seat_to_a_bot_and_the_friend_comes_back(
    seats_server: LiveServer, chromium: Browser
) -> None:
    url = seats_server.url
    ada = await (await chromium.new_context(viewport=DESKTOP)).new_page()
    errors = watch_errors(ada)
    code = await create_room(ada, url, name="Ada", players=3, bots=1)
    share = await ada.input_value("#share")
    assert share.endswith(code)
    bob_context = await chromium.new_context(viewport=PHONE)
    bob = await bob_context.new_page()
    errors += watch_errors(bob)
    await join_as(bob, share, "Bob")
    # spectators: the host's lobby tools say who may watch
    assert await ada.input_value("#spectators") == "live"
    await ada.select_option("#spectators", "off")
    await wait_until(ada, "document.querySelector('#spectators').value === 'off'")
    await shot(ada, "seats-lobby-spectators-desktop")
    await ada.set_viewport_size(PHONE)
    assert await sideways_overflow(ada) == 0
    await shot(ada, "seats-lobby-spectators-phone")
    await ada.set_viewport_size(DESKTOP)
    await ada.click("#start:enabled")
    await ada.wait_for_selector("#hand button.hand-card")
    await bob.wait_for_selector("#hand button.hand-card")

    await ada.wait_for_selector("#room-details[data-folded]", state="attached")
    await ada.click("#room-details summary")
    await ada.get_by_role("button", name="Hand Bob's seat to a bot").click()
    await ada.wait_for_selector("#seats li:has-text('a bot plays for Bob (handed over by the host)')")
    await bob.wait_for_selector("#seat-notice:not([hidden])")
    assert "A bot plays your seat for you (the host handed your seat over)" in await bob.inner_text("#seat-notice")
    assert await bob.get_by_role("region", name="Your seat").count() == 1
    await bob.wait_for_selector("#pick:not([hidden])")  # the bot picked for Bob
    assert await sideways_overflow(bob) == 0
    await shot(bob, "seats-bot-plays-phone")
    await shot(ada, "seats-bot-plays-desktop")
    await bob.set_viewport_size(DESKTOP)
    await shot(bob, "seats-bot-plays-notice-desktop")
    await bob.set_viewport_size(PHONE)
    await ada.set_viewport_size(PHONE)
    assert await sideways_overflow(ada) == 0
    await shot(ada, "seats-host-tools-phone")
    await ada.set_viewport_size(DESKTOP)
    assert await serious_violations(bob) == []
    assert await serious_violations(ada) == []

    await bob.get_by_role("button", name="I'm back").click()
    await bob.wait_for_selector("#seat-notice", state="hidden")
    await ada.wait_for_selector("#seats li:has-text('Bob') >> text=Hand to a bot")
    assert await ada.locator("#seats li:has-text('a bot plays for')").count() == 0

    # Bob closes his browser: after the grace his seat is away for everyone
    await bob_context.close()
    await ada.wait_for_selector("#seats li:has-text('Bob') .away-mark", timeout=10_000)
    assert await ada.get_attribute("#seats li:has-text('Bob') .dot", "aria-label") == "away"
    await shot(ada, "seats-away-desktop")
    phone = await (await chromium.new_context(viewport=PHONE)).new_page()
    await phone.goto(share)
    await phone.wait_for_selector("#room-details[data-folded]", state="attached")  # folded during a game
    await phone.click("#room-details summary")
    await phone.wait_for_selector("#seats li:has-text('Bob') .away-mark")
    await shot(phone, "seats-away-phone")

    # the room allows no spectators: the page says so, and shows no game
    assert "This room allows no spectators" in await phone.inner_text("#room-full")
    await wait_until(phone, "document.querySelector('#conn').innerText === 'not watching'")
    assert await phone.locator("#game").is_hidden()
    assert await phone.locator("#error").inner_text() == ""
    await shot(phone, "seats-no-spectators-phone")
    await phone.set_viewport_size(DESKTOP)
    await shot(phone, "seats-no-spectators-desktop")
    assert errors == []
