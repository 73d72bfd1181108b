"""`open_store(dsn)`: the one entry point that turns a DSN from settings into a migrated store.

- ``sqlite:///var/lib/gamehall/gamehall.db`` — an absolute path (``sqlite:relative/x.db`` for a relative one);
  query options ``synchronous`` (off/normal/full/extra, default full) and ``busy_timeout`` (ms, default 5000).
- ``postgresql://user:password@host:5432/db`` (or ``postgres://``) — any libpq URL asyncpg accepts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qs

from gamehall.store.errors import InvalidArgument
from gamehall.store.store import Store

_SYNC_MODES = ("OFF", "NORMAL", "FULL", "EXTRA")


def sqlite_options(dsn: str) -> tuple[Path, dict[str, Any]]:
    """The file path and SqliteStore keyword options of a ``sqlite:`` DSN."""
    rest = dsn[len("sqlite:") :]
    rest, _, query = rest.partition("?")
    if rest.startswith("//"):
        rest = rest[2:]
    if not rest or rest in (":memory:", "/:memory:"):
        raise InvalidArgument(f"the sqlite DSN {dsn!r} names no file (in-memory stores are not supported)")
    options: dict[str, Any] = {}
    for key, values in parse_qs(query, strict_parsing=False).items():
        value = values[-1]
        if key == "synchronous":
            if value.upper() not in _SYNC_MODES:
                raise InvalidArgument(f"synchronous must be one of {[m.lower() for m in _SYNC_MODES]}, not {value!r}")
            options["synchronous"] = value.upper()
        elif key == "busy_timeout":
            if not value.isdigit():
                raise InvalidArgument(f"busy_timeout must be milliseconds, not {value!r}")
            options["busy_timeout_ms"] = int(value)
        else:
            raise InvalidArgument(f"unknown sqlite DSN option {key!r}; known: synchronous, busy_timeout")
    return Path(rest), options


async def open_store(dsn: str, **kwargs: Any) -> Store:
    """A connected, migrated store for `dsn`; keyword arguments go to the backend (e.g. `clock`, pool sizes)."""
    scheme = dsn.partition(":")[0].lower()
    if scheme == "sqlite":
        from gamehall.store.sqlite import SqliteStore

        path, options = sqlite_options(dsn)
        return await SqliteStore.open(path, **options, **kwargs)
    if scheme in ("postgresql", "postgres"):
        from gamehall.store.postgres import PostgresStore

        return cast(Store, await PostgresStore.open(dsn, **kwargs))
    raise InvalidArgument(f"unsupported store DSN scheme {scheme!r}: use sqlite:///path/file.db or postgresql://...")
