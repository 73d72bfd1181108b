"""`gamehall archive`: closed matches the retention policy archived (list, show one, put one back).

Reads the store directly, like `gamehall verify`. `restore` puts a match back into the hot tables, where
GetMatch, replay and verify see it again (the retention task leaves a restored match alone).
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from gamehall.cli.ui import DatabaseUrl, JsonFlag
from gamehall.store import NotFound, Store, open_store
from gamehall.store.audit import default_dsn
from gamehall.store.errors import InvalidArgument

app = typer.Typer(help="Matches archived by the retention policy: list, show, restore.", no_args_is_help=True)


async def _open(database_url: str) -> Store:
    """The store to read (refused, never created, when it does not exist: a typo'd --database-url)."""
    try:
        return await open_store(database_url or default_dsn(), must_exist=True)
    except InvalidArgument as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc


@app.command("list")
def list_archived(
    limit: Annotated[int, typer.Option(min=1, max=1000, help="How many, newest finish first.")] = 50,
    database_url: DatabaseUrl = "",
    as_json: JsonFlag = False,
) -> None:
    """Archived matches with their stored and uncompressed sizes."""

    async def run() -> list[dict[str, object]]:
        store = await _open(database_url)
        try:
            return [
                {
                    "id": a.id,
                    "game": a.game,
                    "status": a.status,
                    "finished_at": a.finished_at.isoformat(),
                    "archived_at": a.archived_at.isoformat(),
                    "raw_bytes": a.raw_bytes,
                    "stored_bytes": a.stored_bytes,
                }
                for a in await store.list_archived_matches(limit)
            ]
        finally:
            await store.close()

    rows = asyncio.run(run())
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    table = Table(title="Archived matches")
    for column in ("match", "game", "status", "finished", "stored / raw bytes"):
        table.add_column(column)
    for r in rows:
        table.add_row(
            str(r["id"]),
            str(r["game"]),
            str(r["status"]),
            str(r["finished_at"])[:19],
            f"{r['stored_bytes']:,} / {r['raw_bytes']:,}",
        )
    Console().print(table)


@app.command("show")
def show(
    match_id: Annotated[str, typer.Argument(help="The match id.")],
    database_url: DatabaseUrl = "",
) -> None:
    """The archived match as JSON: the match row with its seats, every action, the final snapshot."""

    async def run() -> bytes:
        import msgspec

        store = await _open(database_url)
        try:
            return msgspec.json.encode(await store.get_archived_match(match_id))
        finally:
            await store.close()

    try:
        typer.echo(json.dumps(json.loads(asyncio.run(run())), indent=2))
    except NotFound as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc


@app.command("restore")
def restore(
    match_id: Annotated[str, typer.Argument(help="The match id.")],
    database_url: DatabaseUrl = "",
) -> None:
    """Put an archived match back into the hot tables (GetMatch, replay and verify see it again)."""

    async def run() -> str:
        import getpass
        import uuid

        store = await _open(database_url)
        try:
            match = await store.restore_archived_match(match_id)
            user = getpass.getuser()
            await store.record_audit_event(
                f"unarchive-{uuid.uuid4().hex}",
                outcome="OK",
                actor=f"system:cli:{user}",
                actor_name=user,
                role="system",
                action="archive.restore",
                target=f"match:{match_id}",
            )
            return f"{match.id} ({match.game}, {match.status}, {match.version} actions)"
        finally:
            await store.close()

    try:
        typer.echo(f"restored {asyncio.run(run())}")
    except NotFound as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
