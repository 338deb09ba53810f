"""The browser client: its pages and its static files (HTML, CSS, ES modules; no build step)."""

from pathlib import Path

from fastapi import APIRouter, FastAPI, Request, Response

from app.api.caching import RevalidatedStaticFiles, file_page

router = APIRouter(include_in_schema=False)
PAGES = {"/": "index.html", "/room.html": "room.html", "/my-games.html": "my-games.html"}


def install(app: FastAPI, static_dir: Path) -> None:
    """Serve the client when its files are there (an API-only deployment may leave them out)."""
    if not (static_dir / "index.html").is_file():
        return
    app.mount("/static", RevalidatedStaticFiles(directory=static_dir), name="static")
    app.include_router(router)


def _page(name: str):  # type: ignore[no-untyped-def]
    async def page(request: Request) -> Response:
        return file_page(request, request.app.state.settings.static_dir / name, "text/html")

    return page


for path, file in PAGES.items():
    router.add_api_route(path, _page(file), methods=["GET"])


@router.get("/sw.js")
async def service_worker(request: Request) -> Response:
    """Web Push's service worker, served from the root so that its scope is every page."""
    return file_page(request, request.app.state.settings.static_dir / "sw.js", "text/javascript")
