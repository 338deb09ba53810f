"""The browser client under its Content-Security-Policy (no inline script, style or handler, no eval):
the policy is in force in Chromium, and the pages that hold no game (the lobby, the icon sheet) run
without one violation. The other browser tests play whole games under the same policy, any violation
being a console error they refuse."""

import pytest
from playwright.async_api import Browser

from tests.browser.pages import DESKTOP, wait_until, watch_errors
from tests.server.live import LiveServer

pytestmark = pytest.mark.browser

VIOLATIONS = """() => {
    window.violations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.violations.push(e.violatedDirective));
}"""


async def test_the_policy_refuses_inline_code_and_the_client_needs_none(
    web_server: LiveServer, chromium: Browser
) -> None:
    page = await (await chromium.new_context(viewport=DESKTOP)).new_page()
    await page.add_init_script(f"({VIOLATIONS})()")
    errors = watch_errors(page)
    await page.goto(web_server.url + "/static/icons.html")
    await page.wait_for_selector("#all .cell svg")
    assert await page.locator("#all .cell").count() > 50  # its script (a file now) ran
    assert await page.evaluate("getComputedStyle(document.querySelector('.grid')).display") == "grid"  # its CSS too
    await page.goto(web_server.url + "/")
    await page.wait_for_selector("#create-form select[name=clock] option", state="attached")
    assert await page.evaluate("window.violations") == [] and errors == []
    # an injected inline script, inline style and handler are refused
    ran = await page.evaluate(
        """() => {
        const s = document.createElement("script"); s.textContent = "window.injected = 1"; document.body.append(s);
        const d = document.createElement("div"); d.setAttribute("style", "color: red"); document.body.append(d);
        return [window.injected === 1, getComputedStyle(d).color];
    }"""
    )
    assert ran[0] is False and ran[1] != "rgb(255, 0, 0)"
    # the violations are reported as events, a moment later
    await wait_until(page, "['script-src-elem', 'style-src-attr'].every(v => window.violations.includes(v))", 10000)
