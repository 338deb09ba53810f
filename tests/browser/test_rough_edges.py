"""The table's rough edges (issue 32), in real headless Chromium at 1280x800 and 390x844: Armada
offered but unticked in the lobby with its provisional notice beside it; responses compressed and
cached (first and second load of the room page). Assertions are on what a person sees: roles,
accessible names and visible text."""

import httpx
import pytest
from playwright.async_api import Browser, Page

from tests.browser.pages import DESKTOP, PHONE, serious_violations, shot, sideways_overflow, watch_errors
from tests.server.helpers import full_room
from tests.server.live import LiveServer

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", ["desktop", "phone"])
async def test_armada_is_offered_unticked_with_its_notice_beside_it(
    web_server: LiveServer, chromium: Browser, size: str
) -> None:
    page = await (await chromium.new_context(viewport=DESKTOP if size == "desktop" else PHONE)).new_page()
    errors = watch_errors(page)
    await page.goto(web_server.url + "/")
    armada = page.get_by_role("checkbox", name="Armada expansion")
    await armada.wait_for()
    assert not await armada.is_checked()
    notice = page.locator("#armada-notice")
    assert await notice.is_visible() and "provisional" in await notice.inner_text()
    # the notice describes the checkbox, and stays beside it whether ticked or not
    assert await armada.get_attribute("aria-describedby") == "armada-notice"
    await armada.check()
    assert await notice.is_visible()
    # another game and back: the choice is kept
    await page.select_option("#create-form select[name=game]", "duel")
    await page.select_option("#create-form select[name=game]", "classic")
    assert await page.get_by_role("checkbox", name="Armada expansion").is_checked()
    await armada.uncheck()
    assert await sideways_overflow(page) == 0
    await shot(page, f"lobby-armada-unticked-{size}")
    assert await serious_violations(page) == []
    assert errors == []


async def load_bytes(page: Page, url: str) -> tuple[int, int, list[str], int]:
    """Open the URL and wait for the table: the bytes received over HTTP (compressed, headers
    included; websocket frames are not counted), the bytes of the bodies once decoded, the
    Content-Encoding of the catalog's answer (a revalidated copy reads as the cached 200) and the
    bytes its answer took."""
    cdp = await page.context.new_cdp_session(page)
    await cdp.send("Network.enable")
    wire: dict[str, int] = {}
    decoded: dict[str, int] = {}
    encodings: list[str] = []
    catalog: list[str] = []

    def finished(event: dict) -> None:
        wire[event["requestId"]] = int(event["encodedDataLength"])

    def received(event: dict) -> None:
        decoded[event["requestId"]] = decoded.get(event["requestId"], 0) + int(event["dataLength"])

    def response(event: dict) -> None:
        if event["response"]["url"].endswith("/api/catalog"):
            headers = {k.lower(): v for k, v in event["response"]["headers"].items()}
            encodings.append(f"{event['response']['status']} {headers.get('content-encoding', '')}".strip())
            catalog.append(event["requestId"])

    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.dataReceived", received)
    cdp.on("Network.responseReceived", response)
    await page.goto(url)
    await page.wait_for_selector("#board .player")
    await page.wait_for_load_state("networkidle")
    await cdp.detach()
    return sum(wire.values()), sum(decoded.values()), encodings, sum(wire[r] for r in catalog)


async def test_the_room_page_is_compressed_and_a_second_visit_downloads_next_to_nothing(
    web_server: LiveServer, chromium: Browser
) -> None:
    async with httpx.AsyncClient(base_url=web_server.url) as http:
        code, _ = await full_room(http, 4, bots=3, seed=3)
    context = await chromium.new_context(viewport=DESKTOP)
    page = await context.new_page()
    errors = watch_errors(page)
    room = f"{web_server.url}/room.html?code={code}"
    first, first_decoded, first_catalog, catalog_bytes = await load_bytes(page, room)
    await page.goto("about:blank")
    second, _, _, catalog_again = await load_bytes(page, room)  # a second visit, same browser
    print(f"room page: first load {first} bytes ({first_decoded} decoded), second load {second} bytes")
    assert first_catalog == ["200 br"]  # Chromium asks for Brotli and gets it
    assert 5000 < catalog_bytes < 20_000  # 113 KB as JSON
    assert catalog_again < 1000  # revalidated, answered 304: only the headers come back
    assert first < first_decoded / 3
    assert second < first / 5  # 304s: about 440 bytes of headers each, no body
    assert errors == []
