"""`gamehall backup <folder>` and `gamehall restore <folder>`: the embedded store, safely (issue 20).

Backup of a running platform waits (up to `--wait`) until the projection has written every match log
entry, then takes SQLite's online backup; of a stopped one it copies the JetStream store as well. See
`gamehall.store.backup` for why, and deploy/README.md ("Backups") for PostgreSQL and clustered JetStream.
"""

from __future__ import annotations

import asyncio
import getpass
import uuid
from pathlib import Path
from typing import Annotated
from urllib.parse import urlsplit

import typer
from rich.console import Console

from gamehall.cli.ui import DatabaseUrl
from gamehall.runtime.settings import Settings
from gamehall.store import backup as store_backup
from gamehall.store.backup import BackupError, MatchlogMode

DataDir = Annotated[Path | None, typer.Option("--data-dir", help="The platform's data dir (default: settings).")]
NatsUrl = Annotated[str, typer.Option("--nats-url", help="The platform's NATS (default: settings).")]


def _settings(data_dir: Path | None) -> Settings:
    return Settings(data_dir=data_dir) if data_dir is not None else Settings()


async def _projection_caught_up(nats_url: str, wait: float) -> bool | None:
    """True once the projection holds every log entry, False if it did not within `wait`, None: no NATS there.
    `nats_url` may list a cluster's servers, comma-separated (as the services take it): any live one will do."""
    import nats
    from nats.js.errors import NotFoundError

    from gamehall.runtime.matchlog import LOG_STREAM, PROJECTOR, wait_projected

    servers = [u.strip() for u in nats_url.split(",") if u.strip()]
    listening = [u for u, up in zip(servers, await asyncio.gather(*map(_listening, servers)), strict=True) if up]
    if not listening:
        return None

    async def quiet(_: Exception) -> None:
        return None

    try:
        nc = await asyncio.wait_for(
            nats.connect(servers=listening, connect_timeout=2, allow_reconnect=False, error_cb=quiet), timeout=5
        )
    except Exception:
        return None
    try:
        js = nc.jetstream()
        try:
            await js.consumer_info(LOG_STREAM, PROJECTOR)
        except NotFoundError:
            return True  # no log yet: nothing to project
        return await wait_projected(js, wait)
    finally:
        await nc.close()


async def _listening(url: str) -> bool:
    """Whether something accepts connections at the NATS url's host and port (nats-py retries a refused
    first connection for ever, so look first)."""
    parsed = urlsplit(url if "://" in url else f"nats://{url}")
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(parsed.hostname, parsed.port or 4222), 2)
    except (OSError, TimeoutError):
        return False
    writer.close()
    return True


def backup(
    folder: Annotated[Path, typer.Argument(help="A new folder to write the backup into.")],
    data_dir: DataDir = None,
    database_url: DatabaseUrl = "",
    nats_url: NatsUrl = "",
    wait: Annotated[float, typer.Option(help="Seconds to wait for the projection to catch up.")] = 60.0,
) -> None:
    """Back up the embedded store, consistent while the platform runs (PostgreSQL: use pg_dump)."""
    console = Console(stderr=True)
    settings = _settings(data_dir)
    dsn = database_url or settings.database_dsn()
    try:
        source = store_backup.sqlite_path(dsn)
        jetstream = settings.data_dir / store_backup.JETSTREAM
        caught_up = asyncio.run(_projection_caught_up(nats_url or settings.nats_url, wait))
        mode: MatchlogMode
        if caught_up is None:
            if store_backup.holders(jetstream):
                raise BackupError(
                    f"a NATS server holds {jetstream} open but does not answer at the NATS url: pass --nats-url"
                )
            mode, copy_from = "copied", jetstream  # stopped: the log's files are at rest
        elif caught_up:
            mode, copy_from = "projected", None
        else:
            raise BackupError(
                f"the projection did not catch up with the match log within {wait:g} s; a backup now would miss "
                "acknowledged moves. Retry, or wait longer (--wait)"
            )
        manifest = store_backup.write_backup(source, folder, matchlog=mode, jetstream=copy_from)
    except BackupError as exc:
        console.print(f"[red]backup refused:[/red] {exc}")
        raise typer.Exit(1) from exc
    console.print(
        f"[green]backed up[/green] {source} -> {folder} (schema {manifest.schema_version}, "
        f"{manifest.db_bytes:,} bytes, match log: {manifest.matchlog})"
    )


def restore(
    folder: Annotated[Path, typer.Argument(help="A folder written by `gamehall backup`.")],
    data_dir: DataDir = None,
    database_url: DatabaseUrl = "",
    force: Annotated[bool, typer.Option("--force", help="Replace the store even if a process holds it open.")] = False,
) -> None:
    """Restore a backup into the data dir: checks it, moves the current store aside, verifies the result."""
    console = Console(stderr=True)
    settings = _settings(data_dir)
    dsn = database_url or settings.database_dsn()
    try:
        target = store_backup.sqlite_path(dsn)
        jetstream = settings.data_dir / store_backup.JETSTREAM
        manifest, moved = store_backup.restore(folder, target, jetstream=jetstream, force=force)
        version = asyncio.run(_open_and_record(dsn, folder, manifest.schema_version))
    except BackupError as exc:
        console.print(f"[red]restore refused:[/red] {exc}")
        raise typer.Exit(1) from exc
    for path in moved:
        console.print(f"moved aside: {path}")
    console.print(
        f"[green]restored[/green] {folder} -> {target} (backup of {manifest.created_at}, schema "
        f"{manifest.schema_version} -> {version}, match log: {manifest.matchlog})"
    )


async def _open_and_record(dsn: str, folder: Path, backup_version: int) -> int:
    """Open the restored store (migrating an older schema) and leave an audit event of the restore."""
    from gamehall.store import open_store

    store = await open_store(dsn)
    try:
        await store.record_audit_event(
            f"restore-{uuid.uuid4().hex}",
            outcome="OK",
            actor=f"system:cli:{getpass.getuser()}",
            actor_name=getpass.getuser(),
            role="system",
            action="store.restore",
            target=f"backup:{folder.resolve()}",
            detail={"schema_version": backup_version},
        )
        return await store.schema_version()
    finally:
        await store.close()
