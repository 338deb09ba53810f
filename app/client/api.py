"""Playing a seat from Python: `play` (a coroutine) and `run_bot` take a seat of a room and play it
to the game's end with a bot of app.bots or a function of your own (`as_chooser`)."""

import asyncio
from typing import Any

import httpx

from app.bots import DEFAULT_BOT, Bot, make_bot
from app.client.connection import BotClient, Choose, Log
from app.client.errors import ClientError
from app.client.outcome import Outcome
from app.client.rest import Seat, http_url, join, parse_rejoin_link, read_room, rejoin


def as_chooser(choose: "Choose | Bot | str | None", seed: int | None = None) -> Choose:
    """A function (view, legal_actions) -> action from a bot kind of app.bots ("heuristic", ...),
    a Bot, or such a function (plain or async)."""
    if choose is None:
        choose = DEFAULT_BOT
    if isinstance(choose, str):
        try:
            return make_bot(choose, seed).choose
        except ValueError as exc:
            raise ClientError(str(exc)) from None
    if isinstance(choose, Bot):
        return choose.choose
    if not callable(choose):
        raise ClientError(f"choose must be a bot kind, a Bot or a function, not {type(choose).__name__}")
    return choose


async def play(
    url: str,
    code: str | None = None,
    choose: "Choose | Bot | str | None" = None,
    *,
    name: str | None = None,
    seat: int | None = None,
    token: str | None = None,
    rejoin_link: str | None = None,
    seed: int | None = None,
    log: Log | None = print,
    verbose: bool = False,
    retry_for: float = 300.0,
) -> Outcome:
    """Take a seat of room `code` and play it to the game's end with `choose`: a bot kind of app.bots
    (the default: heuristic), a Bot, or a function (view, legal_actions) -> action (plain or async).

    The seat: join with `name` (and a preferred free `seat`), or play the one `token` holds, or
    the one a `rejoin_link` (the link's URL or its token) moves here. Raises ClientError when it
    cannot (the message says why)."""
    chooser = as_chooser(choose, seed)
    base = http_url(url)
    if rejoin_link is not None:
        link_code, link_token = parse_rejoin_link(rejoin_link)
        code = code or link_code
    if not code:
        raise ClientError("which room? give its code")
    say = log or (lambda _line: None)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        if rejoin_link is not None:
            held = await rejoin(http, code, link_token)
            say(f"took seat {held.seat} of room {held.code} with the rejoin link")
        elif token is not None:
            await read_room(http, code)
            held = Seat(code, token)
        else:
            held = await join(http, code, name or "Bot client", seat)
            if seat is not None and held.seat != seat:
                say(f"seat {seat} is taken")
            say(f"joined room {held.code} as seat {held.seat} ({held.name})")
    client = BotClient(base, held.code, held.token, chooser, log=log, verbose=verbose, retry_for=retry_for)
    return await client.run()


def run_bot(
    url: str,
    code: str | None = None,
    choose: "Choose | Bot | str | None" = None,
    **options: Any,
) -> Outcome:
    """`play(...)` for code that is not async: runs it to the end in a new event loop."""
    return asyncio.run(play(url, code, choose, **options))
