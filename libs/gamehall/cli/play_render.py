"""What `gamehall play` shows: pure functions from SDK models to rich renderables and lines.

No I/O here, so the terminal client's screens are unit-tested without a terminal.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Sequence
from typing import Any, Literal

from rich.console import RenderableType
from rich.json import JSON
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from gamehall_sdk import LegalAction, LegalActions, MatchUpdate, View
from gamehall_sdk.v1 import common_pb2, match_pb2

Choice = LegalAction | Literal["quit", "view"]
ENDED = (match_pb2.MATCH_STATUS_FINISHED, match_pb2.MATCH_STATUS_ABORTED)
SHORT_VALUE = 60
"""Characters of JSON a view field may take to be shown on one line."""


def status_name(status: int) -> str:
    """`MATCH_STATUS_RUNNING` -> `running`."""
    return str(match_pb2.MatchStatus.Name(status)).removeprefix("MATCH_STATUS_").lower()


def describe_seat(seat: match_pb2.Seat, mine: int | None = None) -> str:
    """`seat 1 (bot easy)`, `seat 0 (you)`, `seat 2 (alice)`, `seat 3 (open)`."""
    if mine is not None and seat.seat == mine:
        who = "you"
    elif seat.kind == match_pb2.SEAT_KIND_BOT:
        who = f"bot {seat.bot_difficulty}".strip()
    elif seat.username:
        who = seat.username
    else:
        who = str(match_pb2.SeatKind.Name(seat.kind)).removeprefix("SEAT_KIND_").lower() if seat.kind else "?"
    return f"seat {seat.seat} ({who})"


def render_status(match: match_pb2.Match, seat: int) -> str:
    """One line: game, match id, status, version and whose turn it is."""
    to_act = list(match.to_act)
    if match.status in ENDED:
        turn = "over"
    elif seat in to_act:
        turn = "your turn" + (
            f" (with seat {', '.join(str(s) for s in to_act if s != seat)})" if len(to_act) > 1 else ""
        )
    elif to_act:
        turn = "waiting for seat " + ", ".join(str(s) for s in to_act)
    else:
        turn = "waiting"
    return f"{match.game} · match {match.id} · {status_name(match.status)} · v{match.version} · {turn}"


def _compact_value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def table_renderer(game: str | None) -> Callable[[dict[str, Any]], RenderableType] | None:
    """The drawing of `game`'s table (one module per game, `render_<game>.py`), or None for a game without one."""
    module = RENDERERS.get(game or "")
    if module is None:
        return None
    render: Callable[[dict[str, Any]], RenderableType] = importlib.import_module(module).render
    return render


RENDERERS = {
    "grimslingers": "gamehall.cli.render_grimslingers",
    "grimmoir": "gamehall.cli.render_grimmoir",
    "tiny-epic-quest": "gamehall.cli.render_tiny_epic_quest",
    "grimm-world": "gamehall.cli.render_grimm_world",
}
"""Each hosted game's terminal drawing, after its web renderer (`web/src/renderers/<game>.ts`)."""


def render_view(view: View, *, compact: bool = False, game: str | None = None) -> RenderableType:
    """The seat's view in a panel: the game's table drawn with rich when `game` has a renderer, else one row
    per top-level field (short values inline, long ones as pretty JSON); with `compact`, plain `key=value` lines."""
    who = "spectator" if view.seat is None else f"seat {view.seat}"
    to_act = ", ".join(str(s) for s in view.to_act) or "nobody"
    title = f"{who} · v{view.version} · to act: {to_act}"
    if compact:
        lines = [f"{key}={_compact_value(value)}" for key, value in view.data.items()]
        return Text("\n".join([f"[{title}]", *lines]))
    draw = table_renderer(game)
    if draw is not None:
        return Panel(draw(view.data), title=title, title_align="left")
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    for key, value in view.data.items():
        text = json.dumps(value)
        grid.add_row(key, JSON(text, indent=None) if len(text) <= SHORT_VALUE else JSON(text))
    return Panel(grid, title=title, title_align="left", expand=False)


def action_text(action: LegalAction) -> str:
    """The action's JSON form in one line."""
    return json.dumps(action.action, separators=(", ", ": "))


def render_legal(legal: LegalActions) -> Table:
    """The legal actions numbered from 1, in the server's order (the number to type)."""
    table = Table(title=f"your moves (v{legal.version})", title_justify="left", show_edge=False)
    table.add_column("#", justify="right", style="bold")
    table.add_column("action")
    table.add_column("json", style="dim")
    for number, action in enumerate(legal, start=1):
        table.add_row(str(number), action.label or action.id, action_text(action))
    return table


def render_legal_lines(legal: LegalActions) -> list[str]:
    """The same numbered list as plain text lines: `1. play 3  {"kind": "play", "card": 3}`."""
    return [f"{n}. {a.label or a.id}  {action_text(a)}" for n, a in enumerate(legal, start=1)]


def parse_choice(line: str, legal: Sequence[LegalAction]) -> Choice | None:
    """The action numbered `line` (1-based), `quit` for q, `view` for v; None when not understood.

    An action id (e.g. `play(card=3)`) is accepted too.
    """
    answer = line.strip()
    if answer.lower() in ("q", "quit"):
        return "quit"
    if answer.lower() in ("v", "view"):
        return "view"
    if answer.isdigit():
        number = int(answer)
        return legal[number - 1] if 1 <= number <= len(legal) else None
    return next((a for a in legal if a.id == answer), None)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def render_outcome(match: match_pb2.Match, seat: int | None = None) -> str:
    """How the match ended: the reason, each seat's rank (and score), your result and the replay hint."""
    lines = []
    if match.status == match_pb2.MATCH_STATUS_ABORTED:
        lines.append("match aborted")
    elif not match.HasField("outcome"):
        lines.append(f"match not over ({status_name(match.status)})")
    outcome: common_pb2.Outcome = match.outcome
    if match.HasField("outcome"):
        lines.append(f"match over: {outcome.reason or 'finished'}")
        seats = {s.seat: s for s in match.seats}
        for n, rank in enumerate(outcome.ranks):
            who = describe_seat(seats[n], seat) if n in seats else f"seat {n}"
            score = f", score {outcome.scores[n]:g}" if n < len(outcome.scores) else ""
            lines.append(f"  {who}: {_ordinal(rank)}{score}")
        if seat is not None and seat < len(outcome.ranks):
            mine = outcome.ranks[seat]
            tied = sum(1 for r in outcome.ranks if r == mine) > 1
            if mine == 1:
                lines.append("you tied for first" if tied else "you won")
            else:
                lines.append(f"you finished {_ordinal(mine)} of {len(outcome.ranks)}")
    seat_arg = f" --seat {seat}" if seat is not None else ""
    lines.append(f"match id: {match.id}")
    lines.append(f"replay: gamehall replay {match.id}{seat_arg}")
    return "\n".join(lines)


def render_events(update: MatchUpdate) -> list[str]:
    """One short line per event of a watch update: `v3 · committed {"seat": 1}`."""
    out = []
    for event in update.events:
        data = f" {json.dumps(event.data, separators=(',', ':'))}" if event.data else ""
        out.append(f"v{update.version} · {event.kind}{data}")
    return out


# ----------------------------------------------------------------------------- the session
