"""Pieces the commands share: the progress bar and the common options."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

JsonFlag = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
DatabaseUrl = Annotated[
    str, typer.Option("--database-url", help="Store DSN (default: the embedded SQLite in the data dir).")
]


def progress_bar(console: Console, *, disable: bool = False, elapsed: bool = False) -> Progress:
    """A bar with a description, done/total and the time remaining (or elapsed, for open-ended work)."""
    clock = TimeElapsedColumn() if elapsed else TimeRemainingColumn()
    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), clock, console=console, disable=disable
    )
