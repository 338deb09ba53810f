"""What a browser may keep, and how it asks again: responses compressed (Brotli where the client
takes it, gzip otherwise; websocket frames are left to uvicorn's own per-message deflate), the
static files, the pages and the catalog sent with an ETag and `Cache-Control: no-cache`, so a second
visit revalidates each one and is answered 304 with no body while nothing changed."""

import hashlib
import os
from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi.responses import FileResponse
from starlette.datastructures import Headers
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope
from starlette_compress import CompressMiddleware

REVALIDATE = "no-cache"  # keep it, but ask whether it changed before each use


def install_compression(app: FastAPI) -> None:
    """Compress HTTP answers of 500 bytes or more whose type is text-like (JSON, HTML, scripts,
    CSS, SVG); zstd is left out (Brotli and gzip are what browsers and tools take everywhere)."""
    app.add_middleware(CompressMiddleware, zstd=False, brotli_quality=5, gzip_level=6)


def etag_of(body: bytes) -> str:
    return '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'


def matches(request_headers: Headers, etag: str) -> bool:
    """Whether If-None-Match names this ETag (weak or strong, as the browser sent it back)."""
    asked = request_headers.get("if-none-match")
    if not asked:
        return False
    if asked.strip() == "*":
        return True
    return etag in [tag.strip().removeprefix("W/") for tag in asked.split(",")]


def revalidated(request: Request, body: bytes, media_type: str) -> Response:
    """The body with its ETag, or 304 when the browser already holds it."""
    etag = etag_of(body)
    headers = {"ETag": etag, "Cache-Control": REVALIDATE}
    if matches(request.headers, etag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media_type, headers=headers)


class RevalidatedStaticFiles(StaticFiles):
    """Starlette's static files (ETag, Last-Modified, 304 on a match), told to be revalidated."""

    def file_response(
        self, full_path: str | os.PathLike[str], stat_result: os.stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = REVALIDATE
        return response


def file_page(request: Request, path: Path, media_type: str) -> Response:
    """A page of the client: 304 when the browser's copy is this one."""
    headers = {"Cache-Control": REVALIDATE}
    response = FileResponse(path, media_type=media_type, headers=headers, stat_result=os.stat(path))
    if matches(request.headers, response.headers["etag"]):
        return NotModifiedResponse(response.headers)
    return response
