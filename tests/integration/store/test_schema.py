"""Migrations run at open, once; reopening changes nothing and keeps the data."""

from __future__ import annotations

import asyncio

import pytest

from gamehall.store import StoreError, migrations, open_store
from gamehall.store.migrations import latest_version
from tests.integration.store.helpers import account, log_action, running_match


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


async def test_migration_7_keeps_the_action_log_and_scopes_request_ids_per_seat(
    store_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store made before migration 7 keeps every logged action; afterwards another seat may use a request id
    the first seat logged (it was refused by the old per-match key)."""
    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:6])
    old = await open_store(store_dsn)
    try:
        assert await old.schema_version() == 6
        match = await running_match(old)
        await log_action(old, match, 1, "shared", seat=0, snapshot=b"s1")
    finally:
        await old.close()
    monkeypatch.undo()
    store = await open_store(store_dsn)
    try:
        assert await store.schema_version() == latest_version()
        theirs = await log_action(store, match, 2, "shared", seat=1)
        assert theirs.seat == 1
        assert [(a.version, a.seat, a.request_id) for a in await store.get_actions(match.id)] == [
            (1, 0, "shared"),
            (2, 1, "shared"),
        ]
        assert (await store.get_action_by_request(match.id, 0, "shared")).version == 1  # type: ignore[union-attr]
        assert (await store.latest_snapshot(match.id)).state == b"s1"  # type: ignore[union-attr]
    finally:
        await store.close()
