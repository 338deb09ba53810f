"""What the browser tests share: error watching, playing a seat by clicking, overflow and
accessibility checks, and screenshots of each phase (into SCREENSHOT_DIR, default a temp folder)."""

import os
import tempfile
import time
from pathlib import Path

from axe_playwright_python.async_playwright import Axe
from playwright.async_api import Locator, Page

SHOTS = Path(os.environ.get("SCREENSHOT_DIR") or Path(tempfile.gettempdir()) / "wonders-shots")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def watch_errors(page: Page) -> list[str]:
    """Collect JavaScript errors and console errors of the page."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    return errors


async def wait_until(page: Page, predicate: str, within_ms: float = 30000) -> None:
    """Wait until the JavaScript expression (or function) is truthy in the page. Playwright's own
    wait_for_function compiles its string inside the page, which the client's Content-Security-Policy
    (no eval) refuses; page.evaluate goes through the browser's debugging protocol instead."""
    deadline = time.monotonic() + within_ms / 1000
    while not await page.evaluate(predicate):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {predicate}")
        await page.wait_for_timeout(40)


async def box(locator: Locator, within_ms: float = 10000) -> dict[str, float]:
    """The element's bounding box. Playwright answers None while the element is detached, which it
    is for a moment whenever the page redraws on a new state (bots keep playing meanwhile)."""
    deadline = time.monotonic() + within_ms / 1000
    while (found := await locator.bounding_box()) is None:
        if time.monotonic() > deadline:
            raise AssertionError(f"{locator} has no bounding box")
        await locator.page.wait_for_timeout(40)
    return found


async def shot(page: Page, name: str, full_page: bool = True) -> Path:
    path = SHOTS / f"{name}.png"  # Playwright makes the folder
    await page.screenshot(path=str(path), full_page=full_page)
    return path


async def sideways_overflow(page: Page) -> int:
    """How many pixels the page is wider than its viewport (0: no sideways scrolling)."""
    return await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


async def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page, as 'rule: target' lines."""
    results = await Axe().run(page)
    out = []
    for v in results.response["violations"]:
        if v["impact"] in ("serious", "critical"):
            targets = ", ".join(str(n["target"]) for n in v["nodes"][:3])
            out.append(f"{v['id']} ({v['impact']}): {v['help']} at {targets}")
    return out


# One decision of a classic seat by clicking, chosen and clicked in one turn of the page's event loop
# (a state arriving meanwhile cannot swap the hand under it). Returns what was clicked, or null.
# `prefer` orders the uses tried: e.g. ["build", "wonder", "discard"].
PLAY_ONE = """(prefer) => {
    const enabled = (sel) => [...document.querySelectorAll(sel)].filter((b) => !b.disabled && b.offsetParent !== null);
    const decision = enabled("#decision button");
    if (decision.length) {
        const b = decision[0];
        b.click();
        return "decision: " + (b.getAttribute("aria-label") || b.innerText);
    }
    if (!document.querySelector("#pick").hidden) return null;
    const cards = enabled("#hand button.hand-card");
    if (!cards.length) return null;
    const card = cards.find((c) => !c.classList.contains("unbuildable")) || cards[0];
    card.click();
    let uses = enabled("#actions .use button.act");
    for (const kind of prefer) {
        const use = uses.find((b) => b.classList.contains("use-" + kind));
        if (use) { uses = [use]; break; }
    }
    if (!uses.length) return null;
    uses[0].click();
    const confirm = enabled("#actions button.confirm");
    if (confirm.length) confirm[0].click();
    return card.dataset.card + ": " + uses[0].innerText;
}"""


async def play_one(page: Page, prefer: tuple[str, ...] = ("build", "wonder", "discard")) -> str | None:
    return await page.evaluate(PLAY_ONE, list(prefer))


async def game_over(page: Page) -> bool:
    return await page.locator("#result table.scores").count() > 0
