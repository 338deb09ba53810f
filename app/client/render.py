"""The client's words: an action in a few words (`describe`), the score sheet as a table
(`score_sheet`), and the lines for a game that begins and one that ends."""

from collections.abc import Iterator
from typing import Any

from app.client.outcome import Outcome
from app.engine import Action


def describe(action: Action) -> str:
    """A short line for an action: `build Loom (pays 2)`, `wonder stage 1 with Baths`, ..."""
    kind = action.get("type", "?")
    words = [str(kind)]
    if kind == "wonder" and "stage" in action:
        words.append(f"stage {action['stage']}")
    for key in ("wonder", "card", "island", "token", "seat"):
        if key in action and not (kind == "wonder" and key == "card"):
            words.append(str(action[key]))
    if kind == "wonder" and "card" in action:
        words.append(f"with {action['card']}")
    cost = action.get("cost")
    paid = sum(v for v in cost.values() if isinstance(v, int)) if isinstance(cost, dict) else cost
    if isinstance(paid, int) and paid:
        words.append(f"(pays {paid})")
    if action.get("free"):
        words.append(f"(free: {action['free']})")
    if action.get("naval"):
        words.append("+ naval step")
    if action.get("moves"):
        words.append("moving " + ", ".join(action["moves"]))
    if action.get("reward"):
        words.append(f"for the {action['reward']} ship")
    return " ".join(words)


def score_sheet(result: dict[str, Any], names: dict[int, str | None]) -> list[str]:
    """The score sheet as lines of a table: one per seat, by category, and the winners."""
    categories = list(result.get("categories") or [])
    scores = result.get("scores") or []

    def who(seat: int) -> str:
        return f"{names.get(seat) or 'seat ' + str(seat)} (seat {seat})"

    header = ["seat", "name", *categories, "total"]
    rows = [
        [
            str(s.get("seat")),
            str(names.get(s.get("seat")) or ""),
            *(str(s.get("categories", {}).get(c, "")) for c in categories),
            str(s.get("total", "")),
        ]
        for s in scores
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(r, widths, strict=True)))
        for r in [header, *rows]
    ]
    winners = result.get("winners") or []
    victory = f" ({result['victory']} victory)" if result.get("victory") else ""
    lines.append(("winner: " if len(winners) == 1 else "winners: ") + ", ".join(who(w) for w in winners) + victory)
    return lines


def game_begins(state: dict[str, Any], room: dict[str, Any] | None, seat: int | None, waited: bool) -> str:
    """`game 7 started: classic with armada, 4 players, playing seat 1` (`running, at step 12` for a
    game under way when the client came, unless it had waited for it)."""
    settings = (room or {}).get("settings", {})
    what = settings.get("game", "game")
    if settings.get("expansions"):
        what += " with " + ", ".join(settings["expansions"])
    where = "started" if waited or not state["version"] else f"running, at step {state['version']}"
    players = settings.get("players", len(state["view"].get("players") or []))
    return f"game {state['game_id']} {where}: {what}, {players} players, playing seat {seat}"


def game_ends(outcome: Outcome) -> Iterator[str]:
    """How the game ended: steps, actions and reconnections, and the score sheet; or its abandonment."""
    status, result, version = outcome.status, outcome.result, outcome.version
    if status == "finished":
        yield (
            f"game {outcome.game_id} is over after {version} steps "
            f"({outcome.actions} actions of seat {outcome.seat}, {outcome.reconnects} reconnections)"
        )
        if result:
            yield from score_sheet(result, outcome.names)
    elif status == "abandoned":
        yield f"game {outcome.game_id} was abandoned: the room was closed unused"
