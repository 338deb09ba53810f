"""The browser client in real headless Chromium: friends create and join a room and play whole games
of 7 Wonders (and Armada) by clicking the table, to the score sheet, its chart and the replay.
Assertions are on what a person sees: accessible names, roles and visible text."""

import asyncio
import json
import re

import httpx
import pytest
from playwright.async_api import Browser, Page, WebSocket, expect

from tests.browser.pages import (
    DESKTOP,
    PHONE,
    box,
    game_over,
    play_one,
    serious_violations,
    shot,
    sideways_overflow,
    wait_until,
    watch_errors,
)
from tests.server.helpers import bearer
from tests.server.live import LiveServer

pytestmark = pytest.mark.browser
LABELS = "els => els.map((e) => e.getAttribute('aria-label'))"
ICON_LABEL = r"(\d+ )?(wood|stone|clay|ore|glass|papyrus|loom)|\d+ coins?|\d+ points?|\d+ shields?|compass|gear|tablet"


async def create_room(
    page: Page, url: str, *, name: str, players: int, bots: int, armada: bool | None = None, keep_form: bool = False
) -> str:
    """Create a room through the lobby's form (`keep_form`: on the lobby as it is, its other fields as set)."""
    if not keep_form:
        await page.goto(url + "/")
    await page.fill("#create-form input[name=name]", name)
    await page.select_option("#create-form select[name=game]", "classic")
    await page.fill("#create-form input[name=players]", str(players))
    await page.fill("#create-form input[name=bots]", str(bots))
    if armada is not None:
        await page.set_checked("#create-form input[name=armada]", armada)
    await page.click("#create-form button[type=submit]")
    await page.wait_for_url(re.compile(r"/room\.html\?code=[A-Z0-9]{6,}"))
    await wait_until(page, "document.querySelector('#share').value !== ''")
    return (await page.inner_text("#room-code")).strip()


async def fix_seed(url: str, page: Page, code: str, seed: int) -> None:
    """A fixed seed (the test server allows it): the same deal every run."""
    saved = json.loads(await page.evaluate("code => localStorage.getItem('wonders.seat.' + code)", code))
    async with httpx.AsyncClient(base_url=url) as http:
        settings = {"seed": seed, "wonder_side": "day"}
        r = await http.patch(f"/api/rooms/{code}", json=settings, headers=bearer(saved["token"]))
        assert r.status_code == 200, r.text


async def play_until_over(pages: list[Page], limit: int = 900) -> int:
    clicks = 0
    for _ in range(limit):
        if await game_over(pages[0]):
            return clicks
        acted = False
        for page in pages:
            if await play_one(page):
                clicks += 1
                acted = True
        if not acted:
            await pages[0].wait_for_timeout(40)
    raise AssertionError("the game did not reach its score sheet")


async def play_turns(pages: list[Page], turns: int) -> None:
    """Play until every page has picked `turns` more times (bots play their own seats)."""
    done = [0] * len(pages)
    for _ in range(400):
        if min(done) >= turns:
            return
        for i, page in enumerate(pages):
            if done[i] < turns and await play_one(page):
                done[i] += 1
        await pages[0].wait_for_timeout(60)
    raise AssertionError(f"could not play {turns} turns: {done}")


async def test_two_friends_play_a_whole_four_player_game_by_clicking(web_server: LiveServer, chromium: Browser) -> None:
    ada = await (await chromium.new_context(viewport=DESKTOP)).new_page()
    errors = watch_errors(ada)
    code = await create_room(ada, web_server.url, name="Ada", players=4, bots=2)
    await fix_seed(web_server.url, ada, code, 11)
    share = await ada.input_value("#share")
    assert code in share

    bob_context = await chromium.new_context(viewport=PHONE)  # another browser, on a phone
    bob = await bob_context.new_page()
    errors += watch_errors(bob)
    sockets: list[WebSocket] = []
    bob.on("websocket", lambda ws: sockets.append(ws))  # noqa: PLW0108 (a bound method is refused)
    await bob.goto(share)
    assert await bob.get_attribute("#join-seat input[name=name]", "maxlength") == "24"  # the server's limit
    await bob.fill("#join-seat input[name=name]", "Bob")
    await bob.click("#join-seat button[type=submit]")
    await bob.wait_for_selector("#seats li:has-text('Bob — you')")
    await ada.wait_for_selector("#seats li:has-text('Bob')")
    # taking a seat replaced the spectator's websocket: one connection, not two
    await wait_until(bob, "document.querySelector('#conn').innerText === 'connected as Bob'")
    assert len(sockets) == 2 and not sockets[1].is_closed()
    if not sockets[0].is_closed():  # its closing handshake may end after the new one's welcome
        await sockets[0].wait_for_event("close", timeout=10000)
    await shot(ada, "classic4-lobby-desktop")
    assert await serious_violations(ada) == []

    await ada.click("#start:enabled")
    await ada.wait_for_selector("#hand button.hand-card")
    await bob.wait_for_selector("#hand button.hand-card")

    # cards look like cards: costs and effects as labelled icons
    card = ada.locator("#hand button.hand-card").first
    name = await card.get_attribute("data-card")
    assert (await card.get_attribute("aria-label")).startswith(name)
    labels = await ada.eval_on_selector_all("#hand .hand-card .icon", LABELS)
    assert labels and all(labels)
    assert any(re.fullmatch(ICON_LABEL, x) for x in labels)
    effects = await ada.eval_on_selector_all("#hand .hand-card .effect", LABELS)
    assert effects and all(effects)
    assert await ada.get_by_role("region", name="Your hand").count() == 1
    assert await ada.get_by_role("region", name="Log").count() == 1
    assert await ada.get_by_role("region", name="Your city").count() == 1
    assert await ada.get_by_role("region", name="Ada (you)").count() == 1
    # neighbours are named, and sit on their side of you
    left = ada.locator(".neighbours .player.neighbour.left")
    right = ada.locator(".neighbours .player.neighbour.right")
    assert "your left neighbour" in (await left.get_attribute("aria-label"))
    assert "your right neighbour" in (await right.get_attribute("aria-label"))
    assert (await box(left))["x"] < (await box(ada.locator(".neighbours .player.me")))["x"]
    assert await ada.get_by_role("region", name=re.compile(r"^Bob \(your (left|right) neighbour\)$")).count() == 1
    assert "You buy from" in await left.inner_text()
    await shot(ada, "classic4-age1-desktop")
    await shot(bob, "classic4-age1-phone")
    assert await sideways_overflow(bob) == 0
    assert await serious_violations(bob) == []
    assert await serious_violations(ada) == []

    # the pick stays visible, names the card, and can be changed until the reveal
    picked = await play_one(ada)
    assert picked
    await ada.wait_for_selector("#pick:not([hidden])")
    pick_text = await ada.inner_text("#pick")
    assert re.search(r"You will (build|discard) ", pick_text) and picked.split(":")[0] in pick_text
    assert "change it" in pick_text
    assert await ada.locator("#hand .hand-card.picked").count() >= 1
    assert await ada.title() == f"Wonders — room {code}"  # not your move any more
    assert re.match(r"(\(1\) )?● Your move", await bob.title())  # (1): the games owing his move, this one

    # everything works from the keyboard: Bob (his seat kept across a reload) picks with Tab and Enter
    await bob.reload()
    await bob.wait_for_selector("#hand button.hand-card")
    await bob.keyboard.press("Tab")  # the skip link comes first
    assert await bob.evaluate("document.activeElement.innerText") == "Skip to your hand"
    await bob.keyboard.press("Enter")
    await bob.keyboard.press("Tab")
    focused = await bob.evaluate("document.activeElement.dataset.card")
    assert focused == await bob.get_attribute("#hand button.hand-card >> nth=0", "data-card")
    await bob.keyboard.press("Enter")  # choose the card: its uses come next, the first one focused
    await wait_until(bob, "document.activeElement.matches('#actions button.act')")
    use = await bob.evaluate("document.activeElement.innerText")
    assert re.match(r"(Build|Wonder stage|Discard)", use)
    await bob.keyboard.press("Enter")
    for _ in range(12):  # several ways to pay: Tab to the confirmation
        if await bob.locator("#pick:not([hidden])").count():
            break
        if await bob.evaluate("document.activeElement.matches('button.confirm')"):
            await bob.keyboard.press("Enter")
        else:
            await bob.keyboard.press("Tab")
    # Bob's was the last pick of the turn: the reveal shows what he did
    await bob.wait_for_selector("#turn-summary:not([hidden])")
    summary = await bob.inner_text("#turn-summary")
    assert re.search(rf"Bob (built {re.escape(focused)}|built stage 1|discarded)", summary)

    await play_turns([ada, bob], 4)
    await bob.wait_for_selector("#turn-summary:not([hidden])")
    summary = await bob.inner_text("#turn-summary")
    assert "Ada" in summary and "Bob" in summary
    # the log survives a reload, in words with names
    log_before = await ada.inner_text("#log")
    await ada.reload()
    await ada.wait_for_selector("#log .log-line")
    log_after = await ada.inner_text("#log")
    assert "Ada built" in log_after or "Ada discarded" in log_after
    assert log_after.count("Age I, turn 1:") == 1 and log_before.count("Age I, turn 1:") == 1
    assert "reveal" not in log_after and "seat " not in log_after.lower()
    # a tap on a card of a city opens its detail panel (tests/browser/test_details.py has the rest)
    city_card = bob.locator(".player.me .city .card").first
    card_name = await city_card.get_attribute("data-card")
    await city_card.click()
    panel = bob.get_by_role("dialog", name=card_name)
    await panel.wait_for()
    assert "Cost:" in await panel.inner_text()
    await shot(bob, "classic4-details-phone")
    await panel.get_by_role("button", name="Close").click()
    await panel.wait_for(state="hidden")

    # a spectator arriving now gets the log too, and sees every city but no hand
    cy = await (await chromium.new_context(viewport=DESKTOP)).new_page()
    errors += watch_errors(cy)
    await cy.goto(share)
    await cy.wait_for_selector("#log .log-line")
    assert "Age I, turn 1:" in await cy.inner_text("#log")
    await cy.wait_for_selector(".player")
    assert await cy.locator(".player").count() == 4
    assert await cy.locator("#hand-region").is_hidden()
    # Bob sees each turn once
    assert (await bob.inner_text("#log")).count("Age I, turn 2:") == 1

    await play_until_over([ada, bob])
    await bob.wait_for_selector("#result table.scores")
    assert "military conflicts" in (await ada.inner_text("#log")).lower()
    assert re.search(r"beat .* victory token", await ada.inner_text("#log"))
    sheet = await ada.inner_text("table.scores")
    assert all(word in sheet for word in ("Ada", "Bob", "Total", "science"))
    bars = ada.locator("svg.score-chart g.bar")
    assert await bars.count() == 4
    assert "Ada" in await ada.get_attribute("svg.score-chart", "aria-label")
    await shot(ada, "classic4-end-desktop")
    await shot(bob, "classic4-end-phone")
    assert await sideways_overflow(bob) == 0
    assert await serious_violations(ada) == []

    # the room lists its games; a finished one can be stepped through as any seat
    await ada.wait_for_selector("#past-games button:has-text('Replay')")
    await ada.click("#past-games button:has-text('Replay')")
    await ada.wait_for_selector("#replay-step")
    await ada.fill("#replay-step", "1")
    await wait_until(ada, "document.querySelector('.replay-where').innerText.startsWith('Step 1 of')")
    await ada.select_option("#replay-seat", label="Bob")
    await ada.wait_for_selector('.replay-hand[aria-label="Bob\'s hand"]')
    first = await ada.inner_text(".replay-where")
    await ada.click("button[aria-label='Next step']")
    await wait_until(ada, "document.querySelector('.replay-where').innerText.startsWith('Step 2 of')")
    assert first != await ada.inner_text(".replay-where")
    await shot(ada, "classic4-replay-desktop")
    assert await serious_violations(ada) == []

    # a rematch starts a new section of the log
    await ada.click("#room-details summary")
    await ada.click("#start:has-text('Rematch')")
    await wait_until(ada, "document.querySelectorAll('#log section.log-game').length === 2")
    await ada.wait_for_selector("#hand button.hand-card")
    assert errors == []


async def test_a_seven_player_armada_game_on_a_phone(web_server: LiveServer, chromium: Browser) -> None:
    """Armada at 7 players in the 390 px viewport: no sideways scrolling at any phase, the hand and
    its actions first, shipyards for everyone, naval steps and islands by clicking, the naval
    ranking by name and Armada's categories on the score sheet."""
    page = await (await chromium.new_context(viewport=PHONE)).new_page()
    errors = watch_errors(page)
    await page.goto(web_server.url + "/")
    # offered, unticked by default (provisional values), the notice beside the choice
    assert not await page.is_checked("#create-form input[name=armada]")
    assert "provisional" in await page.inner_text("#armada-notice")
    code = await create_room(page, web_server.url, name="Ada", players=7, bots=6, armada=True)
    await page.wait_for_selector("#notices .notice")
    assert "provisional" in await page.inner_text("#notices")
    await fix_seed(web_server.url, page, code, 5)
    await page.click("#start:enabled")
    await page.wait_for_selector("#hand button.hand-card")
    assert await page.locator(".shipyard").count() == 7  # every shipyard is there,
    assert await page.locator(".shipyard:visible").count() == 1  # but on a phone only yours is open
    assert await page.locator(".player.compact").count() == 6  # the others fold away, and open on a tap
    await page.locator(".player.compact summary").first.click()
    await expect(page.locator(".shipyard:visible")).to_have_count(2)  # kept open through redraws
    first_action = (await box(page.locator("#hand button.hand-card").first))["y"]
    assert first_action < 400  # the first thing to click is near the top of the phone's screen
    hand_top = (await box(page.locator("#hand-region")))["y"]
    board_top = (await box(page.locator("#board")))["y"]
    assert hand_top < board_top < 2 * 844  # your hand first, the table after it, no endless page
    assert await sideways_overflow(page) == 0
    await shot(page, "armada7-age1-phone")
    assert await serious_violations(page) == []

    seen_naval = False
    phases = 0
    for _ in range(900):
        if await game_over(page):
            break
        done = await play_one(page, prefer=("build", "wonder", "discard_yellow", "discard"))
        if done is None:
            await page.wait_for_timeout(40)
            continue
        seen_naval = seen_naval or "naval" in done.lower()
        if await page.locator(".age-results").count() and phases < 2:
            phases += 1
            assert await sideways_overflow(page) == 0
            await shot(page, f"armada7-age-end-{phases}-phone")
    assert await game_over(page)
    log = await page.inner_text("#log")
    assert "Naval conflict of Age III, strongest first:" in log
    assert re.search(r"Naval conflict of Age I, strongest first: \w", log)
    sheet = await page.inner_text("table.scores")
    assert all(word in sheet for word in ("naval", "islands", "shipyard", "Total"))
    assert await sideways_overflow(page) == 0
    await shot(page, "armada7-end-phone")
    assert errors == []


async def test_who_won_is_in_view_when_a_game_ends_on_a_phone(web_server: LiveServer, chromium: Browser) -> None:
    """The last card is played with the page scrolled down to the hand: once the game is over, the
    line saying who won is on the screen, below the sticky header, not under it."""
    page = await (await chromium.new_context(viewport=PHONE)).new_page()
    errors = watch_errors(page)
    code = await create_room(page, web_server.url, name="Ada", players=3, bots=2)
    await fix_seed(web_server.url, page, code, 3)
    await page.click("#start:enabled")
    for _ in range(600):
        if await game_over(page):
            break
        await page.evaluate("document.querySelector('#hand-region:not([hidden])')?.scrollIntoView({block: 'start'})")
        if await play_one(page) is None:
            await page.wait_for_timeout(40)
    assert await game_over(page)
    status = page.locator("#status")
    await expect(status).to_have_text(re.compile(r"^The game is over: .+ wins? with \d+ points\.$"))
    await page.wait_for_timeout(300)  # any scroll has ended
    header = await box(page.locator("header"))
    line = await box(status)
    assert header["y"] + header["height"] <= line["y"] < 844, (header, line)
    await shot(page, "game-end-phone", full_page=False)
    assert errors == []


async def test_lobby_and_room_say_what_is_wrong(web_server: LiveServer, chromium: Browser) -> None:
    page = await (await chromium.new_context()).new_page()
    await page.goto(web_server.url + "/room.html?code=NOSUCH9")
    await page.wait_for_selector("#error:not(:empty)")
    assert "There is no room NOSUCH9" in await page.inner_text("#error")
    await wait_until(page, "document.querySelector('#conn').innerText === 'no such room'")

    await page.goto(web_server.url + "/")
    assert await page.get_attribute("#create-form input[name=name]", "maxlength") == "24"
    code = await create_room(page, web_server.url, name="Ada", players=3, bots=2)
    other = await (await chromium.new_context()).new_page()
    await other.goto(web_server.url + f"/room.html?code={code}")
    await other.wait_for_selector("#room-full:not([hidden])")
    assert "full" in await other.inner_text("#room-full")
    assert await other.locator("#join-seat").is_hidden()


async def test_the_lobby_offers_bot_levels(web_server: LiveServer, chromium: Browser) -> None:
    """Bots are chosen by level, as on other sites (medium by default); the room names each bot's level."""
    page = await (await chromium.new_context(viewport=PHONE)).new_page()
    errors = watch_errors(page)
    await page.goto(web_server.url + "/")
    level = page.get_by_label("Bot level")
    assert await level.input_value() == "medium"
    offered = await level.locator("option").all_inner_texts()
    assert [text.split(" ")[0] for text in offered] == ["medium", "easy", "hard", "random"]
    assert await sideways_overflow(page) == 0  # the longest level fits a phone's form
    await page.select_option("#create-form select[name=bot_kind]", "easy")
    await create_room(page, web_server.url, name="Ada", players=3, bots=2, keep_form=True)
    seats = await page.locator("#seats").inner_text()
    assert seats.count("(easy bot)") == 2, seats
    assert errors == []


async def test_the_log_read_from_history_names_whom_each_payment_went_to(
    web_server: LiveServer, chromium: Browser
) -> None:
    """A game played over REST, then its room opened: the log, rebuilt from the stored history,
    names the neighbour each coin went to as the engine seats them (a seat's left neighbour is the
    next seat), not the mirror image."""
    async with httpx.AsyncClient(base_url=web_server.url, timeout=30) as http:
        r = await http.post("/api/rooms", json={"name": "Ada", "players": 3, "bots": [{"kind": "greedy"}] * 2})
        assert r.status_code == 201, r.text
        code, token = r.json()["code"], r.json()["token"]
        assert (await http.post(f"/api/rooms/{code}/start", headers=bearer(token))).status_code == 200
        for _ in range(400):
            state = (await http.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()
            if state["status"] != "running":
                break
            if 0 not in state["to_act"]:
                await asyncio.sleep(0.02)
                continue
            legal = state["legal_actions"]
            paying = [a for a in legal if (a.get("cost") or {}).get("left") or (a.get("cost") or {}).get("right")]
            body = {"action": (paying or legal)[0], "version": state["version"]}
            r = await http.post(f"/api/rooms/{code}/game/actions", json=body, headers=bearer(token))
            assert r.status_code in (200, 409), r.text
        history = (await http.get(f"/api/rooms/{code}/game/history", headers=bearer(token))).json()
    assert history["status"] == "finished"
    names = {s["seat"]: s["name"] for s in history["seats"]}
    expected = []
    for step in history["steps"]:
        for event in step["events"]:
            for m in event.get("moves", []) if event["type"] == "reveal" else []:
                cost = m.get("cost") or {}
                sides = [side for side in ("left", "right") if cost.get(side)]
                if m["type"] == "build" and not cost.get("bank") and len(sides) == 1:
                    side, n = sides[0], cost[sides[0]]
                    payee = names[(m["seat"] + (1 if side == "left" else -1)) % 3]
                    coins = f"{n} coin{'s' if n > 1 else ''}"
                    expected.append(f"{names[m['seat']]} built {m['card']}, paying {coins} to {payee}.")
    assert expected, "no build paid one neighbour in this game"
    page = await (await chromium.new_context(viewport=DESKTOP)).new_page()
    errors = watch_errors(page)
    await page.goto(web_server.url + "/")
    seat = "([c, t]) => localStorage.setItem('wonders.seat.' + c, JSON.stringify({seat: 0, token: t}))"
    await page.evaluate(seat, [code, token])
    await page.goto(f"{web_server.url}/room.html?code={code}")
    await page.wait_for_selector("#log .log-line")
    await wait_until(page, "document.querySelector('#log').innerText.includes('The game is over')")
    log = await page.inner_text("#log")
    missing = [line for line in expected if line not in log]
    assert not missing, (missing[:3], log[:1500])
    assert errors == []
