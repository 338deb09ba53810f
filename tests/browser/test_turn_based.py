"""Turn-based rooms in the browser: the lobby and the host's settings offer the pace in words (live
or turn-based choices), the room panel says it ("Turn-based: 1 day for each decision"), the table's
chips say when each move is due ("due in 23 h 59 min", "due in 2 d 23 h"), and once a deadline has
passed before the server decided (the browser's clock moved on a day), what happens next: the
room's timeout bot decides, and after so many timeouts it plays the seat."""

import re
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.pages import DESKTOP, PHONE, serious_violations, shot, sideways_overflow, wait_until, watch_errors
from tests.server.helpers import bearer
from tests.server.live import LiveServer

pytestmark = pytest.mark.browser


async def option_groups(page: Page, select: str) -> dict[str, list[str]]:
    """The select's option groups: label -> the options' words."""
    return await page.eval_on_selector(
        select,
        "s => Object.fromEntries([...s.querySelectorAll('optgroup')].map((g) => "
        "[g.label, [...g.querySelectorAll('option')].map((o) => o.textContent)]))",
    )


async def a_day_later(page: Page, days: float) -> None:
    """The browser's clock jumps ahead (the server's does not: it has not decided anything)."""
    await page.clock.set_system_time(datetime.now(UTC) + timedelta(days=days))


async def test_the_host_chooses_a_turn_based_pace_and_the_table_says_when_moves_are_due(
    web_server: LiveServer, chromium: Browser
) -> None:
    context = await chromium.new_context(viewport=DESKTOP)
    page = await context.new_page()
    await page.clock.install()  # the page's time runs as usual, until the test moves it on
    errors = watch_errors(page)
    await page.goto(web_server.url + "/")
    pace = page.get_by_role("combobox", name="Pace")
    groups = await option_groups(page, "#create-form select[name=clock]")
    assert list(groups) == ["Live: everyone at the table now", "Turn-based: move when you can, over days"]
    assert "30 s for each decision" in groups["Live: everyone at the table now"]
    assert groups["Turn-based: move when you can, over days"] == [
        "1 hour for each decision",
        "12 hours for each decision",
        "1 day for each decision",
        "3 days for each decision",
        "7 days for each decision",
        "Time bank: 3 days + 12 hours a decision",
        "Time bank: 7 days + 1 day a decision",
    ]
    await expect(page.locator("#clock-hint")).to_contain_text("Turn-based: each player moves when they can")
    await page.fill("#create-form input[name=name]", "Ada")
    await page.fill("#create-form input[name=players]", "3")
    await page.fill("#create-form input[name=bots]", "2")
    await pace.select_option(label="1 day for each decision")
    await shot(page, "turn-based-lobby-desktop")
    await page.click("#create-form button[type=submit]")
    await page.wait_for_url(re.compile(r"/room\.html\?code="))
    info = page.locator("#clock-info")
    await expect(info).to_have_text(
        "Turn-based: 1 day for each decision; when time runs out, the greedy bot decides, and after 2 timeouts in "
        "a row it plays the seat until its player is back."
    )
    # the host changes the pace in the room, from the same groups
    if not await page.get_by_role("combobox", name="Pace").is_visible():
        await page.click("#room-details summary")
    assert list(await option_groups(page, "#clock")) == list(groups)
    await page.get_by_role("combobox", name="Pace").select_option(label="2 min for each decision")
    await expect(info).to_contain_text("Live: 2 min for each decision")
    await page.get_by_role("combobox", name="Pace").select_option(label="1 day for each decision")
    await expect(info).to_contain_text("Turn-based: 1 day for each decision")
    await page.click("#start:enabled")

    # Ada owes her pick, with a day to make it: her own clock and her chip on the table say so
    mine = page.locator("#status .countdown")
    await expect(mine).to_have_text(re.compile(r"^due in 23 h 5\d min$"))
    assert re.fullmatch(r"You: your move is due in 23 h 5\d min", await mine.get_attribute("aria-label") or "")
    ada = page.get_by_role("region", name="Ada (you)")
    await expect(ada.get_by_role("timer")).to_have_text(re.compile(r"due in 23 h 5\d min"))
    await shot(page, "turn-based-table-desktop")
    assert await serious_violations(page) == []

    # a day and a bit later (for this browser), the deadline has passed and the server has not decided
    await a_day_later(page, 1.05)
    await expect(mine).to_have_text("overdue: the greedy bot decides for you shortly")
    assert await mine.get_attribute("aria-label") == (
        "You: overdue: the greedy bot decides for you shortly; after 2 timeouts in a row it plays your seat until "
        "you are back"
    )
    await expect(ada.get_by_role("timer")).to_have_text("overdue: the greedy bot decides for you shortly")
    await shot(page, "turn-based-overdue-desktop")
    assert errors == []


async def test_a_time_bank_of_days_on_a_phone_and_what_happens_when_it_is_overdue(
    web_server: LiveServer, chromium: Browser
) -> None:
    """A room made over the API with a time bank of 3 days + 12 hours, the easy bot on timeout after
    3 timeouts: a spectator on a phone reads the pace and Ada's chip."""
    async with httpx.AsyncClient(base_url=web_server.url) as http:
        r = await http.post(
            "/api/rooms",
            json={
                "name": "Ada",
                "players": 3,
                "bots": [{"kind": "greedy"}] * 2,
                "clock": {"mode": "bank", "initial_seconds": 3 * 86400, "increment_seconds": 12 * 3600},
                "timeout_bot": "easy",
                "timeouts_before_bot": 3,
            },
        )
        assert r.status_code == 201, r.text
        room = r.json()
        assert room["room"]["settings"]["pace"] == "turn_based"
        assert (await http.post(f"/api/rooms/{room['code']}/start", headers=bearer(room["token"]))).status_code == 200
    context = await chromium.new_context(viewport=PHONE)
    page = await context.new_page()
    await page.clock.install()
    errors = watch_errors(page)
    await page.goto(web_server.url + f"/room.html?code={room['code']}")
    await page.click("#room-details summary")
    await expect(page.locator("#clock-info")).to_have_text(
        "Turn-based: a time bank of 3 days, plus 12 hours a decision; when time runs out, the easy bot decides, "
        "and after 3 timeouts in a row it plays the seat until its player is back."
    )
    chip = page.locator(".countdown[data-who='Ada']")
    await expect(chip).to_have_text(re.compile(r"^due in 2 d 23 h$"))
    assert re.fullmatch(r"Ada: their move is due in 2 d 23 h", await chip.get_attribute("aria-label") or "")
    await wait_until(page, "document.querySelectorAll('.countdown').length === 1")  # the bots have picked
    assert await sideways_overflow(page) == 0
    await shot(page, "turn-based-table-phone")
    await a_day_later(page, 3.5)
    await expect(chip).to_have_text("overdue: the easy bot decides for them shortly")
    assert await chip.get_attribute("aria-label") == (
        "Ada: overdue: the easy bot decides for them shortly; after 3 timeouts in a row it plays their seat until "
        "they are back"
    )
    assert await sideways_overflow(page) == 0
    await shot(page, "turn-based-overdue-phone")
    assert errors == []
