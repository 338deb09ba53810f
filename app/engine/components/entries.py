"""The parts every described component shares: its cost, its effects with their words, Armada's
provisional marks, and the chains between cards."""

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from app.engine.common.resources import RESOURCES
from app.engine.components.words import GameKind, effect_text, effects_text

Cost = dict[str, Any]  # {"coins": int, "resources": {resource: count}}


def cost_entry(cost: Mapping[str, int]) -> Cost:
    return {"coins": cost.get("coins", 0), "resources": {r: cost[r] for r in RESOURCES if r in cost}}


def effect_entries(effects: Sequence[BaseModel], game: GameKind) -> list[dict[str, Any]]:
    return [{**e.model_dump(exclude_none=True), "text": effect_text(e, game)} for e in effects]


def with_words(effects: Sequence[BaseModel], game: GameKind) -> dict[str, Any]:
    return {"effects": effect_entries(effects, game), "text": effects_text(effects, game)}


def provisional(model: Any) -> dict[str, Any]:
    return {"provisional": model.provisional, "reason": model.reason}


def link_chains(cards: Sequence[dict[str, Any]]) -> None:
    """Fill each card's chain_to: the cards of the same game its chain makes free."""
    by_name = {c["name"]: c for c in cards}
    if len(by_name) != len(cards):
        raise ValueError("two cards of one game share a name")
    for card in cards:
        for source in card["chain_from"]:
            by_name[source]["chain_to"].append(card["name"])
