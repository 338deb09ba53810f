"""Playing whole games over websockets in tests, and checking them against the engine's truth."""

import asyncio
import contextlib
import random
from collections.abc import Callable
from typing import Any

import httpx

from app.engine import GameConfig
from app.engine.classic.armada.data import armada_data
from app.engine.common.game import Game
from tests.server.helpers import SeatClient


def strings_in(value: Any) -> list[str]:
    """Every string a JSON value holds, at any depth."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings_in(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings_in(v)]
    return []


def hidden_from(game: Game, seat: int | None) -> set[str]:
    """Names `seat` may not know at this moment: classic, other seats' hands and secret picks (a
    card of the same name in a city, or in its own hand, is no secret), and with Armada every island
    not kept by anyone but those the seat itself is choosing among; Duel, face-down and removed
    cards, the decks of later Ages and the progress tokens in the box (but the three shown to the
    seat choosing among them)."""
    snap = game.snapshot()
    if snap["config"]["game"] == "duel":
        return _hidden_in_duel(snap, seat)
    names = snap["cards"]
    secret: set[str] = set()
    known: set[str] = set()
    for s, hand in enumerate(snap["hands"]):
        (known if s == seat else secret).update(names[c] for c in hand)
    for s, pick in snap.get("picks", {}).items():
        (known if int(s) == seat else secret).add(pick["card"])
    for player in snap.get("players", []):
        known.update(names[c] for c in player["city"])
    for played in snap.get("played", []):
        known.update(names[c] for c in played)
    return (secret - known) | _hidden_islands(snap, seat)


def _hidden_islands(snap: dict[str, Any], seat: int | None) -> set[str]:
    """Armada: every island nobody has kept (in the decks, or drawn by an explorer), but the
    islands this seat drew itself and is choosing among now."""
    armada = snap.get("armada")
    if armada is None:
        return set()
    names = [island.name for island in armada_data().islands]
    kept = {name for fleet in armada["fleets"] for name in fleet["islands"]}
    mine = {names[i] for i in armada["offers"].get(str(seat), [])}
    return set(names) - kept - mine


def _hidden_in_duel(snap: dict[str, Any], seat: int | None) -> set[str]:
    secret = set(snap["removed"]) | {card for deck in snap["decks"].values() for card in deck}
    structure = snap["structure"]
    if structure:
        secret |= {card for card, up in zip(structure["cards"], structure["up"], strict=True) if card and not up}
    tokens = set(snap["box_tokens"])
    if snap["phase"] == "choose_box_token" and seat == snap["actor"]:
        tokens -= set(snap["box_offer"])
    return secret | tokens


class Truth:
    """The game at every version, rebuilt from the finished game's log."""

    def __init__(self, config: GameConfig, log: list[dict[str, Any]], factory: Any) -> None:
        game = factory(config)
        self.hidden: list[dict[int | None, set[str]]] = []
        self.reveals = 0
        seats: list[int | None] = [*range(config.seats), None]
        self.hidden.append({s: hidden_from(game, s) for s in seats})
        for entry in log:
            events = game.apply(entry["seat"], entry["action"])
            self.reveals += sum(1 for e in events if e["type"] == "reveal")
            self.hidden.append({s: hidden_from(game, s) for s in seats})
        self.game = game


def check_secrecy(client: SeatClient, truth: Truth) -> int:
    """Every message to this client against the cards hidden from it at the message's version."""
    version = 0
    checked = 0
    for message in client.messages:
        version = message.get("version", version)
        hidden = truth.hidden[version][client.seat]
        for text in strings_in({k: v for k, v in message.items() if k != "_t"}):
            assert text not in hidden, (
                f"seat {client.seat} was sent hidden card {text!r} in {message['type']} at v{version}"
            )
            if len(text) > 40:
                leaked = [name for name in hidden if name in text]
                assert not leaked, f"seat {client.seat} was told of hidden {leaked} in {text!r}"
        checked += 1
    return checked


Chooser = Callable[[random.Random, dict[str, Any]], dict[str, Any]]


def random_choice(rng: random.Random, state: dict[str, Any]) -> dict[str, Any]:
    return rng.choice(state["legal_actions"])


async def play_lockstep(
    ws_url: str | dict[int, str],
    code: str,
    tokens: dict[int, str],
    *,
    seed: int,
    change_picks: bool = False,
    choose: Chooser = random_choice,
) -> tuple[dict[int, SeatClient], SeatClient, list[int]]:
    """Play to the end over websockets: at each step every seat that owes a decision sends it at the
    same moment (`choose(rng, state)` picks among the state's legal actions; uniformly by default).
    With change_picks, one seat first picks, then changes its pick together with the others.
    Returns the clients, a spectator's client, and the versions right after each simultaneous round."""
    rng = random.Random(seed)
    urls = ws_url if isinstance(ws_url, dict) else dict.fromkeys(tokens, ws_url)
    rounds: list[int] = []
    async with contextlib.AsyncExitStack() as stack:
        clients = {s: await stack.enter_async_context(SeatClient(urls[s], code, t)) for s, t in tokens.items()}
        spectator = await stack.enter_async_context(SeatClient(urls[min(urls)], code, None))
        await spectator.wait_type("state", version=0)  # watching from the start
        version = 0
        for _ in range(500):
            states = {s: await c.state_at_least(version) for s, c in clients.items()}
            assert len({st["version"] for st in states.values()}) == 1, "seats disagree on the version"
            first = states[0]
            if first["status"] == "finished":
                break
            to_act = first["to_act"]
            assert to_act
            changer = None
            if change_picks and len(to_act) > 1 and rng.random() < 0.5:
                s = changer = to_act[0]
                before = len(clients[s].messages)
                await clients[s].send(
                    {"type": "action", "action": rng.choice(states[s]["legal_actions"]), "version": version}
                )
                await clients[s].wait_type("accepted", start=before)
                version += 1
            sends = []
            ids = {s: f"v{version}-s{s}" for s in to_act}
            for s in to_act:
                action = choose(rng, states[s])
                message = {"type": "action", "action": action, "version": version, "action_id": ids[s]}
                sends.append(clients[s].send(message))
            await asyncio.gather(*sends)
            version += len(to_act)
            rounds.append(version)
            for s in to_act:
                reply = await clients[s].wait_for(
                    lambda m, i=ids[s]: m["type"] in ("accepted", "error") and m.get("action_id") == i
                )
                if s == changer and reply.get("code") == "stale":
                    # the others' picks, sent at the same moment, reached the server first and ended
                    # the turn with its first pick: a change that comes too late is refused
                    version -= 1
                    rounds[-1] = version
                    continue
                assert reply["type"] == "accepted", reply
        else:
            raise AssertionError("the game did not end")
        for c in [*clients.values(), spectator]:
            await c.wait_type("game_over")
            room = await c.wait_for(lambda m: m["type"] == "room" and m["room"]["status"] == "finished")
            assert room["room"]["game"]["status"] == "finished", "everyone hears that the room's game ended"
        await spectator.state_at_least(version)
    return clients, spectator, rounds


async def finished_log(http: httpx.AsyncClient, code: str) -> tuple[GameConfig, list[dict[str, Any]], dict[str, Any]]:
    history = (await http.get(f"/api/rooms/{code}/game/history")).json()
    assert history["status"] == "finished"
    log = [{"seat": s["seat"], "action": s["action"]} for s in history["steps"]]
    return GameConfig.model_validate(history["config"]), log, history


def check_game(clients: dict[int, SeatClient], spectator: SeatClient, truth: Truth, rounds: list[int]) -> None:
    final = truth.game.result()
    for client in [*clients.values(), spectator]:
        versions = [m["version"] for m in client.messages if "version" in m and m["type"] != "accepted"]
        assert versions == sorted(versions), "messages arrive in version order"
        reveals = [m for m in client.messages if m["type"] == "reveal"]
        assert len(reveals) == truth.reveals, (
            f"exactly one reveal per turn, to every seat: seat {client.seat} got {len(reveals)} of {truth.reveals}"
            f" at {[m['version'] for m in reveals]}"
        )
        assert len({m["version"] for m in reveals}) == len(reveals)
        for chosen in (m for m in client.messages if m["type"] == "chosen"):
            assert set(chosen) == {"type", "game_id", "version", "seat", "changed", "_t"}
        overs = [m for m in client.messages if m["type"] == "game_over"]
        assert len(overs) == 1 and overs[0]["result"] == final
        assert check_secrecy(client, truth) > 0
    assert rounds
