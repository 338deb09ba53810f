"""The bots know the games only through the engine's public face (`app.engine`): its component
description, views and legal actions; never its internal modules."""

import ast
from pathlib import Path

BOTS = Path(__file__).resolve().parents[2] / "app" / "bots"


def test_the_bots_import_only_the_engines_public_face() -> None:
    internal = []
    for path in sorted(BOTS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            internal += [f"{path.name}: {n}" for n in names if n.startswith("app.engine.")]
    assert internal == []
