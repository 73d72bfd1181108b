"""`open_store(dsn)`: the one entry point that turns a DSN from settings into a migrated store.

- ``sqlite:///var/lib/gamehall/gamehall.db`` — an absolute path; a relative one is ``sqlite:///./var/x.db``
  (or ``sqlite:var/x.db``); query options ``synchronous`` (off/normal/full/extra, default full) and
  ``busy_timeout`` (ms, default 5000). An absolute path directly under the filesystem root is refused
  (`sqlite:///gamehall.db` meant as relative would otherwise make an empty store there); a service creates
  the folders of its store's path; `open_store(..., must_exist=True)`, as the command-line tools call it,
  refuses a folder or a file that does not exist yet (a tool reads a store, never makes one).
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
    if rest.startswith(("/./", "/../")):  # sqlite:///./var/x.db: relative to the working directory
        rest = rest[1:]
    return Path(rest), options


def check_sqlite_path(dsn: str, path: Path, *, must_exist: bool = False) -> None:
    """Refuse a SQLite path that is most likely a typo, before anything creates a file there: an absolute
    path directly under `/`, or (with `must_exist`) a folder or file that is not there. The message shows the
    relative spelling."""
    relative = f"sqlite:///./{path.relative_to(path.anchor)}" if path.is_absolute() else ""
    hint = f"; for a path relative to the working directory write {relative}" if relative else ""
    if path.is_absolute() and len(path.parent.parts) <= 1:
        raise InvalidArgument(f"{dsn!r} names {path}, at the filesystem root: refused{hint}")
    if must_exist and path.is_absolute() and not path.parent.is_dir():
        raise InvalidArgument(f"{dsn!r} names {path}, but the folder {path.parent} does not exist{hint}")
    if must_exist and not path.is_file():
        raise InvalidArgument(f"{dsn!r} names {path}, which does not exist (no store there){hint}")


async def open_store(dsn: str, *, must_exist: bool = False, **kwargs: Any) -> Store:
    """A connected, migrated store for `dsn`; keyword arguments go to the backend (e.g. `clock`, pool sizes).
    `must_exist`: refuse a SQLite file that is not there yet (tools that read a store, never create one)."""
    scheme = dsn.partition(":")[0].lower()
    if scheme == "sqlite":
        from gamehall.store.sqlite import SqliteStore

        path, options = sqlite_options(dsn)
        check_sqlite_path(dsn, path, must_exist=must_exist)
        return await SqliteStore.open(path, **options, **kwargs)
    if scheme in ("postgresql", "postgres"):
        from gamehall.store.postgres import PostgresStore

        return cast(Store, await PostgresStore.open(dsn, **kwargs))
    raise InvalidArgument(f"unsupported store DSN scheme {scheme!r}: use sqlite:///path/file.db or postgresql://...")
