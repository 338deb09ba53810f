"""A turn of the classic game: secret picks, their resolution together, and the steps that follow
(an explicit table, STEPS, that a variant extends): Babylon's last card, the discarded hands,
Halikarnassos' build from the discard, the next turn or the end of the Age and its conflicts."""

from typing import TYPE_CHECKING, Any

from app.engine.classic import scoring
from app.engine.classic.checks import parse_card_action
from app.engine.classic.data import Effects
from app.engine.classic.move import Move
from app.engine.classic.phases import DISCARD_BUILD, LAST_CARD, OVER, PICK
from app.engine.classic.player import SIDE_NAMES, Player
from app.engine.common.game import Event

if TYPE_CHECKING:
    from app.engine.classic.game import ClassicGame

DISCARD_COINS = 3
VICTORY_TOKENS = {1: 1, 2: 3, 3: 5}
DEFEAT_TOKEN = -1


def start_age(game: "ClassicGame") -> None:
    game.age += 1
    game.turn = 1
    deck = game.decks[game.age]
    size = game.hand_size
    game.hands = [deck[i * size : (i + 1) * size] for i in range(game.n)]
    game.decks[game.age] = deck[game.n * size :]
    game.phase = PICK


# ----- the pick phase ---------------------------------------------------------------------------


def apply_pick(game: "ClassicGame", seat: int, action: dict[str, Any]) -> list[Event]:
    move = parse_card_action(game, game.players[seat], game.hands[seat], action)
    changed = seat in game.picks
    game.picks[seat] = move
    game.log.append({"seat": seat, "action": move.action(game.cards[move.card].name)})
    events: list[Event] = [{"type": "chosen", "seat": seat, "changed": changed}]
    if len(game.picks) == game.n:
        events.extend(resolve_turn(game))
    return events


def resolve_turn(game: "ClassicGame") -> list[Event]:
    game.own()
    moves = sorted(game.picks.items())
    game.picks = {}
    resolve(game, moves)
    events: list[Event] = [
        {
            "type": "reveal",
            "age": game.age,
            "turn": game.turn,
            "moves": [m.public(s, game.cards[m.card].name) for s, m in moves],
        }
    ]
    game.queue = game.turn_steps(game.turn == game.turns_per_age)
    return events + run_queue(game)


def resolve(game: "ClassicGame", moves: list[tuple[int, Move]]) -> None:
    """Every payment first, then every card on the table, then immediate effects, then the
    neighbours' income: effects see every card of the turn, and coins earned arrive after it."""
    income = [0] * game.n
    for seat, move in moves:
        pay(game, seat, move, income)
    for seat, move in moves:
        place(game, seat, move)
    for seat, move in moves:
        game.take_effects(seat, move)
    players = game.players
    for seat, coins in enumerate(income):
        players[seat].coins += coins


def pay(game: "ClassicGame", seat: int, move: Move, income: list[int]) -> None:
    coins = move.coins
    if move.sides is SIDE_NAMES:
        left, right = coins
        game.players[seat].coins -= move.bank + left + right
        if left:
            income[game.left_of(seat)] += left
        if right:
            income[game.right_of(seat)] += right
        return
    game.players[seat].coins -= move.bank + sum(coins)
    for side, paid in zip(move.sides, coins, strict=True):
        income[game.seat_at(seat, side)] += paid


def place(game: "ClassicGame", seat: int, move: Move) -> None:
    """Put the card where it goes; lasting effects count from the next turn."""
    p = game.players[seat]
    game.hands[seat].remove(move.card)
    if move.kind == "build":
        card = game.cards[move.card]
        p.add_card(move.card, card)
        if card.effects.changes_trading:  # production_changed's first test: most cards change nothing
            game.production_changed(seat, card.effects)
    elif move.kind == "wonder":
        assert move.stage is not None
        p.add_stage(move.stage, move.card)
        game.production_changed(seat, p.stages[move.stage].effects)
    else:
        game.discard.append(move.card)


def take_effects(game: "ClassicGame", seat: int, move: Move) -> Effects | None:
    """Immediate effects, once every card of the turn is on the table; answers the effects of the
    card or stage built (None for a discard, which gives its coins)."""
    p = game.players[seat]
    if move.kind == "discard":
        p.coins += DISCARD_COINS
        return None
    if move.kind == "build":
        effects = game.cards[move.card].effects
    else:
        assert move.stage is not None
        effects = p.stages[move.stage].effects
        if "build_from_discard" in effects.abilities:
            game.discard_builders.append(seat)
    if effects.coins_per:
        gain_coins(game, p, effects)
    else:  # gain_coins, inline: most cards count nothing
        p.coins += effects.coins
    return effects


def gain_coins(game: "ClassicGame", p: Player, effects: Effects) -> None:
    if effects.coins:
        p.coins += effects.coins
    for per in effects.coins_per:
        p.coins += per.amount * scoring.count(game, p.seat, per)


# ----- the steps after a turn ----------------------------------------------------------------------


def run_queue(game: "ClassicGame") -> list[Event]:
    events: list[Event] = []
    steps = game.STEPS
    while game.queue and not game.pending:
        events.extend(steps[game.queue.pop(0)](game))
    return events


def step_last_card(game: "ClassicGame") -> list[Event]:
    seats = {s for s, p in enumerate(game.players) if "play_last_card_each_age" in p.abilities and game.hands[s]}
    if seats:
        game.pending = seats
        game.phase = LAST_CARD
        return [{"type": "decision", "kind": "last_card", "seats": sorted(seats)}]
    return []


def step_discard_hands(game: "ClassicGame") -> list[Event]:
    for hand in game.hands:
        game.discard.extend(hand)
        hand.clear()
    return []


def step_discard_build(game: "ClassicGame") -> list[Event]:
    if not game.discard_builders:  # most turns
        return []
    events: list[Event] = []
    seats = set()
    options = game.DECISIONS[DISCARD_BUILD].legal
    for seat in game.discard_builders:
        if len(options(game, seat)) > 1:  # more than passing
            seats.add(seat)
        else:
            events.append(
                {"type": "discard_build_skipped", "seat": seat, "reason": "nothing in the discard pile can be built"}
            )
    game.discard_builders = []
    if seats:
        game.pending = seats
        game.phase = DISCARD_BUILD
        events.append({"type": "decision", "kind": "build_from_discard", "seats": sorted(seats)})
    return events


def step_next_turn(game: "ClassicGame") -> list[Event]:
    hands = game.hands
    if game.age == 2:  # each seat takes its left neighbour's hand (left_of: seat + 1)
        game.hands = hands[1:] + hands[:1]
    else:  # its right neighbour's (right_of: seat - 1)
        game.hands = hands[-1:] + hands[:-1]
    game.turn += 1
    game.phase = PICK
    return []


def step_end_age(game: "ClassicGame") -> list[Event]:
    events: list[Event] = [military(game)]
    events += game.end_of_age()
    if game.age == 3:
        game.phase = OVER
        events.append({"type": "game_over", "result": game.result()})
    else:
        start_age(game)
        events.append({"type": "age_started", "age": game.age})
    return events


STEPS = {
    "last_card": step_last_card,
    "discard_hands": step_discard_hands,
    "discard_build": step_discard_build,
    "next_turn": step_next_turn,
    "end_age": step_end_age,
}


# ----- conflicts ------------------------------------------------------------------------------------


def military(game: "ClassicGame") -> Event:
    return {"type": "military", "age": game.age, "battles": game.battles(VICTORY_TOKENS[game.age])}


def battle(game: "ClassicGame", a: int, b: int, victory: int) -> dict[str, Any]:
    """One ground conflict: the stronger takes the Age's victory token, the weaker a defeat."""
    mine, theirs = game.players[a].shields, game.players[b].shields
    winner = None
    if mine != theirs:
        winner, loser = (a, b) if mine > theirs else (b, a)
        game.players[winner].tokens.append(victory)
        game.players[loser].tokens.append(DEFEAT_TOKEN)
    return {"seats": [a, b], "shields": [mine, theirs], "winner": winner}
