"""Turn clocks in the browser: the host picks one in the lobby or the room, everyone sees the
countdown of the seat that owes a decision, and a timeout is told in the log."""

import json
import re
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, BrowserContext, Page, ViewportSize, WebSocketRoute, expect

from tests.browser.pages import DESKTOP, PHONE, serious_violations, shot, sideways_overflow, wait_until, watch_errors
from tests.server.helpers import bearer
from tests.server.live import LiveServer

pytestmark = pytest.mark.browser


async def test_the_host_chooses_a_clock_and_everyone_sees_the_countdown(
    web_server: LiveServer, chromium: Browser
) -> None:
    page = await (await chromium.new_context(viewport=DESKTOP)).new_page()
    errors = watch_errors(page)
    await page.goto(web_server.url + "/")
    await page.fill("#create-form input[name=name]", "Ada")
    await page.fill("#create-form input[name=players]", "3")
    await page.fill("#create-form input[name=bots]", "2")
    await page.check("#create-form input[name=armada]")  # unticked by default
    await page.select_option("#create-form select[name=clock]", label="30 s for each decision")
    await page.click("#create-form button[type=submit]")
    await page.wait_for_url(re.compile(r"/room\.html\?code="))
    await page.wait_for_selector("#clock-info:has-text('Live: 30 s for each decision')")
    assert "the greedy bot decides" in await page.inner_text("#clock-info")
    if not await page.is_visible("#clock"):
        await page.click("#room-details summary")
    await page.select_option("#clock", label="1 min for each decision")
    await page.wait_for_selector("#clock-info:has-text('Live: 1 min for each decision')")
    # the host's expansions come from the server's registry: Armada, chosen in the lobby, taken off
    armada = page.get_by_role("checkbox", name="Armada expansion")
    assert await armada.is_checked() and "provisional" in await page.inner_text("#notices")
    await armada.uncheck()
    await page.wait_for_selector("#room-title:not(:has-text('Armada'))")
    assert not await armada.is_checked() and "provisional" not in await page.inner_text("#notices")
    await page.click("#start:enabled")
    await page.wait_for_selector("#status .countdown")
    label = await page.get_attribute("#status .countdown", "aria-label")
    seconds = re.fullmatch(r"You: (\d):(\d\d) left to decide", label)
    assert seconds and 40 <= 60 * int(seconds[1]) + int(seconds[2]) <= 60, label  # a minute, less the start
    # the other players see Ada's countdown beside her name
    ada = page.get_by_role("region", name="Ada (you)")
    assert await ada.locator(".countdown").count() == 1
    first = await page.inner_text("#status .countdown")
    await wait_until(page, f"document.querySelector('#status .countdown').innerText !== {first!r}", 10000)  # it runs
    await shot(page, "clock-countdown-desktop")
    assert await serious_violations(page) == []
    assert errors == []


async def ada_seated(
    web_server: LiveServer, chromium: Browser, clock: dict[str, Any], viewport: ViewportSize
) -> tuple[BrowserContext, str]:
    """A browser context holding Ada's seat in a started room of 3 (two greedy bots) with that
    clock, and the room's code."""
    async with httpx.AsyncClient(base_url=web_server.url) as http:
        r = await http.post(
            "/api/rooms",
            json={
                "name": "Ada",
                "players": 3,
                "bots": [{"kind": "greedy"}] * 2,
                "clock": clock,
            },
        )
        room = r.json()
        await http.post(f"/api/rooms/{room['code']}/start", headers=bearer(room["token"]))
    context = await chromium.new_context(viewport=viewport)
    await context.add_init_script(
        f"localStorage.setItem('wonders.seat.{room['code']}', JSON.stringify({{seat: 0, token: '{room['token']}'}}))"
    )
    return context, room["code"]


async def ada_on_a_phone(web_server: LiveServer, chromium: Browser, seconds: int) -> tuple[Page, list[str]]:
    """Ada's seat on a phone, in a started room of 3 (two greedy bots) with a turn clock of that many seconds."""
    context, code = await ada_seated(web_server, chromium, {"mode": "turn", "seconds": seconds}, PHONE)
    page = await context.new_page()
    errors = watch_errors(page)
    await page.goto(web_server.url + f"/room.html?code={code}")
    return page, errors


async def test_a_timeout_is_told_in_the_log_and_the_countdown_runs_on_a_phone(
    web_server: LiveServer, chromium: Browser
) -> None:
    page, errors = await ada_on_a_phone(web_server, chromium, 2)
    await page.wait_for_selector("#status .countdown")
    assert await sideways_overflow(page) == 0
    await shot(page, "clock-countdown-phone")
    await page.wait_for_selector(
        '#log .log-line:has-text("Ada\'s time ran out: the greedy bot decided for them.")', timeout=15000
    )
    await page.reload()  # the history says so too
    await page.wait_for_selector('#log .log-line:has-text("Ada\'s time ran out")')
    assert errors == []


async def test_your_countdown_stays_in_the_header_when_the_status_line_scrolls_away_on_a_phone(
    web_server: LiveServer, chromium: Browser
) -> None:
    page, errors = await ada_on_a_phone(web_server, chromium, 600)
    header_clock = page.locator("header #top-clock .countdown")
    await page.wait_for_selector("#status .countdown")
    await page.evaluate("window.scrollTo(0, 0)")
    await expect(header_clock).to_be_hidden()  # the status line beside it says it already
    await page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    await expect(header_clock).to_be_visible()
    assert re.fullmatch(r"\d+:\d\d", await header_clock.inner_text())
    box = await header_clock.bounding_box()
    assert box and 0 <= box["y"] < 80  # at the top of the screen, in the sticky header
    # the header's copy is only for the eye: assistive technology has the status line's and the table's
    await expect(page.locator("header").get_by_role("timer")).to_have_count(0)
    await expect(page.get_by_role("timer", name=re.compile(r"^You: "))).to_have_count(2)
    await shot(page, "clock-in-header-phone", full_page=False)  # as the screen shows it, scrolled
    await page.evaluate("window.scrollTo(0, 0)")
    await expect(header_clock).to_be_hidden()
    assert errors == []


async def test_your_countdown_is_in_the_header_as_soon_as_the_status_line_is_under_it_on_a_phone(
    web_server: LiveServer, chromium: Browser
) -> None:
    """The header grows once the game's state arrives (its turn line, the games badge): the status
    line is out of sight as soon as the header covers it, not only once it leaves the screen."""
    page, errors = await ada_on_a_phone(web_server, chromium, 600)
    header_clock = page.locator("header #top-clock .countdown")
    await page.wait_for_selector("#status .countdown")
    await page.evaluate("window.scrollTo(0, 0)")
    await expect(header_clock).to_be_hidden()
    # the status line's bottom 4 px above the header's: hidden by the header, still on the screen
    await page.evaluate(
        """() => {
            const header = document.querySelector("header").getBoundingClientRect();
            const status = document.querySelector("#status").getBoundingClientRect();
            window.scrollBy(0, status.bottom - header.bottom + 4);
        }"""
    )
    status = await page.locator("#status").bounding_box()
    header = await page.locator("header").bounding_box()
    assert status and header and 0 < status["y"] + status["height"] < header["y"] + header["height"]
    await expect(header_clock).to_be_visible()
    assert errors == []


@pytest.mark.parametrize(
    "clock", [{"mode": "turn", "seconds": 60}, {"mode": "bank", "initial_seconds": 60, "increment_seconds": 0}]
)
async def test_a_welcome_that_reached_the_page_late_does_not_lengthen_the_countdown(
    web_server: LiveServer, chromium: Browser, clock: dict[str, Any]
) -> None:
    """The page learns the server's time from the welcome; here the welcome says a time 5 s earlier
    than it was (as if it had reached the page 5 s late), and the 60 s clock or bank still shows at
    most 1:00 left: when a seat came to owe its decision (the clock's `since`) is a lower bound of the
    server's now."""
    context, code = await ada_seated(web_server, chromium, clock, DESKTOP)

    def late_welcome(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            sent = json.loads(message)
            if sent.get("type") == "welcome":
                stamped = datetime.fromisoformat(sent["server_time"].replace("Z", "+00:00"))
                sent["server_time"] = (stamped - timedelta(seconds=5)).isoformat(timespec="milliseconds")
                message = json.dumps(sent)
            ws.send(message)

        server.on_message(to_page)
        ws.on_message(server.send)

    await context.route_web_socket(re.compile(r".*/ws.*"), late_welcome)
    page = await context.new_page()
    errors = watch_errors(page)
    await page.goto(web_server.url + f"/room.html?code={code}")
    await page.wait_for_selector("#status .countdown")
    label = await page.get_attribute("#status .countdown", "aria-label")
    seconds = re.fullmatch(r"You: (\d):(\d\d) left to decide", label or "")
    assert seconds and 50 <= 60 * int(seconds[1]) + int(seconds[2]) <= 60, label
    assert errors == []
