"""What every store operation builds on: the dialect, the clock, read and write transactions.

A backend subclasses `StoreCore` (through `Store`) and implements `_read`, `_write` and `close`.
`_write` transactions are serialised per match by locking the match row (`lock_match`), which
SQLite gets for free from its single writer and PostgreSQL from `SELECT ... FOR UPDATE`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, ClassVar, Self

from gamehall.store import migrations
from gamehall.store.dialect import Dialect
from gamehall.store.errors import NotFound
from gamehall.store.transaction import Row, Tx


def utc_now() -> datetime:
    return datetime.now(UTC)


class StoreCore(ABC):
    """Transactions, time and schema; the operation mixins add the domain methods."""

    dialect: ClassVar[Dialect]

    def __init__(self, *, clock: Callable[[], datetime] = utc_now) -> None:
        self._clock = clock

    # ----------------------------------------------------------------- backend hooks
    @abstractmethod
    def _write(self) -> AbstractAsyncContextManager[Tx]:
        """A read-write transaction: commits when the block exits normally, rolls back on any exception."""

    @abstractmethod
    def _read(self) -> AbstractAsyncContextManager[Tx]:
        """A read-only transaction giving a consistent snapshot for multi-statement reads."""

    @abstractmethod
    async def close(self) -> None:
        """Close every connection; the store is unusable afterwards."""

    # ----------------------------------------------------------------- lifecycle
    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def migrate(self) -> list[int]:
        """Bring the schema up to date (done by `open_store`); returns the migration versions applied."""
        async with self._write() as tx:
            return await migrations.migrate(tx, self.dialect, self._now())

    async def schema_version(self) -> int:
        async with self._read() as tx:
            row = await tx.fetchrow("SELECT MAX(version) AS version FROM schema_migrations")
        return int(row["version"]) if row is not None and row["version"] is not None else 0

    # ----------------------------------------------------------------- helpers for the operations
    def _now(self) -> datetime:
        now = self._clock()
        if now.tzinfo is None:
            raise ValueError("the store clock must return timezone-aware datetimes")
        return now.astimezone(UTC)

    async def _lock_match(self, tx: Tx, match_id: str, columns: str = "id, status, version") -> Row:
        """The match row, locked until the transaction ends; NotFound if there is none."""
        row = await tx.fetchrow(f"SELECT {columns} FROM matches WHERE id = ?{self.dialect.for_update}", match_id)
        if row is None:
            raise NotFound(f"no match {match_id}")
        return row

    @staticmethod
    def _placeholders(values: Any) -> str:
        return ", ".join("?" for _ in values)
