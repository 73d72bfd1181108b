"""Migrations run at open, once; reopening changes nothing and keeps the data."""

from __future__ import annotations

import asyncio

import pytest

from gamehall.store import StoreError, open_store
from gamehall.store.migrations import latest_version
from tests.integration.store.helpers import account


async def test_open_migrates_to_the_latest_version(store_dsn: str) -> None:
    store = await open_store(store_dsn)
    try:
        assert await store.schema_version() == latest_version()
        assert await store.migrate() == []
    finally:
        await store.close()


async def test_reopening_is_idempotent_and_keeps_data(store_dsn: str) -> None:
    first = await open_store(store_dsn)
    try:
        alice = await account(first)
    finally:
        await first.close()
    second = await open_store(store_dsn)
    try:
        assert await second.migrate() == []
        assert await second.schema_version() == latest_version()
        assert (await second.get_account_by_id(alice.id)).username == "alice"
    finally:
        await second.close()


async def test_concurrent_opens_migrate_once(store_dsn: str) -> None:
    stores = await asyncio.gather(*(open_store(store_dsn) for _ in range(3)))
    try:
        for store in stores:
            assert await store.schema_version() == latest_version()
        await account(stores[0], "bob")
        assert (await stores[2].get_account_by_name("BOB")).username == "bob"
    finally:
        for store in stores:
            await store.close()


async def test_a_newer_schema_is_refused(store_dsn: str) -> None:
    store = await open_store(store_dsn)
    try:
        async with store._write() as tx:
            await tx.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                latest_version() + 1,
                "from the future",
                store._now(),
            )
    finally:
        await store.close()
    with pytest.raises(StoreError, match="newer than this code"):
        await open_store(store_dsn)
