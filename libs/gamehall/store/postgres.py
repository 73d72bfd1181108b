"""The scale-out backend: PostgreSQL through an asyncpg connection pool.

Writes run in READ COMMITTED transactions that lock the match row (`SELECT ... FOR UPDATE`), so
concurrent writers to one match queue up and writers to different matches never wait on each other.
Multi-statement reads run in read-only REPEATABLE READ transactions (one consistent snapshot).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

import asyncpg

from gamehall.store.core import utc_now
from gamehall.store.dialect import POSTGRES
from gamehall.store.errors import AlreadyExists, NotFound, StoreError, Unavailable
from gamehall.store.store import Store
from gamehall.store.transaction import Row, Tx

AWAY_SQLSTATE_CLASSES = ("08", "53", "57")
"""Connection exception, insufficient resources, operator intervention (shutting down, starting up,
in recovery): the server is away for a while, so the call may be retried (UNAVAILABLE, not INTERNAL)."""
CONNECTION_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)


def _translate(exc: Exception) -> StoreError:
    if not isinstance(exc, asyncpg.PostgresError):  # the connection broke (asyncpg.InterfaceError, OSError)
        return Unavailable(f"lost the PostgreSQL connection: {exc}")
    if str(getattr(exc, "sqlstate", "") or "")[:2] in AWAY_SQLSTATE_CLASSES:
        return Unavailable(f"PostgreSQL is unavailable: {exc}")
    detail = getattr(exc, "detail", None) or str(exc)
    if isinstance(exc, asyncpg.UniqueViolationError):
        return AlreadyExists(f"already exists ({detail})")
    if isinstance(exc, asyncpg.ForeignKeyViolationError):
        return NotFound(f"a referenced account or match does not exist ({detail})")
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        return StoreError(f"constraint violated ({exc}; {detail})")
    return StoreError(f"postgresql error: {exc}")


class _PostgresTx(Tx):
    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, *args: Any) -> None:
        try:
            await self._conn.execute(POSTGRES.sql(sql), *args)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
            raise _translate(exc) from exc

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self._conn.executemany(POSTGRES.sql(sql), [tuple(r) for r in rows])
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
            raise _translate(exc) from exc

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        try:
            return list(await self._conn.fetch(POSTGRES.sql(sql), *args))
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
            raise _translate(exc) from exc


class PostgresStore(Store):
    dialect = POSTGRES

    def __init__(self, pool: asyncpg.Pool, *, clock: Callable[[], datetime] = utc_now) -> None:
        super().__init__(clock=clock)
        self._pool: asyncpg.Pool | None = pool

    @classmethod
    async def open(
        cls,
        dsn: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        clock: Callable[[], datetime] = utc_now,
    ) -> PostgresStore:
        """Connect a pool to `dsn` (a libpq URL) and migrate."""
        try:
            pool = await asyncpg.create_pool(dsn, min_size=min_size, max_size=max_size)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise Unavailable(f"cannot connect to PostgreSQL: {exc}") from exc
        store = cls(pool, clock=clock)
        try:
            await store.migrate()
        except BaseException:
            await store.close()
            raise
        return store

    def _require_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreError("the PostgreSQL store is closed")
        return self._pool

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Tx]:
        try:  # acquiring a connection, BEGIN and COMMIT meet a restarting server too: StoreErrors, never raw
            async with self._require_pool().acquire() as conn, conn.transaction():
                yield _PostgresTx(conn)
        except CONNECTION_ERRORS as exc:
            raise _translate(exc) from exc

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Tx]:
        try:
            async with (
                self._require_pool().acquire() as conn,
                conn.transaction(isolation="repeatable_read", readonly=True),
            ):
                yield _PostgresTx(conn)
        except CONNECTION_ERRORS as exc:
            raise _translate(exc) from exc

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()
