"""A flat observation vector described field by field: each field has a name, a place, bounds and a
sentence, so `observation_layout()` documents exactly what the encoders write."""

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Field:
    name: str
    start: int
    size: int
    low: float
    high: float
    doc: str
    labels: tuple[str, ...] = ()

    @property
    def stop(self) -> int:
        return self.start + self.size

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "start": self.start,
            "stop": self.stop,
            "size": self.size,
            "low": self.low,
            "high": self.high,
            "doc": self.doc,
        }
        if self.labels:
            out["labels"] = list(self.labels)
        return out


@dataclass
class Layout:
    """Fields laid one after the other; `new()` gives a zero vector, `bounds()` the Box's low and high."""

    fields: dict[str, Field] = field(default_factory=dict)
    size: int = 0

    def add(
        self, name: str, size_or_labels: int | list[str] | tuple[str, ...], low: float, high: float, doc: str
    ) -> int:
        """Append a field and answer where it starts. A list of labels names each entry (cards,
        resources, ...), in order; an int is an unlabelled block (one value when 1)."""
        if name in self.fields:
            raise ValueError(f"the field {name!r} is laid twice")
        labels = () if isinstance(size_or_labels, int) else tuple(size_or_labels)
        size = size_or_labels if isinstance(size_or_labels, int) else len(labels)
        self.fields[name] = Field(name, self.size, size, float(low), float(high), doc, labels)
        self.size += size
        return self.fields[name].start

    def __getitem__(self, name: str) -> int:
        return self.fields[name].start

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        low = np.zeros(self.size, dtype=np.float32)
        high = np.zeros(self.size, dtype=np.float32)
        for f in self.fields.values():
            low[f.start : f.stop] = f.low
            high[f.start : f.stop] = f.high
        return low, high

    def describe(self) -> list[dict[str, Any]]:
        return [f.describe() for f in self.fields.values()]

    def table(self) -> str:
        """The layout as a Markdown table (for the documentation)."""
        rows = ["| field | start | size | bounds | meaning |", "|---|---|---|---|---|"]
        for f in self.fields.values():
            rows.append(f"| `{f.name}` | {f.start} | {f.size} | {f.low:g}..{f.high:g} | {f.doc} |")
        return "\n".join(rows)
