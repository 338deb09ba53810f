"""A game's whole state as bytes, kept to load the game again without replaying its log: a cache,
the log stays the source of truth.

    data = save_state(game)        # bytes: which engine saved it, the game's class, its state
    game = load_state(data)        # the same game, or StateMismatch

What a game shares with every other game of its process (its kind's compiled data: cards, wonders,
stages...; the engine's module constants, such as SIDE_NAMES, that code compares with `is`) is
written as a reference to where it lives, and resolved to this process's own object when loaded,
so a loaded game is one that was never saved: the same objects, the same identities. A game's
caches (`Game.CACHES`) are left out and start empty. The state is pickled; loading names nothing but
the engine's own classes and plain containers (anything else is refused), and only bytes the server
wrote itself (its own database, beside its action log) are ever loaded.

`ENGINE_FINGERPRINT` hashes the engine's code and data files: bytes saved by another version of
the engine are refused (StateMismatch), and the caller rebuilds the game from its log.
"""

import dataclasses
import hashlib
import importlib
import io
import pickle
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.engine.common.game import Game

ENGINE_DIR = Path(__file__).resolve().parent.parent
PRIMITIVE = (int, float, str, bytes, bool, type(None))
Step = tuple[str, Any]  # ("a", attribute) | ("i", index) | ("k", dict key)
# where a shared object lives: ("call", "module:loader", path) in what a data loader returns, or
# ("get", "module:name", path) in a module global
Key = tuple[str, str, tuple[Step, ...]]


class StateMismatch(ValueError):
    """Bytes that are no state this engine saved: another version of the engine, or damaged."""


@cache
def engine_fingerprint() -> str:
    """A hash of every file of the engine's code and data (app/engine, the RL environments aside)."""
    digest = hashlib.sha256()
    for path in sorted(ENGINE_DIR.rglob("*")):
        if path.suffix in (".py", ".json") and "env" not in path.relative_to(ENGINE_DIR).parts[:1]:
            digest.update(str(path.relative_to(ENGINE_DIR)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def save_state(game: "Game") -> bytes:
    """The game's state as bytes (see the module's docstring)."""
    cls = type(game)
    header = f"{engine_fingerprint()} {cls.__module__}:{cls.__qualname__}\n".encode()
    buffer = io.BytesIO()
    _Pickler(buffer, _shared_keys(cls)).dump(game)
    return header + buffer.getvalue()


def load_state(data: bytes) -> "Game":
    """The game saved in these bytes; StateMismatch if another engine saved them or they are damaged."""
    head, _, body = data.partition(b"\n")
    try:
        fingerprint, class_name = head.decode().split(" ")
    except (UnicodeDecodeError, ValueError):
        raise StateMismatch("not a saved game state") from None
    if fingerprint != engine_fingerprint():
        raise StateMismatch("saved by another version of the engine")
    try:
        cls = _resolve_name(class_name)
        game = _Unpickler(io.BytesIO(body)).load()
    except StateMismatch:
        raise
    except Exception as exc:  # a damaged state: whatever unpickling it raised
        raise StateMismatch(f"a damaged state ({type(exc).__name__})") from None
    if type(game) is not cls:
        raise StateMismatch("a damaged state (another class)")
    return game  # type: ignore[no-any-return]


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, keys: dict[int, Key]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.keys = keys

    def persistent_id(self, obj: Any) -> Key | None:
        if type(obj) in PRIMITIVE:
            return None
        return self.keys.get(id(obj))


SAFE_GLOBALS = {
    "builtins": {"set", "frozenset", "dict", "list", "tuple", "object", "int", "float", "str", "bytes", "bool"},
    "collections": {"deque", "Counter", "OrderedDict", "defaultdict"},
    "random": {"Random"},
}


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> Any:
        return _resolve(pid)

    def find_class(self, module: str, name: str) -> Any:
        """Only the engine's own classes and plain containers: a state names nothing else."""
        if module.startswith("app.engine.") or name in SAFE_GLOBALS.get(module, ()):
            return super().find_class(module, name)
        raise StateMismatch(f"a damaged state (names {module}.{name})")


def _resolve_name(name: str) -> Any:
    module, _, attribute = name.partition(":")
    if not module.startswith("app.engine."):
        raise StateMismatch(f"a damaged state (names {name!r})")
    target: Any = importlib.import_module(module)
    for part in attribute.split("."):
        target = getattr(target, part)
    return target


@cache
def _resolve(key: Key) -> Any:
    how, root, path = key
    target = _resolve_name(root)
    if how == "call":
        target = target()
    for kind, step in path:
        target = getattr(target, step) if kind == "a" else target[step]
    return target


@cache
def _shared_keys(cls: type) -> dict[int, Key]:
    """Every object a game of `cls` may share with other games, by id, with where it lives: what its
    class's data loaders return (`cls.SHARED_DATA`, "module:function" each: compiled once per
    process, never changed), and the engine's module constants (tuples and frozen dataclasses, and
    what they hold). Built once per class and process (the kind's modules are loaded by then: they
    made the game). Only what lives as long as the process is keyed, so no id is ever reused."""
    keys: dict[int, Key] = {}
    for root in getattr(cls, "SHARED_DATA", ()):
        _walk(_resolve_name(root)(), ("call", root, ()), keys, into_mutable=True)
    for name in sorted(n for n in sys.modules if n.startswith("app.engine.")):
        for attribute, value in sorted(vars(sys.modules[name]).items()):
            if not attribute.startswith("__") and _immutable(value):
                _walk(value, ("get", f"{name}:{attribute}", ()), keys, into_mutable=False)
    return keys


def _immutable(value: Any) -> bool:
    params = getattr(value, "__dataclass_params__", None)
    return isinstance(value, tuple | frozenset) or (
        params is not None and params.frozen and not isinstance(value, type)
    )


def _walk(obj: Any, key: Key, keys: dict[int, Key], *, into_mutable: bool) -> None:
    if type(obj) in PRIMITIVE or id(obj) in keys:
        return
    keys[id(obj)] = key
    if not into_mutable and not _immutable(obj):
        return  # keyed, but what it holds may change: not its contents
    how, root, path = key
    for step, child in _children(obj):
        _walk(child, (how, root, (*path, step)), keys, into_mutable=into_mutable)


def _children(obj: Any) -> Iterator[tuple[Step, Any]]:
    if isinstance(obj, tuple | list):
        yield from ((("i", i), item) for i, item in enumerate(obj))
    elif isinstance(obj, dict):
        yield from ((("k", k), v) for k, v in obj.items() if type(k) in PRIMITIVE)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        yield from ((("a", f.name), getattr(obj, f.name)) for f in dataclasses.fields(obj))
