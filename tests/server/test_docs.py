"""/docs (Swagger UI) and /redoc (ReDoc) need no internet: their pages name only this server's
files (from the fastapi-offline package), and every one of those files answers."""

from html.parser import HTMLParser

import httpx
import pytest

from app.api.docs import DOCS_ASSETS


class _References(HTMLParser):
    """Every URL a page makes the browser load: <script src>, <link href>, <img src>."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        wanted = {"script": "src", "link": "href", "img": "src"}.get(tag)
        for name, value in attrs:
            if name == wanted and value:
                self.urls.append(value)


def references(html: str) -> list[str]:
    parser = _References()
    parser.feed(html)
    return parser.urls


@pytest.mark.parametrize(
    ("page", "assets"),
    [
        ("/docs", {"swagger-ui-bundle.js", "swagger-ui.css", "favicon.png"}),
        ("/redoc", {"redoc.standalone.js", "favicon.png"}),
    ],
)
async def test_docs_pages_load_only_local_files(sqlite_client: httpx.AsyncClient, page: str, assets: set[str]) -> None:
    r = await sqlite_client.get(page)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "http://" not in r.text and "https://" not in r.text  # no CDN, no web fonts
    urls = references(r.text)
    assert {url.rsplit("/", 1)[-1] for url in urls} == assets
    for url in urls:
        assert url.startswith(DOCS_ASSETS + "/") and not url.startswith("//"), url
        asset = await sqlite_client.get(url)
        assert asset.status_code == 200, url
        assert len(asset.content) > 1000, url  # the real file, not an empty placeholder
    assert "/openapi.json" in r.text
    assert (await sqlite_client.get("/openapi.json")).status_code == 200


async def test_only_the_offline_docs_routes_exist(sqlite_client: httpx.AsyncClient) -> None:
    app = sqlite_client.app  # type: ignore[attr-defined]
    assert app.docs_url is None and app.redoc_url is None  # FastAPI's CDN pages are off
    paths = [getattr(route, "path", None) for route in app.routes]
    assert paths.count("/docs") == 1 and paths.count("/redoc") == 1
    spec = (await sqlite_client.get("/openapi.json")).json()
    assert not any(path.startswith(("/docs", "/redoc", DOCS_ASSETS)) for path in spec["paths"])
