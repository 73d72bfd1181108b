"""GrimmoiR in the terminal, after `web/src/renderers/grimmoir.ts`: the battlefield of two 2x3 formations facing
each other (front rows toward the middle, the viewer's side at the bottom), every character with its strength
left, counters, book and exhaustion; each seat's factions, coins, unplaced characters and fallen; phase, round
and whose turn.
"""

from __future__ import annotations

import functools
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from gamehall.cli.render_common import (
    Obj,
    arr,
    banner,
    content,
    facts_table,
    header,
    humanize,
    names,
    num,
    panel,
    stats,
    table,
    text,
    texts,
)

COLUMNS = ("left", "centre", "right")


@functools.cache
def _characters() -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in content("grimmoir", "characters")["characters"]}


def _name(character: str) -> str:
    return str(_characters().get(character, {}).get("name", humanize(character)))


def player(seat: int) -> str:
    return f"Player {seat + 1}"


def render(view: Obj) -> RenderableType:
    me = view.get("seat") if isinstance(view.get("seat"), int) else None
    phase = text(view.get("phase"))
    to_act = [num(s) for s in arr(view.get("to_act"))]
    facts = [
        ("Phase", humanize(phase)),
        ("Round", str(num(view.get("round")))),
        ("Initiative", player(num(view.get("initiative")))),
    ]
    if phase == "display" and view.get("display_position") is not None:
        facts.append(("Placing", f"position {view.get('display_position')}"))
    winner = num(view.get("winner"), -1)
    if winner >= 0 or phase == "over":
        lead = "Draw" if winner == 2 else f"{player(winner)} wins" if winner >= 0 else "Game over"
        reason = text(view.get("end_reason"))
        status = banner(f"{lead}{f' ({reason})' if reason else ''}.", "result")
    elif view.get("pending_shift") is not None:
        status = banner(f"{player(num(view.get('pending_shift')))} chooses which column shifts into the empty centre.")
    else:
        who = " and ".join(player(s) for s in to_act)
        status = banner(f"{who} to act ({humanize(phase)})." if to_act else humanize(phase), "turn")
    near = me if me in (0, 1) else 0
    far = 1 - near
    return table(
        header("GrimmoiR · Duel", facts),
        status,
        _seat(view, far, me, to_act),
        _battlefield(view, far, near),
        _seat(view, near, me, to_act),
    )


def _unit(unit: Obj) -> Text:
    """`Brute ♥3/8 ⚔4 melee +1 book open exh`: name, strength left, attack, counters."""
    character = text(unit.get("character"))
    card = _characters().get(character, {})
    strength = num(card.get("strength"))
    wounds = num(unit.get("wounds"))
    out = Text(_name(character), style="dim" if unit.get("exhausted") else "bold")
    out.append(f"\n♥{max(0, strength - wounds)}/{strength}" if strength else f"\nwounds {wounds}", style="red")
    if card:
        out.append(f" ⚔{card.get('attack')} {card.get('damage')}", style="cyan")
    marks = []
    if num(unit.get("strengthening")):
        marks.append(f"+{num(unit.get('strengthening'))}")
    if num(unit.get("weakening")):
        marks.append(f"−{num(unit.get('weakening'))}")
    if unit.get("book"):
        marks.append(f"book {unit.get('book')}")
    if num(unit.get("pens")):
        marks.append(f"pens {num(unit.get('pens'))}")
    if unit.get("exhausted"):
        marks.append("exhausted")
    if marks:
        out.append("\n" + " ".join(marks), style="yellow")
    return out


def _battlefield(view: Obj, far: int, near: int) -> RenderableType:
    """Far side: back row on top, front row next to the middle; near side: front row at the middle, back below."""
    board = arr(view.get("board"))
    grid = Table(show_header=True, header_style="dim", show_lines=True, padding=(0, 1), expand=False)
    grid.add_column("", style="dim", no_wrap=True)
    for column in COLUMNS:
        grid.add_column(column, min_width=18)
    for seat, rows in ((far, (1, 0)), (near, (0, 1))):
        slots = arr(board[seat]) if seat < len(board) else []
        for row in rows:
            cells: list[Text] = []
            for col in range(3):
                unit = slots[row * 3 + col] if row * 3 + col < len(slots) else None
                cells.append(_unit(unit) if isinstance(unit, dict) else Text("—", style="dim"))
            grid.add_row(f"{player(seat)}\n{'front' if row == 0 else 'back'}", *cells)
    return panel(grid, "Battlefield")


def _seat(view: Obj, seat: int, me: int | None, to_act: list[int]) -> RenderableType:
    def at(key: str) -> Any:
        values = arr(view.get(key))
        return values[seat] if seat < len(values) else None

    factions = [f for f in (text(at("main_factions")), text(at("supporting_factions"))) if f]
    hand = at("hands")
    mine = me == seat
    face_down = at("face_down_committed") is True
    if isinstance(hand, list) and hand:
        unplaced: RenderableType = names([_name(c) for c in texts(hand)])
    else:
        count = num(at("hand_sizes"))
        unplaced = Text(f"{count} face down" if count else "none", style="dim")
    faces = view.get("my_face_down")
    body = facts_table(
        [
            (
                "",
                stats(
                    [
                        ("Main", humanize(factions[0]) if factions else "no faction yet"),
                        ("Support", humanize(factions[1]) if len(factions) > 1 else None),
                        ("Coins", num(at("coins"))),
                        ("Team", num(at("team_sizes"))),
                        ("Passed", "yes" if at("passed") is True else None),
                    ]
                ),
            ),
            ("Unplaced", unplaced),
            (
                "Face-down",
                (
                    names([_name(c) for c in texts(faces)])
                    if mine and isinstance(faces, list)
                    else Text("arrangement committed, face down")
                )
                if face_down
                else None,
            ),
            ("Fallen", names([_name(c) for c in texts(at("fallen"))])),
        ]
    )
    return panel(body, player(seat), active=seat in to_act, you=mine)
