"""`gamehall games`: the registered games with their modes, options and rule flags."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from gamehall.engine import Game, all_games


def describe(game: Game[Any]) -> dict[str, Any]:
    def opt(o: Any) -> dict[str, Any]:
        return {
            "name": o.name,
            "default": o.default,
            "choices": list(o.choices) if o.choices else None,
            "modes": list(o.modes) if o.modes else None,
            "description": o.description,
        }

    return {
        "id": game.id,
        "name": game.name,
        "description": game.description,
        "modes": [
            {"id": m.id, "name": m.name, "seats": list(m.seats), "team_size": m.team_size, "description": m.description}
            for m in game.modes
        ],
        "options": [opt(o) for o in game.options],
        "flags": [opt(o) for o in game.flags],
    }


def games(
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """List the games, their modes (with seat counts), options and rule flags."""
    described = [describe(g) for g in all_games()]
    if as_json:
        typer.echo(json.dumps(described, indent=2))
        return
    console = Console()
    if not described:
        console.print("no games are registered")
        return
    for g in described:
        table = Table(title=f"{g['name']} ({g['id']})", title_justify="left", show_lines=False)
        for column in ("kind", "name", "seats / default", "description"):
            table.add_column(column)
        for m in g["modes"]:
            table.add_row("mode", m["id"], ",".join(map(str, m["seats"])), m["description"] or m["name"])
        for kind in ("options", "flags"):
            for o in g[kind]:
                table.add_row(
                    kind[:-1] if kind == "options" else "flag", o["name"], json.dumps(o["default"]), o["description"]
                )
        console.print(table)
