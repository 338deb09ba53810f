"""7 Wonders Duel's components: cards and guilds, Wonders, progress tokens and the military track."""

from typing import Any

from app.engine.components.entries import cost_entry, with_words
from app.engine.duel.data import duel_files


def duel_box() -> dict[str, Any]:
    files = duel_files()
    cards = {
        m.name: {
            "kind": "card",
            "name": m.name,
            "game": "duel",
            "color": m.color,
            "age": 3 if guild else m.age,
            "ages": [3 if guild else m.age],
            "expansion": None,
            "guild": guild,
            "cost": cost_entry(m.cost),
            "chain_from": list(m.chain_from),
            "chain_to": [],
            **with_words(m.effects, "duel"),
        }
        for models, guild in ((files.cards, False), (files.guilds, True))
        for m in models
    }
    return {
        "science_symbols": list(files.card_file.science_symbols),
        "abilities": {**files.wonder_file.abilities, **files.token_file.abilities},
        "cards": cards,
        "wonders": {
            w.name: {
                "kind": "wonder",
                "name": w.name,
                "game": "duel",
                "cost": cost_entry(w.cost),
                **with_words(w.effects, "duel"),
            }
            for w in files.wonders
        },
        "progress_tokens": {
            t.name: {"kind": "progress_token", "name": t.name, **with_words(t.effects, "duel"), "rules": t.text}
            for t in files.tokens
        },
        "military_track": files.board.military_track.model_dump(by_alias=True, exclude={"note"}),
    }
