"""7 Wonders Duel's table in real headless Chromium: a whole Duel against a bot, played by clicking
the wonder tiles of the draft, the cards of the structure and then one of their uses, and each
decision's buttons, on a phone (390x844: Age I) and on a desktop (1280x800: Ages II and III), to
the score sheet; what a person sees is checked on the way, and screenshots of the draft, mid-Age I,
Age III and the end are saved (DUEL_SHOTS, or a temp folder) at both sizes."""

import os
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, Page
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from app.engine import GameConfig, new_game
from tests.browser.pages import DESKTOP, PHONE, serious_violations, sideways_overflow, wait_until, watch_errors
from tests.server.helpers import bearer
from tests.server.live import LiveServer

pytestmark = pytest.mark.browser

SEED = 7

# What the page shows now, read in one turn of its event loop.
SITUATION = """() => {
    const enabled = (sel) => [...document.querySelectorAll(sel)].filter((b) => !b.disabled);
    const status = document.querySelector("#status");
    return {
        over: Boolean(document.querySelector("table.scores")),
        age: document.querySelector("#turn-info") ? document.querySelector("#turn-info").innerText : "",
        decision: enabled("#decision button.act").length,
        cards: enabled("#board .duel-pyramid button.act").length,
        status: status ? status.innerText : "",
    };
}"""


async def new_duel(server: LiveServer) -> tuple[str, str, list[str]]:
    """A started Duel room: Ada (seat 0) against a greedy bot; its code, Ada's token and both names."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        body = {"name": "Ada", "game": "duel", "players": 2, "bots": [{"kind": "greedy"}], "seed": SEED}
        r = await http.post("/api/rooms", json=body)
        assert r.status_code == 201, r.text
        code, token = r.json()["code"], r.json()["token"]
        r = await http.post(f"/api/rooms/{code}/start", headers=bearer(token))
        assert r.status_code == 200, r.text
        seats = sorted((await http.get(f"/api/rooms/{code}")).json()["seats"], key=lambda s: s["seat"])
    return code, token, [s["name"] for s in seats]


async def seated_page(
    browser: Browser, server: LiveServer, code: str, token: str | None, *, size: dict[str, int], errors: list[str]
) -> Page:
    """A page of the room in its own browser context, seated as Ada when given her token; its
    JavaScript and console errors go to `errors`."""
    page = await (await browser.new_context(viewport=size)).new_page()
    errors += watch_errors(page)
    await page.goto(server.url + "/")
    if token:
        seat = "([c, t]) => localStorage.setItem('wonders.seat.' + c, JSON.stringify({seat: 0, token: t}))"
        await page.evaluate(seat, [code, token])
    await page.goto(f"{server.url}/room.html?code={code}")
    return page


async def shoot(pages: dict[str, Page], folder: Path, name: str) -> None:
    """Screenshots of both pages, which must not scroll sideways nor break axe-core's serious rules."""
    for size, page in pages.items():
        await page.wait_for_timeout(150)  # the other page gets the same state over its own socket
        await page.screenshot(path=str(folder / f"{name}-{size}.png"), full_page=True)
        assert await sideways_overflow(page) == 0, (name, size)
        assert await serious_violations(page) == [], (name, size)


async def click_a_card_then_a_use(page: Page) -> bool:
    """Click the first accessible card of the structure, then its build, else a wonder, else the discard."""
    cards = page.locator("#board .duel-pyramid button.act:enabled")
    if not await cards.count():
        return False
    card = cards.first
    name = await card.get_attribute("data-card")
    label = await card.get_attribute("aria-label")
    assert name and label and label.startswith(name), (name, label)
    try:
        await card.click(timeout=2000)
        await page.wait_for_selector(f".duel-uses[aria-label='Uses of {name}']", timeout=2000)
    except PlaywrightTimeoutError:
        return False
    assert await page.get_attribute(f"#board button[data-card='{name}']", "aria-pressed") == "true"
    for key in ("use:build", "use:wonder:", "use:discard"):
        use = page.locator(f".duel-uses button.act[data-key^='{key}']:enabled")
        if await use.count():
            try:
                await use.first.click(timeout=2000)
            except PlaywrightTimeoutError:
                return False
            return True
    raise AssertionError(f"no enabled use for {name}: {await page.inner_text('.duel-uses')}")


async def by_keyboard(page: Page) -> None:
    """Tab to an accessible card, Enter: focus lands on its first use; Space takes it; once the bot has
    played, focus is back in the table (on the first card or decision button)."""
    card = page.locator("#board .duel-pyramid button.act:enabled").first
    await card.focus()
    await page.keyboard.press("Enter")
    await page.wait_for_selector(".duel-uses .duel-use")
    key = await page.evaluate("document.activeElement.dataset.key || ''")
    assert key.startswith("use:"), key
    await page.keyboard.press("Tab")
    await page.keyboard.press("Shift+Tab")
    assert await page.evaluate("document.activeElement.dataset.key") == key
    await page.keyboard.press("Space")
    await wait_until(
        page,
        "() => { const a = document.activeElement; return a && !a.disabled && a.closest('.slot, .duel-decision') }",
        within_ms=10000,
    )


async def check_table(page: Page, names: list[str], catalog: dict[str, Any]) -> None:
    """What a person sees of the table in the play phase."""
    track = await page.get_attribute(".duel-track", "aria-label")
    assert track and "Conflict pawn" in track and any(n in track for n in names), track
    assert "capital" in await page.inner_text(".duel-track")
    for tile in await page.locator(".duel-tokens .tile").all():
        token = await tile.get_attribute("data-name")
        assert token
        assert catalog["progress_tokens"][token]["text"] in await tile.inner_text()  # its effect in words
    regions = [await r.get_attribute("aria-labelledby") for r in await page.locator(".duel-player").all()]
    headings = [await page.inner_text(f"#{r}") for r in regions if r]
    assert any(h.startswith(f"{names[0]} (you)") for h in headings), headings
    assert any(h.startswith(names[1]) for h in headings), headings
    assert await page.get_by_role("region", name="Your city").count() == 1
    board = await page.inner_text("#board")
    for internal in ("plumb_line", "armillary_sphere", "seat 0", "seat 1", "Seat 1", "Seat 2"):
        assert internal not in board


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where the screenshots go: DUEL_SHOTS (to keep and look at them), else a temp folder."""
    folder = Path(os.environ.get("DUEL_SHOTS") or tmp_path / "duel-shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# Text of a face-up card covered by a card of a lower row (drawn over it): [covered card, text, coverer]
COVERED_TEXT = """() => {
    const slots = [...document.querySelectorAll('.duel-pyramid .slot:not(.taken)')];
    const hits = [];
    slots.forEach((slot, i) => {
        if (!slot.classList.contains('face')) return;
        const texts = [...slot.querySelectorAll('.card-name, .card-body > *, .chain > *')];
        for (const other of slots.slice(i + 1)) {
            const o = other.getBoundingClientRect();
            for (const t of texts) {
                const r = t.getBoundingClientRect();
                const w = Math.min(r.right, o.right) - Math.max(r.left, o.left);
                const hgt = Math.min(r.bottom, o.bottom) - Math.max(r.top, o.top);
                if (w > 2 && hgt > 2) hits.push([slot.innerText.split('\\n')[0], t.innerText, other.innerText]);
            }
        }
    });
    return hits;
}"""


async def structure_faults(page: Page) -> tuple[list[list[str]], float]:
    """Text of face-up cards that a lower row covers, and the empty height below the structure (px)."""
    covered = await page.evaluate(COVERED_TEXT)
    gap = await page.evaluate(
        "() => document.querySelector('.duel-structure').getBoundingClientRect().bottom - Math.max("
        "...[...document.querySelectorAll('.duel-pyramid .slot')].map((s) => s.getBoundingClientRect().bottom))"
    )
    return covered, gap


async def test_a_whole_duel_by_clicking_the_structure(web_server: LiveServer, chromium: Browser, shots: Path) -> None:
    async with httpx.AsyncClient(base_url=web_server.url) as http:
        catalog = (await http.get("/api/catalog")).json()["duel"]
    code, token, names = await new_duel(web_server)
    errors: list[str] = []
    phone = await seated_page(chromium, web_server, code, token, size=PHONE, errors=errors)
    desk = await seated_page(chromium, web_server, code, token, size=DESKTOP, errors=errors)
    pages = {"390": phone, "1280": desk}

    # the draft: the offer as wonder tiles with their cost and effect, whose turn by name
    await phone.wait_for_selector("#decision button.act.k-wonder")
    assert await phone.locator("#decision button.k-wonder").count() == 4
    first = phone.locator("#decision button.k-wonder").first
    wonder = await first.get_attribute("data-name")
    assert wonder and wonder in await first.inner_text()
    assert catalog["wonders"][wonder]["text"] in await first.inner_text()
    assert await first.locator(".cost").count() == 1 and await first.locator(".effect").count() >= 1
    await desk.wait_for_selector(".duel-draft")
    assert "Wonder draft" in await desk.inner_text(".duel-draft")
    await shoot(pages, shots, "1-draft")

    # on a spectator's screen: both players and the structure, read-only
    watcher = await seated_page(chromium, web_server, code, None, size=PHONE, errors=errors)
    await watcher.wait_for_selector(".duel-draft")
    assert await watcher.locator(".duel button, #decision button").count() == 0
    assert await watcher.locator(".duel-player").count() == 2

    clicks = 0
    age1_cards = 0
    decisions: set[str] = set()
    shot_mid_age1 = shot_age3 = checked_discard = keyboard = False
    structures_checked: set[str] = set()
    for _ in range(600):
        now = await desk.evaluate(SITUATION)
        if now["over"]:
            break
        age = now["age"]
        page = phone if age in ("Wonder draft", "Age I") else desk
        now = await page.evaluate(SITUATION)
        if now["decision"]:
            phase = await page.get_attribute("#board .duel", "data-phase") or ""
            if phase not in decisions:  # each kind of decision once, as a person sees it
                decisions.add(phase)
                if phase != "draft":
                    await shoot(pages, shots, f"decision-{phase}")
            button = page.locator("#decision button.act:enabled").first
            try:
                await button.click(timeout=2000)
                clicks += 1
            except PlaywrightTimeoutError:
                pass
            continue
        if not now["cards"]:
            await page.wait_for_timeout(40)
            continue
        if age == "Age I" and age1_cards == 1 and not keyboard:
            await by_keyboard(phone)
            keyboard = True
            clicks += 1
            age1_cards += 1
            continue
        if age == "Age I" and age1_cards == 3 and not shot_mid_age1:
            await check_table(phone, names, catalog)
            await phone.locator("#board .duel-pyramid button.act:enabled").first.click()
            await phone.wait_for_selector(".duel-uses .duel-use")
            assert await phone.locator(".duel-uses button[data-key='use:discard']").count() == 1
            await desk.wait_for_timeout(100)
            await desk.locator("#board .duel-pyramid button.act:enabled").first.click()  # the same card, on the desktop
            await shoot(pages, shots, "2-age1")
            shot_mid_age1 = True
        if age in ("Age II", "Age III") and age not in structures_checked:  # each Age's shape, both sizes
            for size, each in pages.items():
                await each.wait_for_selector(".duel-pyramid .slot.face")
                await each.wait_for_timeout(150)  # the other page gets the same state over its own socket
                covered, gap = await structure_faults(each)
                assert covered == [] and gap < 16, (age, size, covered, gap)
                shape = each.locator(".duel-structure")
                await shape.screenshot(path=str(shots / f"structure-{age.replace(' ', '-')}-{size}.png"))
            structures_checked.add(age)
        if age == "Age III" and not shot_age3:
            await check_table(desk, names, catalog)
            await watcher.wait_for_selector(".duel-pyramid")  # a spectator: the structure and both players, no buttons
            assert await watcher.locator(".duel button, #decision button").count() == 0
            assert await watcher.locator(".duel-player").count() == 2
            await shoot(pages, shots, "3-age3")
            shot_age3 = True
        if age == "Age II" and not checked_discard:
            pile = desk.locator("details.duel-discard")
            summary = (await pile.locator("summary").inner_text()).strip()
            assert summary.startswith("Discard pile (")
            await pile.locator("summary").click()
            assert await pile.get_attribute("open") is not None
            shown = await pile.locator(".card").count()
            assert f"({shown} card" in summary
            checked_discard = True
        if await click_a_card_then_a_use(page):
            clicks += 1
            if age == "Age I":
                age1_cards += 1
    else:
        raise AssertionError("the game did not reach its score sheet")

    await desk.wait_for_selector("table.scores")
    await phone.wait_for_selector("table.scores")
    assert shot_mid_age1 and shot_age3 and checked_discard and keyboard
    assert structures_checked == {"Age II", "Age III"}
    assert "draft" in decisions, decisions
    # Ada's steps were all clicked here (the draft picks and about half the cards of each Age); a
    # click that timed out on a loaded machine may still have gone through, so the stored steps
    # count them, not `clicks`
    async with httpx.AsyncClient(base_url=web_server.url) as http:
        steps = (await http.get(f"/api/rooms/{code}/game/history")).json()["steps"]
    ada_steps = sum(step["seat"] == 0 for step in steps)
    assert ada_steps >= 8 + 3 * 9 and 0 < clicks <= ada_steps, (ada_steps, clicks)
    sheet = await desk.inner_text("table.scores")
    assert names[0] in sheet and names[1] in sheet
    await shoot(pages, shots, "4-end")
    assert errors == []


# Renders one sample the way room.js does (board, then the decision); for the seat to play, clicks
# each accessible card of the structure in turn and reads its uses; clicks record what was sent.
RENDER = """async (samples) => {
    const { loadCatalog } = await import("/static/js/catalog.js");
    await loadCatalog();
    const { renderDuel } = await import("/static/js/duel.js");
    const out = [];
    for (const s of samples) {
        const root = document.createElement("div"); // detached: no layout needed to read it
        const sent = [];
        const ctx = {
            game: "duel", view: s.view, legal: s.legal, me: s.me, interactive: s.interactive,
            name: (n) => ["Ada", "Bob"][n], send: (a) => sent.push(a), focusActions: () => {},
            rerender: () => draw(),
        };
        function draw() {
            const parts = renderDuel(ctx);
            root.replaceChildren(parts.board, ...(parts.decision ? [parts.decision] : []));
        }
        draw();
        const acts = () => [...root.querySelectorAll("button.act")].filter((b) => !b.disabled);
        const cards = [...root.querySelectorAll(".duel-pyramid button.act")].map((b) => b.dataset.card);
        const result = {
            text: [root.textContent, ...[...root.querySelectorAll("[aria-label]")].map((e) => e.ariaLabel)].join(" "),
            buttons: acts().length, cards, labels: [...root.querySelectorAll(".duel-pyramid button")]
                .map((b) => [b.dataset.card, b.getAttribute("aria-label")]),
            decision: root.querySelectorAll(".duel-decision button.act").length, uses: {},
        };
        for (const card of cards) {
            root.querySelector(`.duel-pyramid button[data-card="${CSS.escape(card)}"]`).click();
            const uses = [...root.querySelectorAll(".duel-uses button.act")];
            for (const u of uses) u.click();
            result.uses[card] = { enabled: uses.length, off: root.querySelectorAll(".duel-uses .duel-use.off").length };
        }
        for (const b of root.querySelectorAll(".duel-decision button.act")) b.click();
        result.sent = sent;
        out.push(result);
    }
    return out;
}"""

# words that mean a raw value leaked into the text a person reads
LEAKS = ("undefined", "NaN", "null", "[object", "plumb_line", "armillary_sphere", "Seat 1", "Seat 2", "seat 0")


def samples_of_random_games(games: int) -> list[dict[str, Any]]:
    """Views of random games in every phase: for the seat to act (with its legal actions), for the
    other seat, for a spectator and as a replay shows them (not interactive)."""
    out: list[dict[str, Any]] = []
    for seed in range(1, games + 1):
        g = new_game(GameConfig(game="duel", players=2, seed=seed))
        rng = random.Random(seed)
        seen: dict[str, int] = {}
        while g.to_act:
            seat = g.to_act[0]
            legal = g.legal_actions(seat)
            phase = g.view(seat)["phase"]
            seen[phase] = seen.get(phase, 0) + 1
            if phase != "play" or seen[phase] % 9 == 1:
                out.append({"view": g.view(seat), "legal": legal, "me": seat, "interactive": True})
                out.append({"view": g.view(1 - seat), "legal": [], "me": 1 - seat, "interactive": True})
                out.append({"view": g.view(None), "legal": [], "me": None, "interactive": rng.random() < 0.5})
                out.append({"view": g.view(seat), "legal": [], "me": seat, "interactive": False})
            g.apply(seat, rng.choice(legal))
        out.append({"view": g.view(0), "legal": [], "me": 0, "interactive": True})
    return out


async def test_every_phase_of_random_games_renders(web_server: LiveServer, chromium: Browser) -> None:
    """Every view of random games renders without a JavaScript error: the seat to act gets exactly its
    legal actions as buttons (each accessible card, then each of its uses), everyone else none, and
    no raw value or internal id shows."""
    samples = samples_of_random_games(12)
    phases = {s["view"]["phase"] for s in samples}
    kinds = {"draft", "play", "choose_starter", "choose_progress", "destroy", "build_from_discard", "choose_box_token"}
    assert kinds <= phases
    page = await (await chromium.new_context(viewport=PHONE)).new_page()
    errors = watch_errors(page)
    await page.goto(web_server.url + "/")
    results = await page.evaluate(RENDER, samples)
    assert errors == []
    for sample, got in zip(samples, results, strict=True):
        view, legal = sample["view"], sample["legal"]
        where = f"{view['phase']} (version {view['version']}, me {sample['me']}, interactive {sample['interactive']})"
        for leak in LEAKS:
            assert leak not in got["text"], (leak, where)
        assert all(a in legal for a in got["sent"]), where  # only listed actions, exactly as listed
        if not legal:
            assert got["buttons"] == 0 and not got["sent"], where
            continue
        for card, label in got["labels"]:
            assert label.startswith(card), (label, where)
        if view["phase"] == "play":
            accessible = {s["card"] for s in view["structure"] if s.get("accessible") and s.get("card")}
            assert set(got["cards"]) == accessible, where
            for card, uses in got["uses"].items():
                listed = [a for a in legal if a.get("card") == card]
                assert uses["enabled"] == len(listed), (card, uses, listed, where)
            assert sorted(map(str, got["sent"])) == sorted(map(str, legal)), where  # every action reachable
        else:
            assert got["decision"] == len(legal), (got["decision"], legal, where)
            assert len(got["sent"]) == len(legal), where
