"""The browser client in real headless Chromium: friends create and join a room, and play whole
games by clicking, to the score sheet."""

import json
import re

import httpx
from playwright.async_api import Browser, Locator, Page
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from tests.server.helpers import bearer
from tests.server.live import LiveServer

ARMADA_SEED = 1

pytestmark = __import__("pytest").mark.browser


def watch_errors(page: Page) -> list[str]:
    """Collect JavaScript errors and console errors of the page."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    return errors


async def click(button: Locator) -> bool:
    """Click it, unless it went away meanwhile (a new state re-renders the hand): then say so."""
    try:
        await button.click(timeout=2000)
    except PlaywrightTimeoutError:
        return False
    return True


async def play_until_over(pages: list[Page], limit: int = 400) -> int:
    """Each page clicks its first enabled action whenever it has one, until a score sheet shows."""
    clicks = 0
    for _ in range(limit):
        if await pages[0].locator("table.scores").count():
            return clicks
        acted = False
        for page in pages:
            button = page.locator("#hand button.act:enabled").first
            if await button.count() and await click(button):
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
    await ada.wait_for_function("document.querySelector('#share').value !== ''")
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


# An explorer: keep an island when asked, else a naval step on the green track, else any naval step,
# else the first action. Chosen and clicked in one turn of the page's own event loop, so a state
# arriving meanwhile cannot swap the hand under the choice (the game then depends on the seed only).
CHOOSE_AND_CLICK = """() => {
    const enabled = [...document.querySelectorAll("#hand button.act")].filter((b) => !b.disabled);
    if (!enabled.length) return null;
    const labels = [...document.querySelectorAll("#hand button.act")].map((b) => b.innerText);
    const keep = enabled.filter((b) => b.closest(".cardgroup.keep"));
    const offered = keep.length
        ? [...document.querySelectorAll("#hand .cardgroup.keep > strong")].map((s) => s.innerText)
        : [];
    const button = keep[0]
        || enabled.find((b) => b.innerText.includes("naval step (green)"))
        || enabled.find((b) => b.innerText.includes("naval step"))
        || enabled[0];
    button.click();
    return { labels, offered };
}"""


async def play_armada_until_over(page: Page, limit: int = 400) -> tuple[int, set[str], list[str]]:
    """Click the preferred action whenever there is one; return the clicks, every button label seen
    and the islands offered to this seat."""
    clicks = 0
    labels: set[str] = set()
    offered: list[str] = []
    for _ in range(limit):
        if await page.locator("table.scores").count():
            return clicks, labels, offered
        seen = await page.evaluate(CHOOSE_AND_CLICK)
        if seen is None:
            await page.wait_for_timeout(50)
            continue
        clicks += 1
        labels.update(seen["labels"])
        offered += seen["offered"]
        await page.wait_for_timeout(20)
    raise AssertionError("the game did not reach its score sheet")


async def test_an_armada_game_against_bots(web_server: LiveServer, chromium: Browser) -> None:
    """Armada against two bots, by clicking: the provisional notice in the lobby and the room, every
    shipyard, naval steps named by their track, the yellow discard, keeping an island, the naval
    conflicts in the events and Armada's categories on the score sheet."""
    page = await (await chromium.new_context()).new_page()
    errors = watch_errors(page)
    await page.goto(web_server.url + "/")
    await page.fill("#create-form input[name=name]", "Ada")
    await page.fill("#create-form input[name=players]", "3")
    await page.fill("#create-form input[name=bots]", "2")
    await page.check("#create-form input[name=armada]")
    await page.wait_for_selector("#armada-notice:visible")
    assert "provisional" in await page.inner_text("#armada-notice")
    await page.click("#create-form button[type=submit]")
    await page.wait_for_url(re.compile(r"/room\.html\?code=[A-Z0-9]{6,}"))
    await page.wait_for_selector("#notices .notice")
    assert "Armada runs on provisional values" in await page.inner_text("#notices")
    assert await page.is_checked("#armada")  # the host's toggle shows the room's setting
    code = (await page.inner_text("#room-code")).strip()
    saved = json.loads(await page.evaluate("code => localStorage.getItem('wonders.seat.' + code)", code))
    async with httpx.AsyncClient(base_url=web_server.url) as http:  # a fixed seed: the same game every run
        r = await http.patch(f"/api/rooms/{code}", json={"seed": ARMADA_SEED}, headers=bearer(saved["token"]))
        assert r.status_code == 200, r.text

    await page.click("#start:enabled")
    await page.wait_for_selector("#hand button.act")
    assert await page.locator(".player .shipyard").count() == 3
    assert await page.locator(".player.me .shipyard .track").count() == 4
    assert await page.locator(".player.me .track .cell.ship").count() == 4  # every ship at the start
    assert "naval strength 0" in await page.inner_text(".player.me .shipyard")

    clicks, labels, offered = await play_armada_until_over(page)
    assert clicks >= 21  # a decision at least every turn of the three Ages
    assert any(re.search(r"\+ naval step \((red|yellow|blue|green)\)", label) for label in labels)
    assert "Discard: move yellow ship" in labels
    assert offered and any(" — " in o for o in offered)  # islands to keep, with what they give
    sheet = await page.inner_text("table.scores")
    assert all(word in sheet for word in ("Ada", "naval", "islands", "shipyard", "total"))
    events = await page.inner_text("#log")
    assert "Naval conflict of Age 3" in events and "keeps" in events and "explores" in events
    assert "naval_conflict" not in events and "island_kept" not in events  # told in words
    assert await page.locator(".player.me .chip.island").count() >= 1
    assert errors == []
