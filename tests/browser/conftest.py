"""Browser tests: Debian's Chromium driven by Playwright (async API, so they share the event loop
of the other asyncio tests), against a real uvicorn serving the app."""

import os
import shutil
from collections.abc import AsyncIterator, Iterator

import pytest
from playwright.async_api import Browser, async_playwright

from tests.server.conftest import make_settings
from tests.server.live import LiveServer

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
HAVE_CHROMIUM = os.path.exists(CHROMIUM)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("web") / "wonders.db"
    server = LiveServer(make_settings(f"sqlite:///{db}", bot_delay_ms=0))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def chromium() -> AsyncIterator[Browser]:
    if not HAVE_CHROMIUM:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("chromium is not installed (tests/run installs Debian's chromium)")
        pytest.skip("chromium is not installed")
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            await browser.close()


@pytest.fixture(scope="module")
def notify_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose notifications go out at once and may reach 127.0.0.1 (the tests' receivers)."""
    db = tmp_path_factory.mktemp("notify-web") / "wonders.db"
    server = LiveServer(make_settings(f"sqlite:///{db}", notify_allow_private=True, notify_poll_seconds=0.05))
    server.start()
    try:
        yield server
    finally:
        server.stop()
