"""A turn-based game between two friends, played through the pages: Ada (a desktop) creates a room
with a day for each decision; Bob (a phone) joins and asks to be told of his turns (a webhook on
127.0.0.1 here); he leaves the table for "My games"; Ada starts; Bob is told it is his move, sees
it first in My games with its deadline and the count in the tab's title, opens the table from there,
reads Ada's chat message, and they play the whole game; My games then lists it as finished."""

import asyncio
import re

import pytest
from playwright.async_api import Browser, expect

from tests.browser.pages import DESKTOP, PHONE, serious_violations, shot, sideways_overflow, wait_until, watch_errors
from tests.browser.test_client import play_until_over
from tests.browser.test_seats import join_as
from tests.server.live import LiveServer
from tests.server.receivers import Webhook

pytestmark = pytest.mark.browser


async def test_two_friends_play_a_turn_based_game_through_the_pages(
    notify_server: LiveServer, chromium: Browser
) -> None:
    url = notify_server.url
    hook = Webhook()
    try:
        ada = await (await chromium.new_context(viewport=DESKTOP)).new_page()
        errors = watch_errors(ada)
        await ada.goto(url + "/")
        await ada.fill("#create-form input[name=name]", "Ada")
        await ada.fill("#create-form input[name=players]", "3")
        await ada.fill("#create-form input[name=bots]", "1")
        await ada.get_by_role("combobox", name="Pace").select_option(label="1 day for each decision")
        await ada.click("#create-form button[type=submit]")
        await ada.wait_for_url(re.compile(r"/room\.html\?code=[A-Z0-9]{6,}"))
        await wait_until(ada, "document.querySelector('#share').value !== ''")
        code = (await ada.inner_text("#room-code")).strip()
        await expect(ada.locator("#clock-info")).to_contain_text("Turn-based: 1 day for each decision")

        bob = await (await chromium.new_context(viewport=PHONE)).new_page()
        errors += watch_errors(bob)
        await join_as(bob, f"{url}/room.html?code={code}", "Bob")
        await bob.get_by_text("Tell me when it is my move").click()
        await bob.get_by_role("textbox", name="Send my turns to").fill(hook.url + "/bob")
        await bob.get_by_role("button", name="Save").click()
        await expect(bob.locator("#notify-seat-status")).to_contain_text("Now sent to: json://127.0.0.1")
        await bob.get_by_role("link", name=re.compile("^My games")).click()  # he leaves the table
        await bob.wait_for_url(f"{url}/my-games.html")

        await ada.click("#start:enabled")
        await ada.wait_for_selector("#hand button.hand-card")
        for _ in range(200):  # Bob is away: he is told
            if hook.got:
                break
            await asyncio.sleep(0.05)
        assert hook.got and hook.got[0].body.startswith(f"It is your move in room {code} (7 Wonders, Age I, turn 1).")
        assert f"/room.html?code={code}" in hook.got[0].body

        await bob.reload()
        yours = bob.get_by_role("list", name="Your move").get_by_role("listitem")
        await expect(yours).to_have_count(1)
        await expect(yours).to_contain_text(re.compile(r"Due in 23 h 5\d min"))
        await wait_until(bob, "document.title.startsWith('(1) ')")
        await shot(bob, "over-days-my-games-phone")
        assert await sideways_overflow(bob) == 0

        await ada.get_by_role("textbox", name="Your message").fill("Your move, Bob: take your time")
        await ada.get_by_role("button", name="Send").click()
        await bob.get_by_role("list", name="Your move").get_by_role("link").first.click()  # opens his table
        await bob.wait_for_url(f"{url}/room.html?code={code}")
        await bob.wait_for_selector("#hand button.hand-card")
        await expect(bob.get_by_role("list", name="Messages")).to_contain_text("Your move, Bob: take your time")
        await expect(bob.get_by_role("timer").first).to_contain_text(re.compile(r"\d+ h"))
        await shot(bob, "over-days-table-phone")
        await shot(ada, "over-days-table-desktop")
        assert await sideways_overflow(bob) == 0

        await play_until_over([ada, bob])
        await bob.goto(f"{url}/my-games.html")
        finished = bob.get_by_role("list", name="Finished").get_by_role("listitem")
        await expect(finished).to_have_count(1)
        await expect(finished).to_contain_text(re.compile(r"You won|Won by|You tied"))
        await shot(bob, "over-days-finished-phone")
        assert await serious_violations(bob) == []
        assert await serious_violations(ada) == []
        assert errors == []
    finally:
        hook.close()
