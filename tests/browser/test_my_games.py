"""My games in the browser: one browser holding seats in four rooms (its move in one, waiting for
friends in another, a room waiting to start, a finished game) sees them in that order with the
deadline, the count of moves owed in the tab's title (and on the lobby's link), opens a table from
the list, on a desktop and on a phone; a link moves every game to another browser, where they are
listed, and the first browser is offered to forget them."""

import base64
import json
import re
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, BrowserContext, Page, expect

from tests.browser.pages import (
    DESKTOP,
    PHONE,
    SHOTS,
    serious_violations,
    shot,
    sideways_overflow,
    wait_until,
    watch_errors,
)
from tests.server.helpers import bearer, until
from tests.server.live import LiveServer

pytestmark = pytest.mark.browser
HOUR = {"mode": "turn", "seconds": 3600}


async def room(http: httpx.AsyncClient, **body: Any) -> tuple[str, str]:
    r = await http.post("/api/rooms", json={"name": "Ann", **body})
    assert r.status_code == 201, r.text
    return r.json()["code"], r.json()["token"]


async def start(http: httpx.AsyncClient, code: str, token: str) -> None:
    assert (await http.post(f"/api/rooms/{code}/start", headers=bearer(token))).status_code == 200


async def game(http: httpx.AsyncClient, code: str, token: str) -> dict[str, Any]:
    return (await http.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()


async def four_rooms(url: str) -> dict[str, tuple[str, str]]:
    """{what: (code, Ann's token)}: her move (two bots picked, an hour's clock), waiting (Ann picked,
    Bo and Cy have not), a room waiting to start, a finished Duel (a bot played Ann's seat)."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        bots = [{"kind": "random"}, {"kind": "random"}]
        mine = await room(http, players=3, seed=7, clock=HOUR, bots=bots)
        await start(http, *mine)

        async def bots_picked() -> bool:
            return (await game(http, *mine))["to_act"] == [0]

        await until(bots_picked)
        waiting = await room(http, players=3, seed=8)
        for name in ("Bo", "Cy"):
            assert (await http.post(f"/api/rooms/{waiting[0]}/join", json={"name": name})).status_code == 201
        await start(http, *waiting)
        seen = await game(http, *waiting)
        body = {"action": seen["legal_actions"][0], "version": seen["version"]}
        r = await http.post(f"/api/rooms/{waiting[0]}/game/actions", json=body, headers=bearer(waiting[1]))
        assert r.status_code == 200, r.text
        lobby = await room(http, players=4)
        over = await room(http, game="duel", seed=4, bots=[{"kind": "random", "seat": 1}])
        await start(http, *over)
        r = await http.post(f"/api/rooms/{over[0]}/seats/0/bot", json={"kind": "random"}, headers=bearer(over[1]))
        assert r.status_code == 200, r.text

        async def finished() -> bool:
            return (await http.get(f"/api/rooms/{over[0]}")).json()["status"] == "finished"

        await until(finished, within=60)
    return {"mine": mine, "waiting": waiting, "lobby": lobby, "over": over}


async def holding(browser: Browser, url: str, viewport: dict[str, int], rooms: dict[str, tuple[str, str]]) -> Page:
    """A browser whose local storage holds Ann's seat in each room, as the room pages keep them."""
    context: BrowserContext = await browser.new_context(viewport=viewport)
    seats = {f"wonders.seat.{code}": json.dumps({"seat": 0, "token": token}) for code, token in rooms.values()}
    page = await context.new_page()
    await page.goto(url + "/")
    await page.evaluate("(seats) => { for (const [k, v] of Object.entries(seats)) localStorage.setItem(k, v); }", seats)
    return page


async def check_the_list(page: Page, url: str, rooms: dict[str, tuple[str, str]], name: str) -> None:
    await page.goto(f"{url}/my-games.html")
    main = page.get_by_role("main")
    await expect(main.get_by_role("heading", name="Finished")).to_be_visible()
    headings = await main.get_by_role("heading", level=2).all_inner_texts()
    assert headings[:4] == ["Your move", "Waiting for others", "Waiting to start", "Finished"]
    links = main.get_by_role("link", name=re.compile(r" — room [A-Z0-9]+$"))
    texts = await links.all_inner_texts()
    codes = [t.rsplit(" ", 1)[-1] for t in texts]
    assert codes == [rooms[k][0] for k in ("mine", "waiting", "lobby", "over")], texts
    assert texts[0].startswith("7 Wonders") and texts[3].startswith("7 Wonders Duel")
    await expect(page.get_by_role("status").filter(has_text="owes your move")).to_have_text(
        "1 game owes your move; 4 games in all."
    )
    yours = page.get_by_role("list", name="Your move").get_by_role("listitem")
    await expect(yours).to_have_count(1)
    await expect(yours).to_contain_text(re.compile(r"Due in (59 min|1 h 00 min)"))
    await expect(yours).to_contain_text("Age I · turn 1 of 6")
    await expect(page.get_by_role("list", name="Waiting for others")).to_contain_text("Waiting for Bo and Cy")
    await expect(page.get_by_role("list", name="Waiting to start")).to_contain_text("1 of 4 seats taken")
    await expect(page.get_by_role("list", name="Finished")).to_contain_text(re.compile(r"You won|Won by|You tied"))
    await wait_until(page, "document.title === '(1) My games — Wonders'")
    icon = await page.evaluate("document.querySelector(\"link[rel~='icon']\").href")
    assert icon.startswith("data:image/png;base64,")
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / f"my-games-icon-{name}.png").write_bytes(base64.b64decode(icon.split(",", 1)[1]))  # the badge, to look at
    assert await sideways_overflow(page) == 0
    assert await serious_violations(page) == []
    await shot(page, f"my-games-{name}")

    await links.first.click()  # the table where it is her move
    await page.wait_for_url(f"{url}/room.html?code={rooms['mine'][0]}")
    await page.wait_for_selector("#hand button.hand-card")
    await wait_until(page, f"document.title === '(1) ● Your move — Wonders — room {rooms['mine'][0]}'")
    await expect(page.get_by_role("link", name="My games: 1 owes your move")).to_be_visible()
    assert await sideways_overflow(page) == 0
    await shot(page, f"my-games-room-{name}")


async def test_my_games_in_order_on_a_desktop_and_a_phone(web_server: LiveServer, chromium: Browser) -> None:
    url = web_server.url
    rooms = await four_rooms(url)
    desktop = await holding(chromium, url, DESKTOP, rooms)
    errors = watch_errors(desktop)
    await desktop.goto(url + "/")
    link = desktop.get_by_role("link", name="My games: 1 owes your move")
    await expect(link).to_be_visible()
    await wait_until(desktop, "document.title.startsWith('(1) Wonders — ')")
    await shot(desktop, "my-games-lobby-desktop")
    await check_the_list(desktop, url, rooms, "desktop")

    phone = await holding(chromium, url, PHONE, rooms)
    errors += watch_errors(phone)
    await check_the_list(phone, url, rooms, "phone")
    assert errors == []


async def test_a_link_moves_every_game_to_another_browser(web_server: LiveServer, chromium: Browser) -> None:
    url = web_server.url
    rooms = await four_rooms(url)
    old = await holding(chromium, url, DESKTOP, rooms)
    errors = watch_errors(old)
    await old.goto(f"{url}/my-games.html")
    await old.get_by_role("button", name="Make a link for all my games").click()
    field = old.get_by_role("textbox", name="Open this link on your other device")
    await expect(field).to_have_value(re.compile(r"/my-games\.html#move="))
    link = await field.input_value()
    await shot(old, "my-games-move-link")

    phone = await (await chromium.new_context(viewport=PHONE)).new_page()
    errors += watch_errors(phone)
    await phone.goto(link)
    await expect(phone.locator("#moved")).to_contain_text("4 games moved to this browser")
    assert "#move" not in phone.url  # the secret leaves the address bar
    await expect(phone.get_by_role("list", name="Your move").get_by_role("listitem")).to_have_count(1)
    await wait_until(phone, "document.title === '(1) My games — Wonders'")
    await shot(phone, "my-games-moved-phone")

    await old.get_by_role("button", name="Refresh").click()
    gone = old.get_by_role("list", name="No longer yours here").get_by_role("listitem")
    await expect(gone).to_have_count(4)
    await wait_until(old, "document.title === 'My games — Wonders'")
    await shot(old, "my-games-gone-desktop")
    await old.get_by_role("button", name="Forget them").click()
    await expect(old.get_by_text("This browser holds no seat yet.")).to_be_visible()
    assert await old.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('wonders.seat.')).length") == 0
    assert errors == []
