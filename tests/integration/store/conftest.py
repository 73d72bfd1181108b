"""The `store` and `clocked` fixtures: every test here runs once on SQLite (a temp file) and once on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from gamehall.store import Store, open_store
from tests.integration.store.helpers import Clock


@pytest.fixture
async def store(store_dsn: str) -> AsyncIterator[Store]:
    """An opened, migrated store on an empty database."""
    opened = await open_store(store_dsn)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def clocked(store_dsn: str) -> AsyncIterator[tuple[Store, Clock]]:
    """A store whose clock the test moves by hand."""
    clock = Clock()
    store = await open_store(store_dsn, clock=clock)
    try:
        yield store, clock
    finally:
        await store.close()
