"""The one thing a backend must provide: a transaction that runs `?`-style SQL and returns rows.

Every store operation is written once against `Tx`; the SQLite and PostgreSQL backends wrap
their driver's connection in it, translating placeholders and driver errors into store errors.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, Protocol


class Row(Protocol):
    """A result row addressable by column name (sqlite3.Row and asyncpg.Record both are)."""

    def __getitem__(self, key: str, /) -> Any: ...


class Tx(ABC):
    """An open transaction on one connection; everything done through it commits or rolls back together."""

    @abstractmethod
    async def execute(self, sql: str, *args: Any) -> None:
        """Run one statement."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""

    @abstractmethod
    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        """Run one statement (SELECT, or a write with RETURNING) and return every row."""

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None
