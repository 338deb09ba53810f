"""/docs and /redoc in headless Chromium with the internet cut off: every request to another host
than the test server would be aborted, and none is even sent; both pages list every operation."""

from urllib.parse import urlsplit

import httpx
import pytest
from playwright.async_api import Browser, Page, Request, Route, expect

from app.api.docs import POLICY
from tests.browser.test_client import watch_errors
from tests.server.live import LiveServer

pytestmark = pytest.mark.browser
METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}


class Offline:
    """A page whose requests to any host but 127.0.0.1 are aborted (and remembered)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.aborted: list[str] = []
        self.requests: list[Request] = []
        page.on("request", self._seen)

    def _seen(self, request: Request) -> None:  # a bound method: Playwright cannot wrap list.append
        self.requests.append(request)

    async def start(self) -> "Offline":
        await self.page.route("**/*", self._route)
        return self

    async def _route(self, route: Route) -> None:
        if urlsplit(route.request.url).hostname == "127.0.0.1":
            await route.continue_()
        else:
            self.aborted.append(route.request.url)
            await route.abort("internetdisconnected")

    def sent_elsewhere(self) -> list[str]:
        """Requests to another host that the browser did not block itself (by the pages' policy)."""
        return [
            r.url
            for r in self.requests
            if urlsplit(r.url).hostname != "127.0.0.1" and r.failure != "csp" and not r.url.startswith("data:")
        ]


def operations(server: LiveServer) -> list[tuple[str, str]]:
    spec = httpx.get(server.url + "/openapi.json").json()
    return [(method, path) for path, item in spec["paths"].items() for method in item if method in METHODS]


async def offline_page(chromium: Browser) -> Offline:
    return await Offline(await (await chromium.new_context()).new_page()).start()


async def test_swagger_ui_lists_every_operation_offline(web_server: LiveServer, chromium: Browser) -> None:
    offline = await offline_page(chromium)
    page = offline.page
    errors = watch_errors(page)
    response = await page.goto(web_server.url + "/docs")
    assert response is not None and response.headers["content-security-policy"] == POLICY

    join = page.locator(".opblock-post .opblock-summary-path[data-path='/api/rooms/{code}/join']")
    await expect(join).to_be_visible(timeout=15000)
    create = page.locator(".opblock-post", has=page.locator(".opblock-summary-path[data-path='/api/rooms']"))
    await expect(create).to_be_visible()
    assert "POST" in await create.locator(".opblock-summary-method").inner_text()
    await expect(page.locator(".opblock")).to_have_count(len(operations(web_server)))

    assert offline.aborted == [] and offline.sent_elsewhere() == []
    assert errors == []


async def test_redoc_renders_every_operation_offline(web_server: LiveServer, chromium: Browser) -> None:
    offline = await offline_page(chromium)
    page = offline.page
    errors = watch_errors(page)
    response = await page.goto(web_server.url + "/redoc")
    assert response is not None and response.headers["content-security-policy"] == POLICY

    # each operation's endpoint box: its method, then its path
    join = page.locator("button:has(span.http-verb.post)", has_text="/api/rooms/{code}/join")
    await expect(join).to_be_visible(timeout=15000)
    await expect(page.locator("button:has(span.http-verb)")).to_have_count(len(operations(web_server)))
    await expect(page.get_by_role("heading", name="Wonders server")).to_be_visible()

    assert offline.aborted == [] and offline.sent_elsewhere() == []
    # ReDoc's bundle asks for its sidebar logo on a CDN; the policy refuses it before any request
    # leaves the browser (the logo hides itself, as it does offline)
    assert all("cdn.redoc.ly" in e and "Content Security Policy" in e for e in errors), errors
