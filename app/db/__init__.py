"""Persistence: SQLAlchemy 2.0 models, the async engine, queries, and migrations at start."""
