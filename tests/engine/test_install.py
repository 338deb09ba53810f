"""The engine installs and runs without the server stack: the base dependencies are the engine's
own (pydantic), the server's are the `server` extra, the RL environments' the `rl` extra; and
app.engine, the bots and `app.play` import and play with every one of those packages hidden."""

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SERVER_PACKAGES = {
    "fastapi",
    "uvicorn",
    "pydantic-settings",
    "sqlalchemy",
    "alembic",
    "aiosqlite",
    "asyncpg",
    "websockets",
    "httpx",
    "redis",
    "fastapi-offline",
    "prometheus-client",
    "orjson",
    "starlette-compress",
    "apprise",
    "pywebpush",
}
RL_PACKAGES = {"pettingzoo", "gymnasium", "numpy"}
# top-level modules of the server's and the rl extra's packages (and what they bring)
HIDDEN_MODULES = [
    "fastapi",
    "starlette",
    "uvicorn",
    "pydantic_settings",
    "sqlalchemy",
    "alembic",
    "aiosqlite",
    "asyncpg",
    "websockets",
    "httpx",
    "redis",
    "fastapi_offline",
    "prometheus_client",
    "orjson",
    "starlette_compress",
    "brotli",
    "apprise",
    "pywebpush",
    "numpy",
    "gymnasium",
    "pettingzoo",
]

ENGINE_ONLY = """
import sys

HIDDEN = set(%r)


class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r} (hidden by the test)", name=name)
        return None


sys.meta_path.insert(0, Refuse())

from app.engine import GameConfig, describe_components, new_game, replay

for config in (
    GameConfig(game="classic", players=4, seed=1),
    GameConfig(game="classic", players=3, seed=2, expansions=["armada"]),
    GameConfig(game="duel", seed=3),
):
    game = new_game(config)
    while not game.is_over:
        for seat in game.to_act:
            game.apply(seat, game.legal_actions(seat)[0])
    assert game.result()["winners"]
    assert replay(config, game.log).result() == game.result()
assert describe_components()["classic"]["cards"]["Lumber Yard"]["text"] == "Produces 1 wood."

from app.bots import make_bot
from app.play import main

assert make_bot("heuristic", 1)
assert main(["--game", "classic", "--players", "3", "--seed", "4", "--bots", "heuristic"]) == 0
assert main(["--game", "duel", "--seed", "4", "--bots", "greedy"]) == 0

try:
    import app.engine.env
except ImportError as error:
    assert "pip install -e '.[rl]'" in str(error), error
else:
    raise AssertionError("app.engine.env imported without the rl packages")

loaded = sorted(m for m in sys.modules if m.split(".")[0] in HIDDEN)
assert not loaded, loaded
print("engine-only ok")
"""


def test_engine_bots_and_play_run_without_the_server_and_rl_packages() -> None:
    done = subprocess.run(
        [sys.executable, "-c", ENGINE_ONLY % (HIDDEN_MODULES,)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert "engine-only ok" in done.stdout


def names(requirements: list[str]) -> set[str]:
    out = set()
    for requirement in requirements:
        name = requirement.split(";")[0]
        for stop in "<>=![ ":
            name = name.split(stop)[0]
        out.add(name.strip().lower())
    return out


def test_dependencies_split_into_engine_server_and_rl() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    assert names(project["dependencies"]) == {"pydantic"}
    assert names(extras["server"]) == SERVER_PACKAGES
    assert names(extras["rl"]) == RL_PACKAGES
    assert names(extras["test"]) >= RL_PACKAGES  # CI runs the env tests
    assert not (SERVER_PACKAGES | RL_PACKAGES) & names(project["dependencies"])


def test_set_up_commands_install_the_server_extra() -> None:
    readme = (ROOT / "README.md").read_text()
    first = next(line for line in readme.splitlines() if line.startswith("python3 -m venv .venv"))
    assert "-e '.[server]'" in first and first.endswith(".venv/bin/python -m app")
    assert "-e '.[server,test]'" in (ROOT / "tests" / "run").read_text()
    assert "pip install '.[server]'" in (ROOT / "Dockerfile").read_text()
