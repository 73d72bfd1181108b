"""`gamehall replay <match>`: print a finished match step by step, as a seat or a spectator saw it."""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

import typer

from gamehall.cli.ui import DatabaseUrl
from gamehall.store.audit import AuditError, audit, default_dsn, views


def replay(
    match_id: Annotated[str, typer.Argument(help="The match id.")],
    database_url: DatabaseUrl = "",
    seat: Annotated[
        int | None, typer.Option("--seat", help="Show this seat's view (default: the spectator's).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output (one JSON document).")] = False,
) -> None:
    """Re-run the match from its revealed seed and action log and print every step."""
    try:
        result = asyncio.run(audit(database_url or default_dsn(), match_id))
    except AuditError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    shown = dict(views(result, seat))
    steps: list[dict[str, Any]] = [
        {
            "version": s.version,
            "seat": s.seat,
            "action": s.action.get("action", s.action),
            "label": s.label,
            "view": shown[s.version],
        }
        for s in result.steps
    ]
    if as_json:
        document = {
            "match": result.match.id,
            "game": result.match.game,
            "seed": result.match.seed,
            "outcome": result.match.outcome,
            "initial_view": shown[0],
            "steps": steps,
        }
        typer.echo(json.dumps(document, indent=2, sort_keys=True))
        return
    typer.echo(f"match {result.match.id} ({result.match.game}), seed {result.match.seed}")
    typer.echo(f"v0  {json.dumps(shown[0], sort_keys=True)}")
    for step in steps:
        typer.echo(f"v{step['version']}  seat {step['seat']}: {step['label'] or json.dumps(step['action'])}")
        typer.echo(f"     {json.dumps(step['view'], sort_keys=True)}")
    typer.echo(f"outcome: {json.dumps(result.match.outcome)}")
