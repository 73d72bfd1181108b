"""The embedded backend: one SQLite file in WAL mode through aiosqlite.

Writers are serialised in-process by a lock and across processes by `BEGIN IMMEDIATE` plus a busy
timeout; reads use a second connection, so they see committed data only and never wait on a writer.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, get_args

import aiosqlite

from gamehall.store.core import utc_now
from gamehall.store.dialect import SQLITE
from gamehall.store.errors import AlreadyExists, InvalidArgument, NotFound, StoreError, Unavailable
from gamehall.store.store import Store
from gamehall.store.transaction import Row, Tx

Synchronous = Literal["OFF", "NORMAL", "FULL", "EXTRA"]


AWAY_ERRORS = {
    "SQLITE_BUSY": "the database stayed locked past the busy timeout",
    "SQLITE_LOCKED": "the database stayed locked past the busy timeout",
    "SQLITE_FULL": "the disk under the database is full",
    "SQLITE_IOERR": "the database file could not be read or written (disk error)",
    "SQLITE_CANTOPEN": "the database file cannot be opened",
    "SQLITE_READONLY": "the database file is read-only",
}
"""SQLite's primary result codes that say the file is away for a while (locked, a full or failing disk), not that
the request is wrong: the store's `Unavailable` (UNAVAILABLE to callers, who retry; the projection waits)."""


def _translate(exc: sqlite3.Error) -> StoreError:
    message = str(exc)
    if isinstance(exc, sqlite3.IntegrityError):
        if message.startswith("UNIQUE") or "PRIMARY KEY" in message:
            return AlreadyExists(f"already exists ({message})")
        if message.startswith("FOREIGN KEY"):
            return NotFound(f"a referenced account or match does not exist ({message})")
        return StoreError(f"constraint violated ({message})")
    name = str(getattr(exc, "sqlite_errorname", "") or "")
    primary = next((code for code in AWAY_ERRORS if name == code or name.startswith(code + "_")), None)
    if primary is None and ("locked" in message or "busy" in message or "disk is full" in message):
        primary = "SQLITE_FULL" if "full" in message else "SQLITE_BUSY"
    if primary is not None:
        return Unavailable(f"{AWAY_ERRORS[primary]} ({message})")
    return StoreError(f"sqlite error: {message}")


async def _rollback(conn: aiosqlite.Connection) -> None:
    """Roll back if a transaction is open (SQLite may already have ended it after some errors)."""
    if conn.in_transaction:
        await conn.execute("ROLLBACK")


async def _reset(conn: aiosqlite.Connection) -> None:
    """End whatever transaction a cancelled call left behind. aiosqlite runs a connection's calls in order on
    its thread, and a call whose caller was cancelled still runs there: a `BEGIN` cancelled on its way may
    start its transaction after the next call looked at `in_transaction`. So this queues an unconditional
    ROLLBACK behind it instead of looking ("no transaction is active" is the fine answer)."""
    try:
        await conn.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        if "no transaction is active" not in str(exc):
            raise _translate(exc) from exc


class _SqliteTx(Tx):
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, *args: Any) -> None:
        try:
            await self._conn.execute(sql, SQLITE.params(args))
        except sqlite3.Error as exc:
            raise _translate(exc) from exc

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self._conn.executemany(sql, [SQLITE.params(tuple(r)) for r in rows])
        except sqlite3.Error as exc:
            raise _translate(exc) from exc

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        # One trip to the connection's thread (execute, fetch and close there) where a cursor took three:
        # each trip costs about as much CPU as a small query itself.
        try:
            return list(await self._conn.execute_fetchall(sql, SQLITE.params(args)))
        except sqlite3.Error as exc:
            raise _translate(exc) from exc


class SqliteStore(Store):
    dialect = SQLITE

    def __init__(
        self,
        path: Path,
        *,
        synchronous: Synchronous = "FULL",
        busy_timeout_ms: int = 5000,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        super().__init__(clock=clock)
        if synchronous not in get_args(Synchronous):
            raise InvalidArgument(f"synchronous must be one of {list(get_args(Synchronous))}, not {synchronous!r}")
        self.path = path
        self._synchronous = synchronous
        self._busy_timeout_ms = busy_timeout_ms
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        self._unsure: set[str] = set()
        """Connections ("reader", "writer") a cancelled or failed call may have left inside a transaction."""

    @classmethod
    async def open(cls, path: str | Path, **kwargs: Any) -> SqliteStore:
        """Open (creating the file and its folder if needed) and migrate."""
        store = cls(Path(path), **kwargs)
        try:
            await store._connect()
            await store.migrate()
        except BaseException:
            await store.close()
            raise
        return store

    async def _connect(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._writer = await self._open_connection()
        await self._enable_wal(self._writer)
        self._reader = await self._open_connection()

    async def _enable_wal(self, conn: aiosqlite.Connection) -> None:
        """Switch the file to WAL (persistent). The switch needs a moment alone with the file and SQLite
        reports "locked" at once instead of waiting, so retry within the busy timeout."""
        deadline = asyncio.get_running_loop().time() + self._busy_timeout_ms / 1000
        while True:
            try:
                async with conn.execute("PRAGMA journal_mode=WAL") as cursor:
                    row = await cursor.fetchone()
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or asyncio.get_running_loop().time() > deadline:
                    raise _translate(exc) from exc
                await asyncio.sleep(0.01)
        if row is None or str(row[0]).lower() != "wal":
            raise StoreError(f"could not put {self.path} in WAL mode (got {row[0] if row else None})")

    async def _open_connection(self) -> aiosqlite.Connection:
        conn = await aiosqlite.connect(self.path, isolation_level=None)
        conn.row_factory = sqlite3.Row
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute(f"PRAGMA busy_timeout={int(self._busy_timeout_ms)}")
        await conn.execute(f"PRAGMA synchronous={self._synchronous}")
        return conn

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Tx]:
        async with self._write_lock:
            conn = self._connection(self._writer)
            async with self._transaction(conn, "BEGIN IMMEDIATE", "writer") as tx:
                yield tx
                try:
                    await conn.execute("COMMIT")
                except sqlite3.Error as exc:
                    raise _translate(exc) from exc

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Tx]:
        async with self._read_lock, self._transaction(self._connection(self._reader), "BEGIN", "reader") as tx:
            yield tx

    @asynccontextmanager
    async def _transaction(self, conn: aiosqlite.Connection, begin: str, which: str) -> AsyncIterator[Tx]:
        """BEGIN, the caller's statements, and a rollback of anything not committed. A call interrupted on the
        way (a cancelled RPC, an error) marks the connection unsure, and the next transaction on it starts with
        `_reset`; a clean one costs no extra trip to the connection's thread."""
        if which in self._unsure:
            await _reset(conn)
            self._unsure.discard(which)
        else:
            await _rollback(conn)
        try:
            await conn.execute(begin)
        except sqlite3.Error as exc:
            self._unsure.add(which)
            raise _translate(exc) from exc
        except BaseException:
            self._unsure.add(which)
            raise
        try:
            yield _SqliteTx(conn)
        except BaseException:
            try:  # queued behind whatever the interrupted statement still runs on the thread
                await _rollback(conn)
            except BaseException:  # done by the next transaction's `_reset` instead
                self._unsure.add(which)
            raise
        if conn.in_transaction:  # the caller returned without committing (a read): end it
            try:
                await _rollback(conn)
            except BaseException:
                self._unsure.add(which)
                raise

    def _connection(self, conn: aiosqlite.Connection | None) -> aiosqlite.Connection:
        if conn is None:
            raise StoreError(f"the store at {self.path} is closed")
        return conn

    async def close(self) -> None:
        for conn in (self._reader, self._writer):
            if conn is not None:
                await conn.close()
        self._reader = self._writer = None
