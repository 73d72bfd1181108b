"""Fixtures of the integration tests: each database test runs once on SQLite and once on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support.postgres import PostgresServer, fresh_schema, postgres_server

__all__ = ["postgres_server"]  # re-exported: registers the session fixture for this folder

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
async def store_dsn(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The DSN of an empty database of each backend (nothing opened yet)."""
    if request.param == "sqlite":
        yield f"sqlite://{tmp_path / 'gamehall.db'}"
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    async with fresh_schema(server) as dsn:
        yield dsn
