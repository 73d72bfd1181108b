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


async def test_a_full_database_is_unavailable_with_a_clear_reason(tmp_path: Path) -> None:
    """Issue 36: a full disk under SQLite is UNAVAILABLE ("the disk ... is full"), never INTERNAL, and nothing is
    half-written: once there is room again the same write succeeds."""
    store = await open_store(f"sqlite://{tmp_path / 'gamehall.db'}")
    try:
        assert store._writer is not None
        pages = (await (await store._writer.execute("PRAGMA page_count")).fetchone())[0]
        await store._writer.execute(f"PRAGMA max_page_count={pages}")  # SQLITE_FULL, as a full disk gives
        with pytest.raises(Unavailable, match="disk under the database is full"):
            for n in range(200):
                await store.create_account(f"filler-{n}-" + "x" * 40, "hash" * 200)
        await store._writer.execute("PRAGMA max_page_count=1073741823")
        assert (await store.create_account("after", "hash")).username == "after"
    finally:
        await store.close()


@pytest.mark.parametrize("which", ["read", "write"])
async def test_a_call_cancelled_while_it_starts_leaves_no_transaction_open(tmp_path: Path, which: str) -> None:
    """Issue 36: a read (or write) cancelled while its BEGIN is on the way (a client's 1-5 ms deadline) must not
    break the next one with "cannot start a transaction within a transaction" (5 of 1,200 calls got INTERNAL)."""
    import asyncio

    store = await open_store(f"sqlite://{tmp_path / 'gamehall.db'}")
    try:
        await store.create_account("alice", "hash")
        failures: list[BaseException] = []
        for attempt in range(300):

            async def call(n: int = attempt) -> None:
                if which == "read":
                    await store.get_account_by_name("alice")
                else:
                    await store.create_account(f"u{n}", "hash")

            task = asyncio.create_task(call())
            for _ in range(attempt % 4):  # cancel at different points: before, during and after BEGIN
                await asyncio.sleep(0)
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
            except Exception as exc:
                failures.append(exc)
            try:
                await store.get_account_by_name("alice")
                await store.create_account(f"next-{attempt}", "hash")
            except Exception as exc:
                failures.append(exc)
        assert failures == []
    finally:
        await store.close()
