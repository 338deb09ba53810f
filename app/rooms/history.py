"""A game's history, from its stored log: every step's public events and time, the view at any
step, and (once the game is over) its room's chat said while it was played, each message placed at
the step from which a replay shows it."""

from bisect import bisect_right
from datetime import UTC, datetime
from typing import Any

from app.db.storage import StoredGame, iso
from app.engine import Event, GameConfig, replay_steps
from app.rooms.errors import (
    Forbidden,
    Invalid,
    NotFound,
)
from app.rooms.game_base import GameServiceBase

REPLAY_CHAT = 1000  # messages a replay shows at most (the first ones said)


class GameHistory(GameServiceBase):
    """A game's history: its stored log replayed, with each step's public events and the view at a step."""

    async def history(self, game_id: int, *, at: int | None, seat: int | None, full: bool) -> dict[str, Any]:
        """The log and, with `at`, the view after `at` steps. `full` (finished games): the actions
        themselves and any seat's view; otherwise only public information (who acted, public events,
        the spectator view). `full` also brings the chat said while the game was played (see
        replay_chat); whoever may read the history may read it (the room's spectator rule allows
        both, or neither)."""
        stored = await self.store.game(game_id)
        if stored is None:
            raise NotFound(f"there is no game {game_id}", code="game_not_found")
        entries = stored.steps
        config = GameConfig.model_validate(stored.config)
        if at is not None and not 0 <= at <= len(entries):
            raise Invalid(f"at must be between 0 and {len(entries)} (the number of steps)", code="bad_step")
        if seat is not None and not full:
            raise Forbidden("a seat's own view of past steps is shown once the game is over", code="game_running")
        if seat is not None and seat >= config.seats:
            raise Invalid(f"game {game_id} has seats 0 to {config.seats - 1}, not {seat}", code="bad_seat")
        game = self.factory(config)
        view = game.view(seat) if at == 0 else None
        steps = []
        try:
            for i, (entry, events) in enumerate(zip(entries, replay_steps(game, entries), strict=True)):
                steps.append(_history_step(entry, events, full))
                if at == i + 1:
                    view = game.view(seat)
        except Exception as exc:
            raise self._unreadable_game(game_id, exc) from None
        out: dict[str, Any] = {
            "game_id": game_id,
            "status": stored.status,
            "version": len(entries),
            "config": config.model_dump(mode="json") if full else _public_config(config),
            "seats": stored.seats,
            "steps": steps,
            "result": stored.result,
            "started_at": iso(stored.created_at),
            "chat": await self.replay_chat(stored) if full else None,
        }
        if at is not None:
            out["at"] = at
            out["view"] = view
        return out

    async def replay_chat(self, stored: StoredGame) -> list[dict[str, Any]]:
        """The room's messages said from the game's start until the room's next game started (or
        now): those said during the game, and after its end ("well played"). Each carries `step`,
        the number of steps made before it was said: a replay at step k shows those with step <= k.
        Deleted messages stay deleted (no words)."""
        from app.rooms.chat import chat_out  # (the room service's module: it imports this one's service)

        started = _aware(stored.created_at)
        async with self.store.reading() as tx:
            games = await tx.games(stored.room_id)
        later = [_aware(g.created_at) for g in games if g.id != stored.id and _aware(g.created_at) > started]
        messages = await self.store.chat(
            stored.room_id, since=started, until=min(later, default=None), limit=REPLAY_CHAT
        )
        times = [_aware(entry["created_at"]) for entry in stored.steps]
        return [{**chat_out(m), "step": bisect_right(times, _aware(m.at))} for m in messages]


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes: they were stored in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _history_step(entry: dict[str, Any], events: list[Event], full: bool) -> dict[str, Any]:
    step: dict[str, Any] = {
        "seq": entry["seq"],
        "seat": entry["seat"],
        "at": iso(entry["created_at"]),
        "events": events,
        "by_timeout": entry["by_timeout"],
    }
    if full:
        step["action"] = entry["action"]
    return step


def _public_config(config: GameConfig) -> dict[str, Any]:
    """The rules options without the seed, which would give away every hidden card."""
    return config.model_dump(mode="json", exclude={"seed"})
