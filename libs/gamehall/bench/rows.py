"""One benchmark row and the table that prints them."""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console
from rich.table import Table


@dataclass
class Row:
    name: str
    value: float
    unit: str
    baseline: str = ""
    """Name of the baseline row this one is compared to ('' when it is not compared)."""
    is_baseline: bool = False
    goal: str = ""
    extra: str = ""


def of_readings(which: str, values: list[str]) -> str:
    """How a row came from several readings: "the best of 3 readings (604 / 601 / 523)", or "one reading"."""
    return f"{which} of {len(values)} readings ({' / '.join(values)})" if len(values) > 1 else "one reading"


def print_rows(rows: list[Row], console: Console | None = None) -> None:
    console = console or Console(width=None if Console().is_terminal else 180)
    by_name = {r.name: r for r in rows}
    table = Table(title="gamehall benchmarks (ratios are to baselines measured in this run)")
    for column, justify in (
        ("row", "left"),
        ("value", "right"),
        ("unit", "left"),
        ("× baseline", "right"),
        ("goal", "left"),
        ("notes", "left"),
    ):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for r in rows:
        base = by_name.get(r.baseline)
        if r.is_baseline:
            ratio = "baseline"
        elif base and base.value and _is_time(r.unit) and not _is_time(base.unit):
            # A duration against a rate: how many baseline units of work fit in it (machine-neutral cost).
            ratio = f"{_seconds(r) * base.value:,.0f} {base.unit.split('/')[0]} of {r.baseline}"
        elif base and base.value:
            ratio = f"{r.value / base.value:.3g} × {r.baseline}"
        else:
            ratio = "-"
        table.add_row(r.name, f"{r.value:,.1f}", r.unit, ratio, r.goal, r.extra)
    console.print(table)


def _is_time(unit: str) -> bool:
    return unit.split()[0] in ("ms", "µs", "s")


def _seconds(row: Row) -> float:
    scale = {"ms": 1e-3, "µs": 1e-6, "s": 1.0}[row.unit.split()[0]]
    return row.value * scale
