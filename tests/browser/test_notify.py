"""Notifications in the browser: a player asks to be told of their turns (a webhook here, on
127.0.0.1, which the test server allows), sees it masked, a bad line is refused with which line,
and their first "your move" arrives; the host sets the room's group channel; it works on a phone."""

import asyncio

import pytest
from playwright.async_api import Browser, expect

from tests.browser.pages import DESKTOP, PHONE, serious_violations, shot, sideways_overflow, watch_errors
from tests.browser.test_client import create_room
from tests.browser.test_seats import join_as
from tests.server.live import LiveServer
from tests.server.receivers import Webhook

pytestmark = pytest.mark.browser


async def test_a_player_is_told_of_their_turn_where_they_chose(notify_server: LiveServer, chromium: Browser) -> None:
    url = notify_server.url
    hook = Webhook()
    try:
        ada = await (await chromium.new_context(viewport=DESKTOP)).new_page()
        errors = watch_errors(ada)
        code = await create_room(ada, url, name="Ada", players=3, bots=1)
        await ada.get_by_text("Tell me when it is my move").click()
        await ada.get_by_role("textbox", name="Send my turns to").fill("not a channel")
        await ada.get_by_role("button", name="Save").first.click()
        # the first channel checked may wait for Apprise's services to load (seconds on a busy machine)
        await expect(ada.locator("#notify-seat-error")).to_contain_text("Line 1: not a notification URL", timeout=20000)
        await ada.get_by_role("textbox", name="Send my turns to").fill(hook.url + "/ada/s3cr3t")
        await ada.get_by_role("combobox", name="Tell me").select_option("always")
        await ada.get_by_role("button", name="Save").first.click()
        port = hook.url.split(":")[2].split("/")[0]
        await expect(ada.locator("#notify-seat-status")).to_have_text(f"Now sent to: json://127.0.0.1:{port}/***")
        assert "s3cr3t" not in await ada.locator("#notify-panel").inner_text()
        await ada.get_by_role("textbox", name="The room's group channel (who is to move, the result)").fill(
            hook.url + "/room"
        )
        await ada.get_by_role("button", name="Save").nth(1).click()
        await expect(ada.locator("#notify-room-status")).to_contain_text("Now sent to: json://")
        await shot(ada, "notify-desktop")

        bob = await (await chromium.new_context(viewport=PHONE)).new_page()
        errors += watch_errors(bob)
        await join_as(bob, f"{url}/room.html?code={code}", "Bob")
        await bob.get_by_text("Tell me when it is my move").click()
        assert not await bob.get_by_role(
            "textbox", name="The room's group channel (who is to move, the result)"
        ).count()
        await shot(bob, "notify-phone")
        assert await sideways_overflow(bob) == 0

        await ada.click("#start:enabled")
        for _ in range(200):
            if len(hook.got) >= 2:
                break
            await asyncio.sleep(0.05)
        mine = [r for r in hook.got if r.to == ["/hook/ada/s3cr3t"]]
        group = [r for r in hook.got if r.to == ["/hook/room"]]
        assert mine and mine[0].body.startswith(f"It is your move in room {code} (7 Wonders, Age I, turn 1).")
        assert group and group[0].body.startswith(f"Ada and Bob to move in room {code}")
        assert f"/room.html?code={code}" in mine[0].body
        assert await serious_violations(ada) == []
        assert [e for e in errors if "422" not in e] == []  # (the line refused on purpose)
    finally:
        hook.close()


async def test_this_browser_shows_your_move_while_the_page_is_in_the_background(
    notify_server: LiveServer, chromium: Browser
) -> None:
    """Ticking "In this browser" asks for the permission then (not before); when it becomes your move
    while the page is hidden, the browser shows a notification naming the room."""
    url = notify_server.url
    context = await chromium.new_context(viewport=DESKTOP)
    await context.grant_permissions(["notifications"], origin=url)
    page = await context.new_page()
    await page.add_init_script(
        """
        window.__shown = [];
        window.__asked = 0;
        const Real = window.Notification;
        class Spy { constructor(title, options) { window.__shown.push([title, options && options.body]); } close() {} }
        Object.defineProperty(Spy, "permission", { get: () => Real.permission });
        Spy.requestPermission = () => { window.__asked += 1; return Real.requestPermission(); };
        window.Notification = Spy;
        Object.defineProperty(document, "hidden", { get: () => window.__hidden === true });
        """
    )
    errors = watch_errors(page)
    code = await create_room(page, url, name="Ada", players=3, bots=2)
    await page.get_by_text("Tell me when it is my move").click()
    assert await page.evaluate("window.__asked") == 0  # not asked before the player chose it
    await page.get_by_role("checkbox", name="In this browser, while this page is open in another tab").check()
    assert await page.evaluate("window.__asked") == 1
    await page.evaluate("window.__hidden = true")  # the player looks at another tab
    await page.click("#start:enabled")
    for _ in range(200):
        if await page.evaluate("window.__shown.length"):
            break
        await asyncio.sleep(0.05)
    shown = await page.evaluate("window.__shown")
    assert shown and shown[0][0] == f"Your move in room {code}" and shown[0][1] == "Your move: choose a card."
    assert errors == []
