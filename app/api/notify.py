"""Notifications over REST: where a seat (or, for the whole room, its host) is told of its games,
and the stop link in every message."""

from html import escape
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse

from app.api.deps import RoomCode, SeatDep, ServicesDep
from app.api.errors import ERROR_RESPONSES
from app.api.notify_schemas import NotifyIn, NotifyOut, PushKeyOut
from app.api.rooms import SeatPath
from app.db.outbox_storage import ROOM_CHANNEL
from app.db.storage import KEEP, Keep
from app.rooms.errors import RoomError

router = APIRouter(tags=["notifications"], responses=ERROR_RESPONSES)

StopKey = Annotated[str, Path(min_length=10, max_length=64, pattern=r"^[A-Za-z0-9_-]+$", description="from a message")]


def _body(body: NotifyIn) -> tuple[list[str] | None, dict[str, Any] | Keep | None, str]:
    """(urls, push, when); a field left out keeps what is set (None / KEEP)."""
    urls = body.urls if "urls" in body.model_fields_set else None
    push: dict[str, Any] | Keep | None = KEEP
    if "push" in body.model_fields_set:
        push = None if body.push is None else body.push.model_dump()
    return urls, push, body.when


@router.put("/api/rooms/{code}/seats/{seat}/notify", response_model=NotifyOut, summary="Set where a seat is told")
async def set_seat_notify(code: RoomCode, seat: SeatPath, body: NotifyIn, auth: SeatDep, svc: ServicesDep) -> NotifyOut:
    """Set the channels that tell this seat's player it is their move (once per turn), remind them
    when a quarter of their time is left, and tell them the result. Only the seat's own token. `urls`
    replaces the URLs set; a field left out (`urls`, `push`) keeps what is set.
    URLs are secrets: the answer (and GET) shows them masked. A URL on a loopback or private address
    is refused (422 `private_address`) unless the server sets NOTIFY_ALLOW_PRIVATE."""
    return NotifyOut(**await svc.rooms.set_notify(auth, seat, *_body(body)))


@router.get("/api/rooms/{code}/seats/{seat}/notify", response_model=NotifyOut, summary="Where a seat is told")
async def seat_notify(code: RoomCode, seat: SeatPath, auth: SeatDep, svc: ServicesDep) -> NotifyOut:
    return NotifyOut(**await svc.rooms.notify_of(auth, seat))


@router.delete("/api/rooms/{code}/seats/{seat}/notify", response_model=NotifyOut, summary="Stop telling a seat")
async def clear_seat_notify(code: RoomCode, seat: SeatPath, auth: SeatDep, svc: ServicesDep) -> NotifyOut:
    return NotifyOut(**await svc.rooms.clear_notify(auth, seat))


@router.put("/api/rooms/{code}/notify", response_model=NotifyOut, summary="Set the room's group channel (host)")
async def set_room_notify(code: RoomCode, body: NotifyIn, auth: SeatDep, svc: ServicesDep) -> NotifyOut:
    """The host sets channels for the whole room (the friends' Discord channel, say): it is told who
    is to move, once per turn, and the result."""
    return NotifyOut(**await svc.rooms.set_notify(auth, ROOM_CHANNEL, *_body(body)))


@router.get("/api/rooms/{code}/notify", response_model=NotifyOut, summary="The room's group channel (host)")
async def room_notify(code: RoomCode, auth: SeatDep, svc: ServicesDep) -> NotifyOut:
    return NotifyOut(**await svc.rooms.notify_of(auth, ROOM_CHANNEL))


@router.delete("/api/rooms/{code}/notify", response_model=NotifyOut, summary="Remove the room's group channel (host)")
async def clear_room_notify(code: RoomCode, auth: SeatDep, svc: ServicesDep) -> NotifyOut:
    return NotifyOut(**await svc.rooms.clear_notify(auth, ROOM_CHANNEL))


@router.get("/api/notify/push-key", response_model=PushKeyOut, summary="The server's Web Push key")
async def push_key(request: Request) -> PushKeyOut:
    return PushKeyOut(public_key=request.app.state.settings.vapid_public_key or None)


PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title>
<link rel="stylesheet" href="/static/css/style.css"></head>
<body><main class="stop-page"><h1>{title}</h1>{body}</main></body></html>"""


@router.get("/notify/stop/{key}", response_class=HTMLResponse, include_in_schema=False)
async def stop_page(key: StopKey) -> HTMLResponse:
    """The link in every message: a page with a button (a link alone changes nothing: mail scanners
    open links)."""
    form = (
        f'<p>Stop the messages these notifications send for this seat?</p><form method="post" action="/notify/stop/'
        f'{escape(key)}"><button type="submit">Stop these messages</button></form>'
    )
    return HTMLResponse(PAGE.format(title="Stop notifications", body=form))


@router.post("/notify/stop/{key}", response_class=HTMLResponse, include_in_schema=False)
async def stop(key: StopKey, svc: ServicesDep) -> HTMLResponse:
    try:
        code, _ = await svc.rooms.stop_notify(key)
    except RoomError as exc:
        return HTMLResponse(PAGE.format(title="Nothing to stop", body=f"<p>{escape(exc.message)}</p>"), status_code=404)
    body = (
        f"<p>You will no longer get these messages for room {escape(code)}. You can set them again at "
        f'<a href="/room.html?code={escape(code)}">its table</a>.</p>'
    )
    return HTMLResponse(PAGE.format(title="Notifications stopped", body=body))
