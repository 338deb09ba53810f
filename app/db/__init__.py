"""Persistence: the storage interface the rooms layer uses (`storage.py`), and its implementation on
SQLAlchemy 2.0 (`sql_store.py`: models, the async engine, queries, the action log's group commit,
migrations at start), for SQLite and PostgreSQL."""

from app.db.storage import Store


def open_store(database_url: str, *, pool_size: int = 10, echo: bool = False) -> Store:
    """The Store for a DATABASE_URL (sqlite:///path or postgresql://...)."""
    from app.db.sql_store import SqlStore

    return SqlStore.open(database_url, pool_size=pool_size, echo=echo)
