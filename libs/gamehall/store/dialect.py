"""The little that differs between SQLite and PostgreSQL, so every query is written once.

Queries are written with `?` placeholders and portable SQL (RETURNING, ON CONFLICT, partial
indexes work in both); a `Dialect` turns them into the backend's placeholder style, fills the
column types of migrations, and converts the few values whose representation differs (times, booleans).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

_SQLITE_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
"""Fixed width, so text order is time order (keyset pagination compares these strings)."""

_PLACEHOLDER = re.compile(r"\?")


@lru_cache(maxsize=512)
def _numbered(sql: str) -> str:
    counter = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)


def _time_to_text(value: datetime) -> str:
    if value.tzinfo is None:
        raise ValueError("the store only takes timezone-aware datetimes")
    return value.astimezone(UTC).strftime(_SQLITE_TIME_FORMAT)


@dataclass(frozen=True)
class Dialect:
    """One backend's SQL flavour."""

    name: str
    types: Mapping[str, str]
    """Column-type tokens used by migrations: {json}, {blob}, {timestamp}, {bool}, {bigint}, {autoid}."""
    numbered_placeholders: bool
    """PostgreSQL wants $1, $2...; SQLite takes the `?` the queries are written with."""
    for_update: str
    """Suffix that locks the selected row for the transaction (SQLite needs none: writers are serialised)."""
    migration_lock: str | None
    """Statement run first in the migration transaction so that concurrent starts migrate once."""
    time_as_text: bool = field(default=False)

    def sql(self, query: str) -> str:
        """`query` in this backend's placeholder style."""
        return _numbered(query) if self.numbered_placeholders else query

    def render(self, template: str) -> str:
        """A migration statement with this backend's column types filled in."""
        return template.format_map(self.types)

    def param(self, value: Any) -> Any:
        """A Python value as this backend's driver wants it bound."""
        if self.time_as_text and isinstance(value, datetime):
            return _time_to_text(value)
        return value

    def params(self, values: tuple[Any, ...]) -> tuple[Any, ...]:
        if not self.time_as_text:
            return values
        return tuple(self.param(v) for v in values)

    def load_time(self, value: Any) -> datetime:
        """A column value as an aware UTC datetime."""
        if isinstance(value, datetime):
            return value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        return datetime.strptime(value, _SQLITE_TIME_FORMAT).replace(tzinfo=UTC)

    def load_optional_time(self, value: Any) -> datetime | None:
        return None if value is None else self.load_time(value)

    def load_bool(self, value: Any) -> bool:
        return bool(value)


SQLITE = Dialect(
    name="sqlite",
    types={
        "json": "TEXT",
        "blob": "BLOB",
        "timestamp": "TEXT",
        "bool": "INTEGER",
        "bigint": "INTEGER",
        "autoid": "INTEGER PRIMARY KEY AUTOINCREMENT",
    },
    numbered_placeholders=False,
    for_update="",
    migration_lock=None,
    time_as_text=True,
)

POSTGRES = Dialect(
    name="postgresql",
    types={
        "json": "JSONB",
        "blob": "BYTEA",
        "timestamp": "TIMESTAMPTZ",
        "bool": "BOOLEAN",
        "bigint": "BIGINT",
        "autoid": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    },
    numbered_placeholders=True,
    for_update=" FOR UPDATE",
    # Any constant key works; this one spells "gamehall" in ASCII.
    migration_lock="SELECT pg_advisory_xact_lock(7449355540957850732)",
)
