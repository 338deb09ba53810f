"""Benchmarks: each module runs with `python -m bench.NAME` and prints its figures as JSON lines."""

import argparse


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1 (a count of games, rooms, runs)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value
