"""A person's games: every seat a browser holds, listed in one request, and a link that moves them
all to another device.

The list is one read of the database for all the tokens (`Store.held_seats`: the seats, their
rooms, the rooms' seats, each room's latest game, and for a running game its stored step count and
the server's part of its kept state). Whose move it is comes from what is at hand, cheapest first:
the game's runtime when this instance holds it; else its kept state's summary (saved_states.py:
who owes a decision, the age and turn, the clocks) when it was kept at the game's last step, as it
is whenever a game is put away idle; else (a game kept before its last steps: another instance
plays it, or this one stopped without putting it away) the game is loaded through the runtime
cache like any read of it, at most LOADS_AT_ONCE at a time, and the list waits for it.

What an entry says is what the seat's own player may see anyway: the room's code, game and seats'
names, the age and turn, whose move it is, the seat's own deadline, the result once the game is
over. Never a view, a hand or a token: a token that holds no seat (the room is gone, the seat moved
to another device) is said to be gone, by its place in the request.

A move link is one secret for many rejoin links (rejoin.py): making it gives each seat the rejoin
link `<secret>.<n>`, replacing an unused older one; opening it gives the device that opens it a
new token for each seat whose link is still unused, and their old tokens stop working.
"""

import asyncio
import functools
import logging
from datetime import datetime
from typing import Any

from app.db.storage import GameRecord, HeldSeat, RoomRecord, SeatRecord, iso, now
from app.rooms.clocks import Clock, SeatClocks, iso_time
from app.rooms.errors import NotFound, RoomError
from app.rooms.room_base import RoomServiceBase
from app.rooms.runtime import GameRuntime
from app.rooms.saved_states import summary_of
from app.tokens import hash_token, new_token

log = logging.getLogger("wonders.rooms")

MAX_TOKENS = 100  # seat tokens in one request
LOADS_AT_ONCE = 4  # games a list loads at once (those whose kept state is behind their log)
ORDER = {"your_move": 0, "waiting": 1, "lobby": 2, "finished": 3, "gone": 4}


def _deadline(summary: dict[str, Any], clock: Clock, seat: int) -> float | None:
    """The seat's deadline (Unix seconds) after the summarized step, if it owes a decision on a clock."""
    clocks = summary.get("clocks")
    if not clock.on or clocks is None or seat not in summary["to_act"]:
        return None
    if isinstance(clocks, SeatClocks):
        return clocks.deadline(clock, seat)
    return SeatClocks(tuple(clocks["owes_since"]), tuple(clocks["bank"]), ()).deadline(clock, seat)


def _players(room: RoomRecord, seats: tuple[SeatRecord, ...]) -> list[dict[str, Any]]:
    by_seat = {s.seat: s for s in seats}
    return [
        {
            "seat": i,
            "name": by_seat[i].name if i in by_seat else None,
            "kind": by_seat[i].kind if i in by_seat else "free",
        }
        for i in range(room.settings.get("players", 0))
    ]


def _result(game: GameRecord) -> dict[str, Any]:
    """The public end of a game: winners and each seat's total (a closed room's game: abandoned)."""
    if game.status == "abandoned" or not game.result:
        return {"abandoned": game.status == "abandoned", "winners": [], "scores": [], "victory": None}
    result = game.result
    scores = [{"seat": s["seat"], "total": s["total"], "coins": s.get("coins")} for s in result.get("scores", [])]
    return {
        "abandoned": False,
        "winners": result.get("winners", []),
        "scores": scores,
        "victory": result.get("victory"),
    }


class MyGames(RoomServiceBase):
    """Every seat a list of tokens holds, and links that move them to another device."""

    @functools.cached_property
    def _loads(self) -> asyncio.Semaphore:
        return asyncio.Semaphore(LOADS_AT_ONCE)

    async def my_games(self, tokens: list[str]) -> dict[str, Any]:
        """One entry per token, in the order: your move (soonest deadline first), waiting for
        others, waiting to start, finished (latest first), gone. `your_move` counts the first."""
        hashes = [hash_token(t) for t in tokens]
        held = {h.token_hash: h for h in await self.store.held_seats(hashes)}
        running = {h.game.id: h for h in held.values() if h.game is not None and h.game.status == "running"}
        summaries = dict(zip(running, await asyncio.gather(*map(self._summary, running.values())), strict=True))
        entries = []
        for index, token_hash in enumerate(hashes):
            seat = held.get(token_hash)
            if seat is None:
                entries.append({"index": index, "status": "gone"})
            else:
                game_id = seat.game.id if seat.game is not None else None
                entries.append(self._entry(index, seat, summaries.get(game_id) if game_id is not None else None))
        entries.sort(key=_order)
        return {
            "games": entries,
            "your_move": sum(1 for e in entries if e["status"] == "your_move"),
            "server_time": iso(now()),
        }

    async def _summary(self, held: HeldSeat) -> dict[str, Any] | None:
        """Who owes a decision in the running game, its age and turn, its clocks (None: unknown, the
        game cannot be read)."""
        game = held.game
        assert game is not None
        rt = self.games.runtimes.get(game.id)
        kept = held.kept
        if rt is None and kept is not None and held.kept_version == held.steps and "summary" in kept:
            return {**kept["summary"], "clocks": kept.get("clocks"), "bots": None}
        if rt is None:
            async with self._loads:
                try:
                    rt = await self.games.runtime(game.id)
                except RoomError as exc:  # unreadable: its entry says nothing of whose move it is
                    log.info("game %s not listed with whose move: %s", game.id, exc.message)
                    return None
        return self._of_runtime(rt)

    @staticmethod
    def _of_runtime(rt: GameRuntime) -> dict[str, Any]:
        frame = rt.frame
        return {**summary_of(frame), "clocks": frame.clocks, "bots": set(rt.bots)}

    def _entry(self, index: int, held: HeldSeat, summary: dict[str, Any] | None) -> dict[str, Any]:
        room, seat, game = held.room, held.seat, held.game
        settings = room.settings
        entry: dict[str, Any] = {
            "index": index,
            "code": room.code,
            "url": f"/room.html?code={room.code}",
            "room_status": room.status,
            "game": settings.get("game", "classic"),
            "expansions": list(settings.get("expansions") or []),
            "seat": seat.seat,
            "name": seat.name,
            "host": room.host_seat == seat.seat,
            "players": _players(room, held.room_seats),
            "bot_plays": seat.bot_plays,
            "bot_reason": seat.bot_reason if seat.bot_plays else None,
            "game_id": None,
            "to_act": None,
            "age": None,
            "turn": None,
            "turns_per_age": None,
            "phase": None,
            "deadline": None,
            "clock": "off",
            "result": None,
            "finished_at": None,
            "started_at": None,
        }
        if game is None or room.status == "open":
            entry["status"] = "finished" if room.status == "closed" else "lobby"
            entry["result"] = (
                {"abandoned": True, "winners": [], "scores": [], "victory": None} if room.status == "closed" else None
            )
            return entry
        clock = Clock.of(game.clock)
        entry.update(
            game=game.kind,
            expansions=list(game.config.get("expansions") or []),
            game_id=game.id,
            clock=clock.mode,
            started_at=iso(game.created_at),
        )
        if game.status != "running":
            entry.update(status="finished", result=_result(game), finished_at=iso(game.finished_at))
            return entry
        entry["status"] = "waiting"
        if summary is None:
            return entry
        to_act = list(summary["to_act"])
        entry.update(to_act=to_act, **{k: summary.get(k) for k in ("age", "turn", "turns_per_age", "phase")})
        bots = summary["bots"]
        bot_plays = seat.bot_plays is not None if bots is None else seat.seat in bots
        if seat.seat in to_act and not bot_plays:
            entry["status"] = "your_move"
            at = _deadline(summary, clock, seat.seat)
            entry["deadline"] = None if at is None else iso_time(at)
        return entry

    # ----- moving every seat to another device ---------------------------------------------------

    async def move_link(self, tokens: list[str]) -> dict[str, Any]:
        """A link that moves every seat these tokens hold to the device that opens it (each seat's
        rejoin link becomes `<secret>.<n>`, replacing an unused one made before)."""
        secret = new_token()
        async with self.store.transaction() as tx:
            held = await tx.seats_by_tokens([hash_token(t) for t in tokens], lock=True)
            people = [seat for _, seat in held if seat.kind == "human"]
            if not people:
                raise NotFound("none of these tokens holds a seat any more", code="no_seats")
            for n, seat in enumerate(people):
                await tx.update_seat(seat, rejoin_hash=hash_token(f"{secret}.{n}"))
        return {"url": f"/my-games.html#move={secret}", "token": secret, "seats": len(people)}

    async def move_here(self, secret: str) -> list[dict[str, Any]]:
        """Open a move link: each of its seats whose link is still unused gets a new token (answered
        here, once), and its old token stops working (its websockets lose the seat)."""
        hashes = [hash_token(f"{secret}.{n}") for n in range(MAX_TOKENS)]
        moved = []
        async with self.store.transaction() as tx:
            held = await tx.seats_by_rejoins(hashes, lock=True)
            touched: dict[int, RoomRecord] = {}
            for room, seat in held:
                if seat.kind != "human":
                    continue
                token = new_token()
                await tx.update_seat(seat, token_hash=hash_token(token), rejoin_hash=None)
                touched.setdefault(room.id, room)
                moved.append({"code": room.code, "seat": seat.seat, "name": seat.name, "token": token})
            for room in touched.values():
                await tx.update_room(room, updated_at=now())
        if not moved:
            raise NotFound(
                "this link moves no seat: it is unknown, was already used, or newer links replaced it; make a new one "
                "on the device that holds your games",
                code="unknown_link",
            )
        for code in sorted({m["code"] for m in moved}):
            await self._changed(code)
        return moved


def _order(entry: dict[str, Any]) -> tuple[Any, ...]:
    status = entry["status"]
    if status == "your_move":
        return (0, entry["deadline"] or "~", entry["code"])  # soonest deadline first, none last
    if status == "finished":
        return (3, -_seconds(entry["finished_at"]), entry["code"])
    if status == "gone":
        return (4, entry["index"])
    return (ORDER[status], -_seconds(entry["started_at"]), entry["code"])


def _seconds(moment: str | None) -> float:
    return datetime.fromisoformat(moment).timestamp() if moment else 0.0
