"""The browser client in real headless Chromium: friends create and join a room, and play whole
games by clicking, to the score sheet."""

import re

from playwright.async_api import Browser, Page

from tests.server.live import LiveServer

pytestmark = __import__("pytest").mark.browser


def watch_errors(page: Page) -> list[str]:
    """Collect JavaScript errors and console errors of the page."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    return errors


async def play_until_over(pages: list[Page], limit: int = 400) -> int:
    """Each page clicks its first enabled action whenever it has one, until a score sheet shows."""
    clicks = 0
    for _ in range(limit):
        if await pages[0].locator("table.scores").count():
            return clicks
        acted = False
        for page in pages:
            button = page.locator("#hand button.act:enabled").first
            if await button.count():
                await button.click()
                clicks += 1
                acted = True
        if not acted:
            await pages[0].wait_for_timeout(50)
    raise AssertionError("the game did not reach its score sheet")


async def test_two_friends_and_a_bot_play_a_classic_game(web_server: LiveServer, chromium: Browser) -> None:
    ada = await (await chromium.new_context()).new_page()
    errors = watch_errors(ada)
    await ada.goto(web_server.url + "/")
    await ada.fill("#create-form input[name=name]", "Ada")
    await ada.select_option("#create-form select[name=game]", "classic")
    await ada.fill("#create-form input[name=players]", "3")
    await ada.fill("#create-form input[name=bots]", "1")
    await ada.click("#create-form button[type=submit]")
    await ada.wait_for_url(re.compile(r"/room\.html\?code=[A-Z0-9]{6,}"))
    share = await ada.input_value("#share")

    bob = await (await chromium.new_context()).new_page()  # another browser: no token of Ada's
    errors += watch_errors(bob)
    await bob.goto(share)
    await bob.fill("#join-seat input[name=name]", "Bob")
    await bob.click("#join-seat button[type=submit]")
    await bob.wait_for_selector("#seats li:has-text('Bob — you')")
    await ada.wait_for_selector("#seats li:has-text('Bob')")

    await ada.click("#start:enabled")
    await ada.wait_for_selector("#hand button.act")
    await bob.wait_for_selector("#hand button.act")
    assert "Your hand:" in await ada.inner_text("#hand")

    clicks = await play_until_over([ada, bob])
    assert clicks >= 2 * 18  # each friend decided at least once a turn
    await bob.wait_for_selector("table.scores")
    sheet = await ada.inner_text("table.scores")
    assert "Ada" in sheet and "Bob" in sheet and "total" in sheet and "science" in sheet
    assert "reveal" not in await ada.inner_text("#log")  # events are told in words
    assert "built" in await ada.inner_text("#log")
    assert errors == []


async def test_a_duel_against_a_bot(web_server: LiveServer, chromium: Browser) -> None:
    page = await (await chromium.new_context()).new_page()
    errors = watch_errors(page)
    await page.goto(web_server.url + "/")
    await page.fill("#create-form input[name=name]", "Ada")
    await page.select_option("#create-form select[name=game]", "duel")
    assert await page.locator("#create-form input[name=players]").is_hidden()
    await page.fill("#create-form input[name=bots]", "1")
    await page.click("#create-form button[type=submit]")
    await page.wait_for_url(re.compile(r"/room\.html"))
    await page.click("#start:enabled")
    await page.wait_for_selector("#hand button.act")
    clicks = await play_until_over([page])
    assert clicks >= 8  # at least the wonder draft picks and some cards
    caption = await page.inner_text("table.scores caption")
    assert re.search(r"(military|science|civilian) victory", caption)
    assert errors == []


async def test_a_bad_room_code_says_so(web_server: LiveServer, chromium: Browser) -> None:
    page = await (await chromium.new_context()).new_page()
    await page.goto(web_server.url + "/room.html?code=NOSUCH9")
    await page.wait_for_selector("#error:not(:empty)")
    assert "room" in (await page.inner_text("#error")).lower()
