"""Tiny Epic Quest in the terminal, after `web/src/renderers/tiny-epic-quest.ts`: the kingdom of Map Cards on its
5x5 grid (each card's two regions, heroes by colour initial and number, goblins on portals, temple progress), the
quest row, the movement cards and dice, and per player health, power, spell level, goblins, quests, items,
legendary progress and victory points.
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
    meter,
    names,
    num,
    nums,
    panel,
    stats,
    table,
    text,
)

PHASES = ("Day", "Night", "Game over")
METHODS = ("Horse", "Raft", "Gryphon", "Ship", "Foot")
FACES = ("damage", "power", "magic", "torch", "scroll", "attack")
STATUS = ("adventuring", "rested", "exhausted")
LEGENDARY = ("Sword", "Shield", "Staff")
PENDING = ("gain", "grotto", "quest", "equip", "learn", "defend", "provoke")
REGION_MARK = {"castle": "♜", "temple": "△", "obelisk": "▲", "grotto": "◒", "portal": "◎"}
HEROES = 3
COLOUR_STYLE = {"red": "red", "blue": "blue", "green": "green", "yellow": "yellow", "purple": "magenta"}


@functools.cache
def _content() -> dict[str, Any]:
    return {
        "cards": content("tiny_epic_quest", "cards"),
        "slots": [(s["row"], s["col"]) for s in content("tiny_epic_quest", "layout")["slots"]],
        "quests": [(q["title"], q["type"]) for q in content("tiny_epic_quest", "quests")],
        "items": [i["name"] for i in content("tiny_epic_quest", "items")],
        "colors": [p["color"] for p in content("tiny_epic_quest", "players")],
    }


def _colour(view: Obj, seat: int) -> str:
    colours = _content()["colors"]
    index = num(arr(view.get("color"))[seat], seat) if seat < len(arr(view.get("color"))) else seat
    return str(colours[index]) if 0 <= index < len(colours) else "grey"


def player(view: Obj, seat: int) -> str:
    return f"{humanize(_colour(view, seat))} (player {seat + 1})"


def _quest(q: int) -> str:
    quests = _content()["quests"]
    return f"{quests[q][0]} ({quests[q][1]})" if 0 <= q < len(quests) else f"Quest {q}"


def _item(i: int) -> str:
    items = _content()["items"]
    return str(items[i]) if 0 <= i < len(items) else f"Item {i}"


def render(view: Obj) -> RenderableType:
    seats = num(view.get("seats"), 1)
    phase = num(view.get("phase"))
    me = view.get("seat") if isinstance(view.get("seat"), int) else None
    to_act = nums(view.get("to_act"))
    mode = text(view.get("mode"), "standard")
    solo = mode == "solo"
    facts = [
        ("Round", f"{num(view.get('round'))} of 5"),
        ("Phase", PHASES[phase] if 0 <= phase < 3 else str(phase)),
        ("Side", "Gloom" if num(view.get("side")) == 1 else "Bright"),
    ]
    if solo:
        facts.append(("Goal", f"{num(view.get('goal'))} VP ({humanize(text(view.get('difficulty')))})"))
    return table(
        header(f"Tiny Epic Quest · {humanize(mode)}", facts),
        _status(view, phase, to_act, seats, solo),
        panel(_kingdom(view, seats), "The kingdom"),
        _middle(view, phase, solo),
        *(_player(view, p, me, to_act, phase) for p in range(seats)),
    )


def _status(view: Obj, phase: int, to_act: list[int], seats: int, solo: bool) -> Text:
    vps = nums(view.get("victory_points"))
    if phase == 2:
        if solo:
            mine = vps[0] if vps else 0
            won = "won" if mine >= num(view.get("goal")) else "lost"
            return banner(f"Game over: {mine} VP against a goal of {num(view.get('goal'))}, {won}.", "result")
        best = max(vps) if vps else 0
        leaders = [player(view, p) for p, x in enumerate(vps) if x == best]
        return banner(f"Game over after five rounds. Most VP ({best}): {', '.join(leaders)}.", "result")
    pending = [nums(p) for p in arr(view.get("pending"))]
    if pending and len(pending[0]) >= 2:
        seat, kind = pending[0][0], pending[0][1]
        return banner(f"{player(view, seat)} must decide: {PENDING[kind] if 0 <= kind < len(PENDING) else 'a choice'}.")
    if not to_act:
        return banner("Waiting.", "note")
    first = f", first player {player(view, num(view.get('first')))}" if seats > 1 else ""
    who = ", ".join(player(view, p) for p in to_act)
    return banner(f"{who} to act ({PHASES[phase] if 0 <= phase < 3 else ''}{first}).")


def _kingdom(view: Obj, seats: int) -> RenderableType:
    """The 5x5 grid; each Map Card cell lists its two regions: mark, name, goblin (G, G! aggressive, with damage),
    heroes as colour initial + hero number (a temple's heroes with their track space, e.g. R2@3)."""
    side = "gloom" if num(view.get("side")) == 1 else "bright"
    cards = _content()["cards"]
    slots = _content()["slots"]
    goblin, gdmg = nums(view.get("goblin")), nums(view.get("gdmg"))
    hslot, hreg, hprog = nums(view.get("hslot")), nums(view.get("hreg")), nums(view.get("hprog"))
    cells: dict[tuple[int, int], Text] = {}
    for slot, index in enumerate(nums(view.get("cards"))):
        if not (0 <= index < len(cards)) or slot >= len(slots):
            continue
        out = Text()
        for reg, where in enumerate(("left", "right")):
            region = cards[index][side][where]
            kind, name = region["type"], region.get("name", "")
            label = {
                "castle": f"{humanize(name)} castle",
                "portal": "Portal",
                "obelisk": f"{humanize(name)} obelisk",
                "temple": f"{name} temple",
            }.get(kind, name)
            if reg:
                out.append("\n")
            out.append(
                f"{REGION_MARK.get(kind, '·')} {label}", style=COLOUR_STYLE.get(name, "") if kind == "castle" else ""
            )
            if kind == "portal" and slot < len(goblin) and goblin[slot]:
                damage = f"-{gdmg[slot]}" if slot < len(gdmg) and gdmg[slot] else ""
                out.append(f" {'G!' if goblin[slot] == 2 else 'G'}{damage}", style="bold red")
            for hero in range(min(seats * HEROES, len(hslot))):
                if hslot[hero] == slot and hero < len(hreg) and hreg[hero] == reg:
                    colour = _colour(view, hero // HEROES)
                    token = f" {colour[:1].upper()}{hero % HEROES + 1}"
                    if kind == "temple" and hero < len(hprog) and hprog[hero]:
                        token += f"@{hprog[hero]}"
                    out.append(token, style=f"bold {COLOUR_STYLE.get(colour, '')}".strip())
        cells[slots[slot]] = out
    grid = Table(show_header=False, show_lines=True, padding=(0, 1), expand=False)
    for _ in range(5):
        grid.add_column(min_width=14, max_width=22)
    for row in range(5):
        grid.add_row(*(cells.get((row, col), Text("")) for col in range(5)))
    legend = Text(
        "  ".join(f"{m} {k}" for k, m in REGION_MARK.items())
        + "   G goblin (G! aggressive), R1 = red hero 1, @n its temple space",
        style="dim",
    )
    return table(grid, legend)


def _middle(view: Obj, phase: int, solo: bool) -> RenderableType:
    used = arr(view.get("used"))
    offered = set(nums(view.get("options")))
    moves = []
    for i, method in enumerate(METHODS):
        if num(view.get("card"), -1) == i and phase == 0:
            state = "this turn"
        elif i < len(used) and used[i] is True:
            state = "used"
        elif solo and offered and i not in offered:
            state = "not offered"
        else:
            state = "available"
        moves.append(f"{method} ({state})")
    roll = nums(view.get("roll"))
    dice = names([humanize(FACES[f]) if 0 <= f < len(FACES) else str(f) for f in roll], "not rolled")
    body = facts_table(
        [
            ("Quest row", names([_quest(q) for q in nums(view.get("row"))])),
            (
                "",
                stats(
                    [
                        ("Quest deck", num(view.get("quest_deck"))),
                        ("Magic track", num(view.get("magic"))),
                        ("Goblin supply", num(view.get("supply"))),
                    ]
                ),
            ),
            ("Movement", names(moves)),
            ("Adventure dice", dice if phase == 1 else None),
        ]
    )
    return panel(body, "Quests, movement and dice")


def _player(view: Obj, p: int, me: Any, to_act: list[int], phase: int) -> RenderableType:
    def at(key: str) -> Any:
        values = arr(view.get(key))
        return values[p] if p < len(values) else None

    hitems = [nums(x) for x in arr(view.get("hitems"))]
    legend = nums(at("legend"))
    pool = nums(at("pool"))
    status = num(at("status"))
    items = [
        f"hero {k + 1}: {', '.join(_item(i) for i in hitems[p * HEROES + k])}"
        for k in range(HEROES)
        if p * HEROES + k < len(hitems) and hitems[p * HEROES + k]
    ]
    if nums(at("kept")):
        items.append(f"kept: {', '.join(_item(i) for i in nums(at('kept')))}")
    body = facts_table(
        [
            (
                "",
                Text.assemble(
                    meter("Health", num(at("health")), num(at("max_health"), 6)),
                    "  ",
                    meter("Power", num(at("power")), num(at("max_power"), 3), style="blue"),
                ),
            ),
            (
                "",
                stats(
                    [
                        ("VP", num(at("victory_points"))),
                        ("Spell", num(at("spell"))),
                        ("Goblins", num(at("goblins"))),
                        ("Status", STATUS[status] if phase == 1 and 0 <= status < 3 else None),
                        (
                            "Pool",
                            f"torch {pool[0]} · scroll {pool[1]} · attack {pool[2]}"
                            if phase == 1 and len(pool) == 3
                            else None,
                        ),
                    ]
                ),
            ),
            ("Quests done", names([_quest(q) for q in nums(at("quests_done"))])),
            ("Items", names(items)),
            ("Legendary", names([f"{name} {_progress(legend, k)}" for k, name in enumerate(LEGENDARY)])),
        ]
    )
    return panel(body, player(view, p), active=p in to_act, you=me == p)


def _progress(legend: list[int], k: int) -> str:
    """A Legendary Item's progress: done, half-way or not begun."""
    step = legend[k] if k < len(legend) else 0
    return "✓" if step == 2 else "½" if step else "–"
