"""The server over HTTP: its URLs, the seat's bearer header, and the REST calls the client makes
(joining a room, a rejoin link, a game's result, "I'm back")."""

from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx

from app.client.errors import ClientError, why_failed


@dataclass
class Seat:
    """A seat token and what it holds: what joining (or a rejoin link) answers."""

    code: str
    token: str
    seat: int | None = None
    name: str | None = None


def http_url(url: str) -> str:
    """The server's base URL: `http://host:port` (ws:// and wss:// are accepted too; no path)."""
    url = url.strip().rstrip("/")
    if "://" not in url:
        url = "http://" + url
    scheme, rest = url.split("://", 1)
    scheme = {"ws": "http", "wss": "https"}.get(scheme.lower(), scheme.lower())
    if scheme not in ("http", "https"):
        raise ClientError(f"the server URL must start with http:// or https://, not {url!r}")
    return f"{scheme}://{rest}"


def ws_url(url: str, code: str) -> str:
    base = http_url(url)
    return ("wss://" if base.startswith("https://") else "ws://") + base.split("://", 1)[1] + f"/ws/rooms/{code}"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _refused(response: httpx.Response, doing: str) -> ClientError:
    try:
        error = response.json()["error"]
        return ClientError(f"{doing}: {error['message']} ({error['code']})", error["code"])
    except (ValueError, KeyError, TypeError):
        return ClientError(f"{doing}: the server answered HTTP {response.status_code}")


async def request(http: httpx.AsyncClient, method: str, path: str, doing: str, **kwargs: Any) -> Any:
    """The JSON body of a successful answer; else a ClientError `doing: why`."""
    try:
        response = await http.request(method, path, **kwargs)
    except httpx.HTTPError as exc:
        raise ClientError(f"{doing}: cannot reach {http.base_url}: {why_failed(exc)}") from None
    if response.status_code >= 400:
        raise _refused(response, doing)
    try:
        return response.json()
    except ValueError:
        raise ClientError(f"{doing}: {http.base_url} does not answer like a Wonders server") from None


async def read_room(http: httpx.AsyncClient, code: str) -> dict[str, Any]:
    """`GET /api/rooms/{code}`: the room (a ClientError when there is none)."""
    return await request(http, "GET", f"/api/rooms/{code}", f"cannot read room {code}")


async def join(http: httpx.AsyncClient, code: str, name: str, seat: int | None = None) -> Seat:
    """`POST /api/rooms/{code}/join`: a free seat, `seat` if it is free, else the first free one."""
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    try:
        joined = await request(http, "POST", f"/api/rooms/{code}/join", f"cannot join room {code}", json=body)
    except ClientError as exc:
        if seat is None or exc.code != "seat_taken":
            raise
        joined = await request(http, "POST", f"/api/rooms/{code}/join", f"cannot join room {code}", json={"name": name})
    return Seat(joined["code"], joined["token"], joined["seat"], name)


def parse_rejoin_link(link: str) -> tuple[str | None, str]:
    """(room code, token) of a rejoin link (`.../room.html?code=ABC&rejoin=TOKEN`), or (None, link)
    when it is the bare token."""
    query = parse_qs(urlsplit(link).query)
    if "rejoin" in query:
        return (query.get("code") or [None])[0], query["rejoin"][0]
    return None, link.strip()


async def rejoin(http: httpx.AsyncClient, code: str, link_token: str) -> Seat:
    """`POST /api/rooms/{code}/rejoin`: the link's seat moves here (its old token stops working)."""
    joined = await request(
        http, "POST", f"/api/rooms/{code}/rejoin", "cannot use the rejoin link", json={"token": link_token}
    )
    return Seat(joined["code"], joined["token"], joined["seat"])


async def game_result(http: httpx.AsyncClient, code: str, token: str, game_id: int) -> dict[str, Any] | None:
    """`GET /api/rooms/{code}/game/result?game=ID`: the score sheet of a game of the room."""
    body = await request(
        http,
        "GET",
        f"/api/rooms/{code}/game/result",
        "cannot read the result",
        params={"game": game_id},
        headers=bearer(token),
    )
    return body.get("result")


async def come_back(http: httpx.AsyncClient, code: str, seat: int | None, token: str) -> None:
    """`POST /api/rooms/{code}/seats/{seat}/back`: "I'm back" (acting on the seat would do too)."""
    await request(
        http, "POST", f"/api/rooms/{code}/seats/{seat}/back", "cannot take the seat back", headers=bearer(token)
    )
