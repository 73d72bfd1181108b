"""SQLite specifics: WAL and foreign keys are on, a lock held too long is Unavailable, closed is closed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from gamehall.store import StoreError, Unavailable, open_store
from gamehall.store.sqlite import SqliteStore


async def test_wal_foreign_keys_and_file_location(tmp_path: Path) -> None:
    path = tmp_path / "data" / "nested" / "gamehall.db"
    store = await open_store(f"sqlite://{path}")
    try:
        assert isinstance(store, SqliteStore) and path.is_file()
        async with store._read() as tx:
            assert (await tx.fetch("PRAGMA journal_mode"))[0]["journal_mode"] == "wal"
            assert (await tx.fetch("PRAGMA foreign_keys"))[0]["foreign_keys"] == 1
    finally:
        await store.close()


async def test_a_lock_held_past_the_busy_timeout_is_unavailable(tmp_path: Path) -> None:
    path = tmp_path / "gamehall.db"
    store = await open_store(f"sqlite://{path}?busy_timeout=50")
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        with pytest.raises(Unavailable, match="locked"):
            await store.create_account("alice", "hash")
        other.execute("ROLLBACK")
        assert (await store.create_account("alice", "hash")).username == "alice"
    finally:
        other.close()
        await store.close()


async def test_a_closed_store_refuses_work(tmp_path: Path) -> None:
    store = await open_store(f"sqlite://{tmp_path / 'gamehall.db'}")
    await store.close()
    with pytest.raises(StoreError, match="closed"):
        await store.get_account_by_name("alice")


async def test_an_unreachable_postgres_is_unavailable() -> None:
    with pytest.raises(Unavailable, match="cannot connect"):
        await open_store("postgresql://nobody@127.0.0.1:1/none")
