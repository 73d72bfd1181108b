"""What the per-game terminal renderers share: safe readers of a view's JSON, the printed names of the ids a
view carries (from the games' content packs, as `web/test/renderers/make_content.py` gives the web pages), and
small rich building blocks (a header line, a status banner, meters, card lists).

A view is a JSON-safe dict built by the engine; a renderer reads it defensively (a missing or odd field draws
as empty, never raises), so a client that is older or newer than the server still draws a table.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Sequence
from importlib import resources
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

Obj = dict[str, Any]


def obj(value: Any) -> Obj:
    return value if isinstance(value, dict) else {}


def arr(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def num(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def nums(value: Any) -> list[int]:
    return [num(v) for v in arr(value)]


def text(value: Any, default: str = "") -> str:
    return value if isinstance(value, str) else default


def texts(value: Any) -> list[str]:
    return [v for v in arr(value) if isinstance(v, str)]


def humanize(key: str) -> str:
    """`first_strike` -> `First strike`, `versus-1v1` -> `Versus 1v1`."""
    words = key.replace("_", " ").replace("-", " ").strip()
    return words[:1].upper() + words[1:]


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


# ----------------------------------------------------------------------------- content packs


@functools.cache
def content(package: str, name: str) -> Any:
    """A game's content file, e.g. `content("grimm_world", "items")` (read once per process)."""
    data = resources.files(f"gamehall.games.{package}.content").joinpath(f"{name}.json").read_text()
    return json.loads(data)


# ----------------------------------------------------------------------------- rich blocks


def header(title: str, facts: Sequence[tuple[str, str]]) -> Text:
    """`Grimm World · Skirmish   Chapter: 1 · Combat round: 3`, bold title, facts dim-labelled."""
    out = Text(title, style="bold")
    for n, (label, value) in enumerate(facts):
        out.append("   " if n == 0 else " · ")
        out.append(f"{label}: ", style="dim")
        out.append(value)
    return out


def banner(message: str, kind: str = "turn") -> Text:
    """The status line under the header: whose turn, a prompt, or the result (green)."""
    style = {"result": "bold green", "turn": "bold yellow", "note": "dim"}.get(kind, "bold")
    return Text(f"» {message}", style=style)


def meter(label: str, value: int, maximum: int, style: str = "red", width: int = 10) -> Text:
    """`HP ██████░░░░ 6/10`."""
    full = 0 if maximum <= 0 else max(0, min(width, round(width * value / maximum)))
    out = Text(f"{label} ")
    out.append("█" * full, style=style)
    out.append("░" * (width - full), style="dim")
    out.append(f" {value}/{maximum}")
    return out


def stats(pairs: Iterable[tuple[str, Any]]) -> Text:
    """`Thalers 8 · Wounds 1 · Alignment +1` (pairs whose value is None are left out)."""
    out = Text()
    for label, value in pairs:
        if value is None:
            continue
        if out.plain:
            out.append(" · ", style="dim")
        out.append(f"{label} ", style="dim")
        out.append(str(value), style="bold")
    return out


def names(items: Sequence[str], empty: str = "none") -> Text:
    """A comma-separated list of names, `none` (dim) when empty."""
    return Text(", ".join(items)) if items else Text(empty, style="dim")


def facts_table(rows: Iterable[tuple[str, RenderableType | str | None]]) -> Table:
    """Label/value lines (rows whose value is None are left out)."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    for label, value in rows:
        if value is not None:
            grid.add_row(label, value)
    return grid


def panel(body: RenderableType, title: str, *, active: bool = False, you: bool = False, out: bool = False) -> Panel:
    """A seat's or a zone's box: yellow border for the seat to act, `(you)` in the viewer's own title."""
    label = f"{title} (you)" if you else title
    if out:
        label += " · out"
    return Panel(body, title=label, title_align="left", border_style="yellow" if active else "dim" if out else "blue")


def table(*parts: RenderableType | None) -> Group:
    """The whole drawing, top to bottom (None parts left out)."""
    return Group(*(p for p in parts if p is not None))
