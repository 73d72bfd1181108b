"""Backup and restore of the embedded store (`gamehall backup` / `gamehall restore`, issue 20).

A backup is a folder: `gamehall.db` (taken with SQLite's online backup API, so it is one consistent
snapshot even while the platform writes), `manifest.json` (schema version, time, digest, how the match
log was handled) and, for a stopped platform, `jetstream/` (a copy of the embedded NATS store).

The match log (`GAMEHALL_MATCHLOG`) holds entries the projection may not have written yet. Two cases:

* running platform (`matchlog: projected`): the caller first waits until the projection has caught
  up with the log (see `gamehall.cli.backup_cmd`), then takes the snapshot: it then holds every move
  acknowledged before the backup began, and the log is not needed. A restore starts a fresh log, so it
  resets each match's `log_seq` (the sequence of the newest projected entry) to 0.
* stopped platform (`matchlog: copied`): the JetStream files are at rest and are copied as they are;
  a restore puts them back and keeps `log_seq`, so unprojected entries are projected on the next start.

A restore checks the backup (integrity, digest, a schema this code can open), refuses a store that a
running process holds open unless forced, moves what it replaces aside (never deletes it), and checks
the integrity of the result.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from gamehall.store.migrations import latest_version

DB_NAME = "gamehall.db"
MANIFEST = "manifest.json"
JETSTREAM = "jetstream"
FORMAT = 1
MatchlogMode = Literal["projected", "copied", "absent"]


class BackupError(Exception):
    """The backup or restore cannot be done safely (the message says why and what to do)."""


@dataclass(frozen=True)
class Manifest:
    format: int
    created_at: str
    schema_version: int
    db_sha256: str
    db_bytes: int
    matchlog: MatchlogMode
    source: str

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def read(cls, folder: Path) -> Manifest:
        try:
            data = json.loads((folder / MANIFEST).read_text())
            return cls(**{k: data[k] for k in cls.__dataclass_fields__})
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise BackupError(f"{folder} is not a gamehall backup (no readable {MANIFEST}: {exc})") from exc


def sqlite_path(dsn: str) -> Path:
    """The file of a `sqlite://` DSN; BackupError for PostgreSQL (use pg_dump: deploy/README.md)."""
    if dsn.startswith("sqlite:"):
        from gamehall.store.dsn import sqlite_options

        path = sqlite_options(dsn)[0]
        return Path("/" + str(path).lstrip("/")) if path.is_absolute() else path  # POSIX keeps a leading "//"
    raise BackupError(
        "only the embedded SQLite store is backed up by gamehall backup; for PostgreSQL use pg_dump / pg_restore "
        "(deploy/README.md, 'Backups')"
    )


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)


def backup_sqlite(source: Path, dest: Path) -> None:
    """Copy the database at `source` to `dest` with the online backup API (consistent while others write)."""
    if not source.exists():
        raise BackupError(f"no store at {source}")
    src = _read_only(source)
    dst = sqlite3.connect(dest)
    try:
        src.backup(dst, pages=1024)
    finally:
        dst.close()
        src.close()


def integrity_errors(path: Path) -> list[str]:
    """SQLite's integrity and foreign key checks of the file (empty: sound)."""
    conn = _read_only(path)
    try:
        problems = [str(r[0]) for r in conn.execute("PRAGMA integrity_check") if r[0] != "ok"]
        problems += [f"foreign key: {tuple(r)}" for r in conn.execute("PRAGMA foreign_key_check")]
        return problems
    except sqlite3.DatabaseError as exc:
        return [str(exc)]
    finally:
        conn.close()


def schema_version_of(path: Path) -> int:
    conn = _read_only(path)
    try:
        row = conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
        return int(row[0] or 0)
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a gamehall store ({exc})") from exc
    finally:
        conn.close()


def digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_backup(source: Path, folder: Path, *, matchlog: MatchlogMode, jetstream: Path | None = None) -> Manifest:
    """Take a backup of the store at `source` into the new folder `folder` (and of `jetstream`, when given)."""
    if folder.exists() and any(folder.iterdir()):
        raise BackupError(f"{folder} exists and is not empty; give a new folder")
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / DB_NAME
    backup_sqlite(source, db)
    problems = integrity_errors(db)
    if problems:
        raise BackupError(f"the copy failed its integrity check: {problems[:3]}")
    if jetstream is not None and jetstream.exists():
        shutil.copytree(jetstream, folder / JETSTREAM)
    manifest = Manifest(
        format=FORMAT,
        created_at=datetime.now(UTC).isoformat(),
        schema_version=schema_version_of(db),
        db_sha256=digest(db),
        db_bytes=db.stat().st_size,
        matchlog=matchlog if matchlog != "copied" or (folder / JETSTREAM).exists() else "absent",
        source=str(source),
    )
    (folder / MANIFEST).write_text(json.dumps(manifest.to_json(), indent=2) + "\n")
    return manifest


def check_backup(folder: Path) -> Manifest:
    """The backup's manifest, after checking its digest, integrity and schema version; BackupError otherwise."""
    manifest = Manifest.read(folder)
    db = folder / DB_NAME
    if manifest.format != FORMAT:
        raise BackupError(f"backup format {manifest.format} is not one this code reads ({FORMAT})")
    if not db.exists() or digest(db) != manifest.db_sha256:
        raise BackupError(f"{db} is missing or differs from the digest in its manifest (damaged or edited)")
    problems = integrity_errors(db)
    if problems:
        raise BackupError(f"{db} fails its integrity check: {problems[:3]}")
    version = schema_version_of(db)
    if version > latest_version():
        raise BackupError(
            f"the backup's schema is version {version}, newer than this code knows ({latest_version()}); "
            "restore it with the gamehall version that made it"
        )
    return manifest


def holders(path: Path) -> list[int]:
    """Ids of the processes (other than this one) holding `path` or a file under it open (Linux /proc)."""
    target = str(path.resolve())
    found: set[int] = set()
    proc = Path("/proc")
    if not proc.exists():
        return []
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            for fd in (entry / "fd").iterdir():
                link = os.readlink(fd)
                if link == target or link.startswith(target + "-") or link.startswith(target + "/"):
                    found.add(int(entry.name))
                    break
        except OSError:
            continue  # gone, or not ours to look at
    return sorted(found)


def restore(folder: Path, target: Path, *, jetstream: Path, force: bool = False) -> tuple[Manifest, list[Path]]:
    """Put the backup in `folder` in place of the store at `target` (and the JetStream store at `jetstream`).

    Returns the manifest and what was moved aside. Refuses (BackupError) a damaged or too new backup, and a
    store or JetStream folder that a running process holds open unless `force`.
    """
    manifest = check_backup(folder)
    busy = holders(target) + (holders(jetstream) if jetstream.exists() else [])
    if busy and not force:
        raise BackupError(
            f"{target} is in use by running processes {sorted(set(busy))}: stop the platform first "
            "(or pass --force to replace it under them)"
        )
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    moved: list[Path] = []
    target.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        old = target.with_name(target.name + suffix)
        if old.exists():
            aside = old.with_name(f"{old.name}.before-restore-{stamp}")
            old.rename(aside)
            moved.append(aside)
    if jetstream.exists():
        aside = jetstream.with_name(f"{jetstream.name}.before-restore-{stamp}")
        jetstream.rename(aside)
        moved.append(aside)
    staging = target.with_name(target.name + ".restoring")
    staging.unlink(missing_ok=True)
    backup_sqlite(folder / DB_NAME, staging)
    if manifest.matchlog == "copied" and (folder / JETSTREAM).exists():
        shutil.copytree(folder / JETSTREAM, jetstream)
    else:
        _reset_log_positions(staging)
    problems = integrity_errors(staging)
    if problems:
        raise BackupError(f"the restored store fails its integrity check: {problems[:3]} (left at {staging})")
    staging.rename(target)
    return manifest, moved


def _reset_log_positions(path: Path) -> None:
    """The restored platform starts a new, empty match log: no match has projected any of its entries yet."""
    conn = sqlite3.connect(path)
    try:
        columns = {r[1] for r in conn.execute("PRAGMA table_info(matches)")}
        if "log_seq" in columns:
            with conn:
                conn.execute("UPDATE matches SET log_seq = 0 WHERE log_seq <> 0")
    finally:
        conn.close()
