"""`gamehall verify <match>`: re-run a finished match from its revealed seed and check everything stored."""

from __future__ import annotations

import asyncio
import json
from typing import Annotated

import typer
from rich.console import Console

from gamehall.cli.ui import DatabaseUrl
from gamehall.store.audit import AuditError, audit, default_dsn


def verify(
    match_id: Annotated[str, typer.Argument(help="The match id.")],
    database_url: DatabaseUrl = "",
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Check the seed commitment, every state digest and snapshot, and the outcome. Exits 1 on any mismatch."""
    try:
        result = asyncio.run(audit(database_url or default_dsn(), match_id))
    except AuditError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    report = {
        "match": result.match.id,
        "game": result.match.game,
        "status": result.match.status,
        "seed": result.match.seed,
        "commitment_ok": result.commitment_ok,
        "actions": len(result.steps),
        "digests_ok": all(s.digest_ok for s in result.steps),
        "snapshots_checked": sum(1 for s in result.steps if s.snapshot_ok is not None),
        "outcome_ok": result.outcome_ok,
        "ok": result.ok,
        "problems": result.problems,
    }
    if as_json:
        typer.echo(json.dumps(report, indent=2))
    else:
        console = Console()
        mark = "[green]verified[/green]" if result.ok else "[red]FAILED[/red]"
        console.print(
            f"{mark} match {result.match.id} ({result.match.game}): {len(result.steps)} actions, "
            f"{report['snapshots_checked']} snapshots, commitment {'ok' if result.commitment_ok else 'WRONG'}, "
            f"outcome {'ok' if result.outcome_ok else 'WRONG'}"
        )
        for problem in result.problems:
            console.print(f"  - {problem}")
    if not result.ok:
        raise typer.Exit(1)
