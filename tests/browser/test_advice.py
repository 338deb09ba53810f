"""Hints and the review in the browser: a seat of a room with hints asks for one on the table (the
three moves with points and why; the log and the chat show everyone it was used), then the finished
game's replay opens the search bot's review (totals, swings that jump to their step, the decision at
each step, every hand); on a desktop and a phone, screenshots of both."""

from collections.abc import Iterator

import httpx
import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.pages import (
    DESKTOP,
    PHONE,
    serious_violations,
    shot,
    sideways_overflow,
    wait_until,
    watch_errors,
)
from tests.server.conftest import make_settings
from tests.server.live import LiveServer
from tests.server.test_advice import bot_room, my_turn, play_out

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def advice_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("advice") / "wonders.db"
    server = LiveServer(make_settings(f"sqlite:///{db}", hint_budget_ms=60, review_budget_ms=5, review_workers=1))
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def seated(browser: Browser, viewport: dict[str, int], url: str, code: str, token: str) -> Page:
    context = await browser.new_context(viewport=viewport)
    await context.add_init_script(
        f"localStorage.setItem('wonders.seat.{code}', JSON.stringify({{seat: 0, token: '{token}'}}))"
    )
    page = await context.new_page()
    await page.goto(f"{url}/room.html?code={code}")
    return page


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
async def test_a_hint_on_the_table_and_the_review_in_the_replay(
    advice_server: LiveServer, chromium: Browser, viewport: dict[str, int]
) -> None:
    url = advice_server.url
    size = "desktop" if viewport == DESKTOP else "phone"
    async with httpx.AsyncClient(base_url=url) as client:
        code, token = await bot_room(client, hints=True)
        await my_turn(client, code, token)
        page = await seated(chromium, viewport, url, code, token)
        errors = watch_errors(page)
        await page.get_by_role("button", name="Hint", exact=True).click()
        moves = page.get_by_role("list", name="Suggested moves, best first")
        await expect(moves.get_by_role("listitem").first).to_be_visible(timeout=20000)
        assert 1 <= await moves.get_by_role("listitem").count() <= 3
        assert "Best" in await moves.inner_text() and "games played out" in await moves.inner_text()
        await expect(page.locator("#log")).to_contain_text("Ada used a hint.")
        await expect(page.locator("#chat-list")).to_contain_text("asked the search bot for a hint")
        await page.locator("#hint-box").scroll_into_view_if_needed()
        await shot(page, f"hint-{size}")
        await wait_until(page, "document.documentElement.scrollWidth <= document.documentElement.clientWidth", 5000)
        assert await sideways_overflow(page) == 0
        assert await serious_violations(page) == []
        await page.locator("#hint-box").screenshot(path=f"/tmp/shots/hint-{size}-panel.png")

        await play_out(client, code, token)
        await page.reload()
        await page.get_by_role("button", name="Replay").first.click()
        await page.get_by_role("button", name="Review by the search bot").click()
        totals = page.locator("table.review-totals")
        await expect(totals).to_be_visible(timeout=60000)
        await expect(totals.locator("tbody tr")).to_have_count(3)
        swing = page.locator("button.review-swing").first
        if await swing.count():
            label = await swing.get_attribute("aria-label") or ""
            step = int(label.split(":")[0].removeprefix("Step "))
            await swing.click()
            await expect(page.locator("#replay-step")).to_have_value(str(step))
            await expect(page.locator(".review-step")).to_contain_text("points lost")
        await expect(page.locator(".review-hand-list li")).to_have_count(3)
        await page.locator("#review").scroll_into_view_if_needed()
        await shot(page, f"review-{size}")
        panel = await page.locator("#review").bounding_box()
        assert panel is not None and panel["x"] >= 0 and panel["x"] + panel["width"] <= viewport["width"]
        await page.locator("#review").screenshot(path=f"/tmp/shots/review-{size}-panel.png")
        assert errors == []
