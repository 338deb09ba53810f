"""The registry of game kinds (app/engine/common/kinds.py): what it describes, what reads it, that a
new kind needs nothing but its own registration, and the import structure it made possible (the
engine's ground floor imports no game kind; no import circle but type-only ones)."""

import ast
import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app.engine import GameConfig, game_kind, game_kinds, information_set, new_game
from app.engine.classic.armada.data import armada_data
from app.engine.classic.armada.determinize import ArmadaInformation
from app.engine.classic.armada.game import ArmadaGame
from app.engine.classic.determinize import ClassicInformation
from app.engine.classic.game import ClassicGame
from app.engine.duel.determinize import DuelInformation
from app.engine.duel.game import DuelGame

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "app" / "engine"


def test_the_kinds_are_described_as_plain_data() -> None:
    kinds = game_kinds()
    assert json.loads(json.dumps(kinds)) == kinds
    assert kinds == [
        {
            "name": "classic",
            "title": "7 Wonders",
            "players": {"min": 3, "max": 7},
            "wonder_sides": True,
            "expansions": [{"name": "armada", "title": "Armada", "notices": [armada_data().notice]}],
            "action_types": ["build", "wonder", "discard", "build_from_discard", "pass", "keep_island"],
        },
        {
            "name": "duel",
            "title": "7 Wonders Duel",
            "players": {"min": 2, "max": 2},
            "wonder_sides": False,
            "expansions": [],
            "action_types": [
                "draft_wonder",
                "build",
                "wonder",
                "discard",
                "choose_progress",
                "destroy",
                "build_from_discard",
                "choose_box_token",
                "choose_starter",
            ],
        },
    ]


@pytest.mark.parametrize(
    ("config", "game_class", "information_class"),
    [
        (GameConfig(game="classic", players=4, seed=3), ClassicGame, ClassicInformation),
        (GameConfig(game="classic", players=4, seed=3, expansions=["armada"]), ArmadaGame, ArmadaInformation),
        (GameConfig(game="duel", seed=3), DuelGame, DuelInformation),
    ],
    ids=["classic", "armada", "duel"],
)
def test_games_and_information_sets_come_from_the_registry(
    config: GameConfig, game_class: type, information_class: type
) -> None:
    game = new_game(config)
    assert type(game) is game_class
    seat = game.to_act[0]
    assert type(information_set(game.view(seat))) is information_class
    assert type(game.determinize(seat, random.Random(1))) is game_class


def test_configs_are_checked_against_the_registry() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'; games: classic, duel"):
        GameConfig(game="chess")
    with pytest.raises(ValueError, match="classic is played by 3 to 7 players, not 2"):
        GameConfig(game="classic", players=2)
    with pytest.raises(ValueError, match=r"unknown expansion\(s\) for duel: \['armada'\]"):
        GameConfig(game="duel", expansions=["armada"])
    with pytest.raises(ValueError, match="wonders can only be assigned in the classic game"):
        GameConfig(game="duel", wonders=["The Colossus", "The Pyramids"])
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        game_kind("chess")


def test_a_new_kind_registers_itself_and_nothing_else_changes() -> None:
    """A toy kind registered from outside the engine, by its one call: configs take it, its games
    are made and played, its action shapes and components are found, and it is listed. (In a process
    of its own: the registry is the process's.)"""
    script = textwrap.dedent(
        """
        import json
        from typing import Annotated, Any, Literal
        from pydantic import Field
        from app.engine import ActionShapes, Game, GameConfig, describe_components, game_kind, game_kinds, new_game
        from app.engine.common.action_shapes import Shape
        from app.engine.common.kinds import GameKind, register

        class Nap(Shape):
            type: Literal["nap"]

        class Toy(Game):  # one action, and the game is over
            def __init__(self, config: GameConfig) -> None:
                self.config, self.log = config, []
            to_act = property(lambda self: [] if self.log else [0])
            is_over = property(lambda self: bool(self.log))
            def legal_actions(self, seat: int) -> list[dict[str, Any]]:
                return [{"type": "nap"}] if seat in self.to_act else []
            def apply(self, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
                self.log.append({"seat": seat, "action": action})
                return [{"type": "napped", "seat": seat}]
            def public_view(self) -> dict[str, Any]:
                return {"game": "toy", "version": self.version}
            def own_view(self, seat: int | None) -> dict[str, Any]:
                return {"seat": seat}
            def result(self) -> dict[str, Any]:
                return {"winners": [0]}
            def clone(self) -> "Toy":
                return self
            def snapshot(self) -> dict[str, Any]:
                return {}

        register(GameKind(name="toy", title="Toy", players=(1, 1), make=Toy, information=lambda seat: None,
                          components=lambda: {"cards": {}},
                          actions=ActionShapes(union=Annotated[Nap, Field(discriminator="type")])))
        game = new_game(GameConfig(game="toy", seed=1))
        events = game.apply(0, game.legal_actions(0)[0])
        print(json.dumps([type(game).__name__, game.is_over, events, [k["name"] for k in game_kinds()],
                          list(game_kind("toy").actions.types), describe_components()["toy"]]))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        "Toy",
        True,
        [{"type": "napped", "seat": 0}],
        ["classic", "duel", "toy"],
        ["nap"],
        {"cards": {}},
    ]


# ----- the import structure --------------------------------------------------------------------------


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_of(p): p for p in ENGINE.rglob("*.py")}


def runtime_imports(path: Path) -> set[str]:
    """The engine modules a module imports when it runs (at its top or in a function), not those
    imported only for type checking (`if TYPE_CHECKING:`)."""
    tree = ast.parse(path.read_text(), str(path))
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
        for node in ast.walk(block)
    }
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [f"{node.module}.{alias.name}" for alias in node.names] + [node.module]
        else:
            continue
        for name in names:
            if name in MODULES:
                found.add(name)
            elif name.rsplit(".", 1)[0] in MODULES and isinstance(node, ast.ImportFrom):
                found.add(name.rsplit(".", 1)[0])
    return found - {module_of(path)}


GRAPH = {name: runtime_imports(path) for name, path in MODULES.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for node in graph:  # (the engine's import chains are a few dozen deep: well within the recursion limit)
        if node not in index:
            visit(node)
    return out


def test_the_engine_has_no_import_circle_but_type_only_ones() -> None:
    assert circles(GRAPH) == []


def test_the_check_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_engines_ground_floor_imports_no_game_kind() -> None:
    kinds = ("app.engine.classic", "app.engine.duel")
    for name, imports in GRAPH.items():
        if name.startswith(("app.engine.common", "app.engine.config")):
            upward = sorted(i for i in imports if i.startswith(kinds) or i == "app.engine")
            assert upward == [], f"{name} imports {upward}"
