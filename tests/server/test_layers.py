"""The server's layers: nothing in app/rooms or app/api touches the database's machinery (SQL,
sessions, table models: only app/db's seam), nor the engine's insides (only the `app.engine`
package, the engine's public face; its RL environments are not for the server)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("app/rooms", "app/api")
FORBIDDEN = (
    "sqlalchemy",
    "sqlite3",
    "aiosqlite",
    "asyncpg",
    "app.db.models",
    "app.db.session",
    "app.db.sql_store",  # the implementation: app/rooms gets a Store from app.db.open_store
    "app.db.repo",
    "app.db.log_writer",
    "app.db.failures",
)


def imported(tree: ast.AST) -> list[str]:
    """Every module an import statement names (for `from X import a`, X and X.a)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
            out += [f"{node.module}.{alias.name}" for alias in node.names]
    return out


def refused(module: str) -> str | None:
    for name in FORBIDDEN:
        if module == name or module.startswith(name + "."):
            return f"imports {module} (below the storage interface app/db/storage.py)"
    if module.startswith("app.engine.") and module.removeprefix("app.engine.") not in PUBLIC_NAMES:
        return f"imports {module} (an engine internal: use the public app.engine)"
    return None


PUBLIC_NAMES = set(__import__("app.engine", fromlist=["__all__"]).__all__)
MODULES = sorted(p for layer in LAYERS for p in (ROOT / layer).rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_no_database_machinery_or_engine_internals_above_the_seams(path: Path) -> None:
    tree = ast.parse(path.read_text(), str(path))
    problems = [p for p in map(refused, imported(tree)) if p]
    assert problems == [], f"{path.relative_to(ROOT)}: {problems}"


def test_the_check_finds_what_it_refuses() -> None:
    source = (
        "import sqlite3\nfrom sqlalchemy import select\nfrom app.db.models import Room\n"
        "import app.db.session\nfrom app.engine.common.game import Game\nfrom app.engine.env import duel\n"
        "from app.engine import GameConfig, new_game\nfrom app.db.storage import Store\n"
    )
    problems = [p for p in map(refused, imported(ast.parse(source))) if p]
    assert [p.split()[1] for p in problems] == [
        "sqlite3",
        "sqlalchemy",
        "sqlalchemy.select",
        "app.db.models",
        "app.db.models.Room",
        "app.db.session",
        "app.engine.common.game",
        "app.engine.common.game.Game",
        "app.engine.env",
        "app.engine.env.duel",
    ]
    assert len(MODULES) > 20


MAX_LINES = 500
DATA_FILES = {"static/js/icons.js"}  # the SVG icon set: data, not logic


def test_no_file_of_app_or_the_client_does_several_jobs_in_over_500_lines() -> None:
    files = [*sorted((ROOT / "app").rglob("*.py")), *sorted((ROOT / "static" / "js").glob("*.js"))]
    long = {
        str(p.relative_to(ROOT)): n
        for p in files
        if str(p.relative_to(ROOT)) not in DATA_FILES and (n := len(p.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}, f"split these by job: {long}"
    assert len(files) > 100
