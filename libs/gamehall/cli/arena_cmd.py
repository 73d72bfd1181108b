"""`gamehall arena`: a round robin between bot levels, with Wilson 95% intervals."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from gamehall.ai.arena import round_robin
from gamehall.ai.levels import LEVELS
from gamehall.cli.ui import progress_bar
from gamehall.engine import GameError, get_game


def arena(
    game: Annotated[str, typer.Option(help="Game id (see `gamehall games`).")],
    mode: Annotated[str | None, typer.Option(help="Mode id (default: the game's first mode).")] = None,
    seats: Annotated[int | None, typer.Option(help="Seat count (default: the mode's first).")] = None,
    levels: Annotated[
        str, typer.Option(help="Levels to pit against each other, weakest first.")
    ] = "random,easy,normal,hard",
    matches: Annotated[int, typer.Option(min=1, help="Matches per pair of levels.")] = 40,
    seed: Annotated[int, typer.Option(help="Base seed.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Every pair of LEVELS plays MATCHES matches; prints each level's win rate against each other level."""
    console = Console(stderr=True)
    names = [name.strip() for name in levels.split(",") if name.strip()]
    unknown = [n for n in names if n not in LEVELS]
    try:
        if unknown:
            raise ValueError(f"unknown levels {unknown}; levels: {list(LEVELS)}")
        engine = get_game(game)
        config = engine.configure(mode, seats)
    except (GameError, ValueError) as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    with progress_bar(console, disable=as_json) as progress:
        task = progress.add_task(f"arena {engine.id} {config.mode}/{config.seats}", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        result = round_robin(engine, config, names, matches, seed=seed, progress=advance)
    if as_json:
        typer.echo(json.dumps(result, indent=2))
        return
    _print(result)


def _print(result: dict[str, Any]) -> None:
    levels = result["levels"]
    table = Table(
        title=f"{result['game']} {result['config']['mode']}/{result['config']['seats']}: row level's score vs column",
        caption=f"{result['matches_per_pair']} matches per pair · Wilson 95% interval · wins count 1, ties ½",
    )
    table.add_column("level")
    for level in levels:
        table.add_column(level, justify="center")
    for row in levels:
        cells = []
        for col in levels:
            cell = result["table"][row].get(col)
            cells.append("—" if cell is None else f"{cell['rate']:.2f} [{cell['low']:.2f}, {cell['high']:.2f}]")
        table.add_row(row, *cells)
    Console().print(table)
