"""What every test shares: its own Redis prefix, so that no test hears another's rooms.

Both xdist workers use the one Redis at 127.0.0.1:6379, and pub/sub channels are shared by all of a
Redis's databases: each test sets REDIS_PREFIX (the server's setting) to a prefix of its own, which
every Settings made during the test, and every server process it starts, takes from the environment.
"""

import secrets
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def redis_prefix(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    prefix = f"wonders-test-{secrets.token_hex(4)}:"
    monkeypatch.setenv("REDIS_PREFIX", prefix)
    yield prefix
