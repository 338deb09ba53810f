"""Compact JSON text for what the server stores and sends (orjson)."""

from typing import Any

import orjson


def to_json(value: Any) -> str:
    """Compact JSON text, the same as `json.dumps(value, separators=(",", ":"), ensure_ascii=False)`
    for what the engine and the rooms make (str, int, bool, None, lists, dicts with str or int keys)
    at a sixth of its cost: views, legal actions and the stored steps are most of what the server
    encodes."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def joined_objects(first: str, second: str) -> str:
    """The JSON text of one object holding the members of two objects' texts (no key in both)."""
    if first == "{}":
        return second
    if second == "{}":
        return first
    return f"{first[:-1]},{second[1:]}"
