"""7 Wonders Duel data, loaded from app/engine/data/duel: the files read and validated
(models.py), compiled (compiler.py) into immutable definitions (definitions.py), and checked as
a whole (counts, chains, draft and board sizes)."""

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from app.engine.common import data as d
from app.engine.common.resources import cost_items
from app.engine.duel.compiler import compile_cost, compile_effects, compile_layout, compile_track
from app.engine.duel.definitions import AGES, CardDef, DuelData, Slot, TokenDef, WonderDef
from app.engine.duel.models import (
    BoardFile,
    CardFile,
    CardModel,
    SetupModel,
    TokenFile,
    TokenModel,
    WonderFile,
    WonderModel,
)

DUEL_DIR = d.DATA_DIR / "duel"


@dataclass(frozen=True, eq=False)
class DuelFiles:
    """The Duel data files as validated, before compiling: what the compiled definitions leave out
    (each effect as the file gives it, the abilities' rules text, the loot tokens' zones) for
    describing them."""

    board: BoardFile
    card_file: CardFile
    cards: tuple[CardModel, ...]
    guilds: tuple[CardModel, ...]
    wonder_file: WonderFile
    wonders: tuple[WonderModel, ...]
    token_file: TokenFile
    tokens: tuple[TokenModel, ...]


def read_files(directory: Path = DUEL_DIR) -> DuelFiles:
    """Each file of the directory and each of its entries validated (not yet compiled)."""
    board_path, card_path = directory / "board.json", directory / "cards.json"
    wonder_path, token_path = directory / "wonders.json", directory / "progress.json"
    board = d.validate_entry(board_path, "file", d.read_json(board_path), BoardFile)
    card_file = d.validate_entry(card_path, "file", d.read_json(card_path), CardFile)
    cards = d.validate_entries(card_path, "cards", card_file.cards, CardModel)
    guilds = d.validate_entries(card_path, "guilds", card_file.guilds, CardModel)
    wonder_file = d.validate_entry(wonder_path, "file", d.read_json(wonder_path), WonderFile)
    wonders = d.validate_entries(wonder_path, "wonders", wonder_file.wonders, WonderModel)
    token_file = d.validate_entry(token_path, "file", d.read_json(token_path), TokenFile)
    tokens = d.validate_entries(token_path, "tokens", token_file.tokens, TokenModel)
    return DuelFiles(
        board, card_file, tuple(cards), tuple(guilds), wonder_file, tuple(wonders), token_file, tuple(tokens)
    )


def load_cards(
    path: Path, files: DuelFiles, layouts: dict[int, tuple[Slot, ...]]
) -> tuple[tuple[CardDef, ...], tuple[str, ...]]:
    symbols = tuple(files.card_file.science_symbols)
    models = [(m, False) for m in files.cards] + [(m, True) for m in files.guilds]
    cards: list[CardDef] = []
    for model, guild in models:
        where = f"{path}: {'guilds' if guild else 'cards'} entry '{model.name}'"
        if guild != (model.color == "purple") or guild == (model.age is not None):
            raise d.DataError(f"{where}: guilds (and only they) are purple and have no 'age'")
        if any(c.name == model.name for c in cards):
            raise d.DataError(f"{where}: duplicate card name (Duel card names are unique)")
        cost, coins = compile_cost(model.cost, where)
        effects = compile_effects(model.effects, where, symbols)
        if effects.guild and not guild:
            raise d.DataError(f"{where}: only guilds have a guild effect")
        age = 3 if guild else model.age
        assert age is not None
        chain = frozenset(model.chain_from)
        cards.append(
            CardDef(len(cards), model.name, age, guild, model.color, cost, coins, chain, effects, cost_items(cost))
        )
    d.check_chains(path, cards)
    _check_counts(path, cards, files.board.setup, layouts)
    return tuple(cards), symbols


def _check_counts(path: Path, cards: list[CardDef], setup: SetupModel, layouts: dict[int, tuple[Slot, ...]]) -> None:
    guilds = sum(c.guild for c in cards)
    if guilds < setup.guilds_in_age_3:
        raise d.DataError(f"{path}: {guilds} guilds, but {setup.guilds_in_age_3} go into Age III")
    for age in AGES:
        dealt = sum(1 for c in cards if c.age == age and not c.guild) - setup.cards_removed_per_age
        if age == 3:
            dealt += setup.guilds_in_age_3
        if dealt != len(layouts[age]):
            raise d.DataError(f"{path}: Age {age} deals {dealt} cards but its structure has {len(layouts[age])} slots")


def load_named(
    path: Path, section: str, models: tuple[WonderModel, ...] | tuple[TokenModel, ...], symbols: tuple[str, ...]
) -> list:
    out: list = []
    for m in models:
        where = f"{path}: {section} entry '{m.name}'"
        if any(o.name == m.name for o in out):
            raise d.DataError(f"{where}: duplicate name")
        effects = compile_effects(m.effects, where, symbols)
        if effects.guild or effects.coins_per or effects.fixed_prices:
            raise d.DataError(f"{where}: guild, coins_per and fixed_price effects belong on cards")
        if isinstance(m, WonderModel):
            cost, coins = compile_cost(m.cost, where)
            if coins:
                raise d.DataError(f"{where}: Wonders cost resources only")
            out.append(WonderDef(len(out), m.name, cost, effects, cost_items(cost)))
        else:
            out.append(TokenDef(len(out), m.name, effects, m.text))
    return out


def load(directory: Path = DUEL_DIR) -> DuelData:
    files = read_files(directory)
    board_path, board = directory / "board.json", files.board
    if set(board.structures) != {"1", "2", "3"}:
        raise d.DataError(f"{board_path}: structures must be given for Ages 1, 2 and 3")
    layouts = {age: compile_layout(board_path, age, board.structures[str(age)]) for age in AGES}
    cards, symbols = load_cards(directory / "cards.json", files, layouts)
    wonder_path, token_path = directory / "wonders.json", directory / "progress.json"
    wonders = load_named(wonder_path, "wonders", files.wonders, symbols)
    tokens = load_named(token_path, "tokens", files.tokens, symbols)
    if len(wonders) < 2 * board.setup.wonders_per_round:
        raise d.DataError(f"{wonder_path}: {len(wonders)} Wonders cannot fill two draft rounds")
    if len(tokens) < board.setup.progress_tokens_on_board:
        raise d.DataError(f"{token_path}: fewer progress tokens than board spaces")
    return DuelData(
        cards=cards,
        wonders=tuple(wonders),
        tokens=tuple(tokens),
        layouts=layouts,
        track=compile_track(board_path, board.military_track),
        setup=board.setup,
        rules=board.rules,
        science_symbols=symbols,
    )


@cache
def duel_data() -> DuelData:
    return load()


@cache
def duel_files() -> DuelFiles:
    duel_data()  # the files pass every check of the compiled data first
    return read_files()
