"""The room's chat in the browser: two friends (one on a phone) talk before and during a game, a
spectator reads without a box to write in, the host deletes a message, and a flood is told to wait."""

import pytest
from playwright.async_api import Browser, expect

from tests.browser.pages import DESKTOP, PHONE, serious_violations, shot, sideways_overflow, watch_errors
from tests.browser.test_client import create_room
from tests.browser.test_seats import join_as
from tests.server.live import LiveServer

pytestmark = pytest.mark.browser


async def test_friends_talk_in_the_room_and_the_host_deletes_a_message(
    web_server: LiveServer, chromium: Browser
) -> None:
    url = web_server.url
    ada = await (await chromium.new_context(viewport=DESKTOP)).new_page()
    errors = watch_errors(ada)
    code = await create_room(ada, url, name="Ada", players=3, bots=1)
    bob = await (await chromium.new_context(viewport=PHONE)).new_page()
    errors += watch_errors(bob)
    await join_as(bob, f"{url}/room.html?code={code}", "Bob")

    await ada.get_by_role("textbox", name="Your message").fill("Hello Bob, ready?")
    await ada.get_by_role("button", name="Send").click()
    bobs_list = bob.get_by_role("list", name="Messages")
    await expect(bobs_list.get_by_role("listitem")).to_have_count(1)
    assert "Ada" in await bobs_list.inner_text() and "Hello Bob, ready?" in await bobs_list.inner_text()
    await bob.get_by_role("textbox", name="Your message").fill("Ready!")
    await bob.get_by_role("textbox", name="Your message").press("Enter")  # Enter sends
    adas_list = ada.get_by_role("list", name="Messages")
    await expect(adas_list.get_by_role("listitem")).to_have_count(2)
    assert await bob.get_by_role("textbox", name="Your message").input_value() == ""

    watcher = await (await chromium.new_context(viewport=DESKTOP)).new_page()
    errors += watch_errors(watcher)
    await watcher.goto(f"{url}/room.html?code={code}")
    await expect(watcher.get_by_role("list", name="Messages").get_by_role("listitem")).to_have_count(2)
    assert not await watcher.get_by_role("textbox", name="Your message").is_visible()  # spectators read only

    await ada.click("#start:enabled")
    await ada.wait_for_selector("#hand button.hand-card")
    await ada.get_by_role("textbox", name="Your message").fill("Good luck!")
    await ada.get_by_role("button", name="Send").click()
    await expect(bobs_list.get_by_role("listitem")).to_have_count(3)
    assert not await bob.get_by_role("button", name="Delete Bob's message").is_visible()  # only the host deletes
    await ada.get_by_role("button", name="Delete Bob's message").click()
    await expect(bobs_list.get_by_text("deleted by the host")).to_have_count(1)
    assert "Ready!" not in await bobs_list.inner_text()
    await shot(bob, "chat-phone")
    await shot(ada, "chat-desktop")
    assert await sideways_overflow(bob) == 0
    assert await serious_violations(ada) == []

    for n in range(6):  # five in ten seconds a seat: the sixth is told to wait
        await bob.get_by_role("textbox", name="Your message").fill(f"spam {n}")
        await bob.get_by_role("button", name="Send").click()
    await expect(bob.locator("#chat-error")).to_contain_text("wait")
    assert errors == []
