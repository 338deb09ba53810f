"""Armada's conflicts and losses: taxes and piracy (step 6 of a turn, after every income), the
naval conflict of each Age, and the landings' extra ground conflicts."""

from typing import TYPE_CHECKING, Any

from app.engine.classic.turn import battle
from app.engine.common.game import Event

if TYPE_CHECKING:
    from app.engine.classic.armada.game import ArmadaGame


def step_coin_losses(game: "ArmadaGame") -> list[Event]:
    """Taxes and piracy, after every income of the turn."""
    if not game.coin_losses:
        return []
    owed = [0] * game.n
    for kind, seat, amount in game.coin_losses:
        level = game.fleets[seat].commerce
        for other in range(game.n):
            if other == seat:
                continue
            if kind == "piracy":
                owed[other] += game.fleets[other].commerce
            elif game.fleets[other].commerce < level:
                owed[other] += amount
    game.coin_losses = []
    lost = []
    for seat, amount in enumerate(owed):
        p = game.players[seat]
        taken = 0 if "coin_loss_immunity" in game.fleets[seat].flags else min(amount, p.coins)
        p.coins -= taken
        lost.append(taken)
    return [{"type": "coin_losses", "lost": lost}] if any(lost) else []


def landing_battles(game: "ArmadaGame", victory: int) -> list[dict[str, Any]]:
    """The extra ground conflicts of this Age's landing tokens (then the tokens are gone)."""
    battles = [{**battle(game, owner, target, victory), "landing": True} for owner, target in game.landings]
    game.landings = []
    return battles


def naval_conflict(game: "ArmadaGame") -> Event:
    """Everyone against everyone by naval strength; ties as ArmadaData's naval_conflicts.ties says."""
    strengths = [f.naval for f in game.fleets]
    tokens: list[int | None] = [None] * game.n
    if len(set(strengths)) > 1:
        weakest = min(strengths)
        ranks = game.armada.ranks[game.age]
        for seat, mine in enumerate(strengths):
            if mine == weakest:
                if "naval_defeat_immunity" not in game.fleets[seat].flags:
                    tokens[seat] = game.armada.weakest[game.age]
                continue
            position = 1 + sum(1 for s in strengths if s > mine)
            rank = position + (1 if strengths.count(mine) > 1 else 0)
            if rank <= len(ranks):
                tokens[seat] = ranks[rank - 1]
    for seat, token in enumerate(tokens):
        if token is not None:
            game.fleets[seat].naval_tokens.append(token)
    return {"type": "naval_conflict", "age": game.age, "strengths": strengths, "tokens": tokens}
