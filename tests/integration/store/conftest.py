"""The `store` fixture: every test here runs once on SQLite (a temp file) and once on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from gamehall.store import Store, open_store
from tests.support.postgres import PostgresServer, fresh_schema, postgres_server

__all__ = ["postgres_server"]  # re-exported: registers the session fixture for this folder

BACKENDS = ["sqlite", "postgres"]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark everything in this folder `integration` (it starts PostgreSQL), before `-m` selects."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.integration)


@pytest.fixture(params=BACKENDS)
async def store_dsn(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The DSN of an empty database of each backend (nothing opened yet)."""
    if request.param == "sqlite":
        yield f"sqlite://{tmp_path / 'gamehall.db'}"
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    async with fresh_schema(server) as dsn:
        yield dsn


@pytest.fixture
async def store(store_dsn: str) -> AsyncIterator[Store]:
    """An opened, migrated store on an empty database."""
    opened = await open_store(store_dsn)
    try:
        yield opened
    finally:
        await opened.close()
