"""The `store` fixture: every test here runs once on SQLite (a temp file) and once on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from gamehall.store import Store, open_store


@pytest.fixture
async def store(store_dsn: str) -> AsyncIterator[Store]:
    """An opened, migrated store on an empty database."""
    opened = await open_store(store_dsn)
    try:
        yield opened
    finally:
        await opened.close()
