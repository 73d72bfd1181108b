"""Grimm World in the terminal, after `web/src/renderers/grimm-world.ts`: in the campaign the journey (the Region
Cards in play with Martha's location and the paths from it, the Encounter Bar, the card being resolved and its
choices, quests, goods, the Encounter Deck as far as she knows it); in a fight the battlefield grid (terrain per
space, walls, Martha as M, each enemy by its initial and HP) and the enemy cards; always Martha's sheet.
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
    obj,
    panel,
    signed,
    stats,
    table,
    text,
    texts,
)

TERRAIN_MARK = {"open": "·", "cover": "♣", "elevation": "▲", "water": "≈", "obstacle": "▪", "blocked": "✕"}
PROMPTS = {
    "damage": "Martha takes damage: choose {pa} card(s) to go under the Damage Card",
    "refresh": "Martha chooses the cards that come back from her discard pile",
    "attacked": "An enemy attacks: Martha may react",
    "retreat": "An enemy activates: Martha may retreat",
    "retreat_move": "Martha moves away (retreat)",
    "first_strike": "An enemy moved into range: Martha may strike first",
    "equip": "Martha may re-equip",
}


@functools.cache
def _names() -> dict[str, dict[Any, Any]]:
    campaign = content("grimm_world", "campaign")
    characters = content("grimm_world", "characters")
    return {
        "action": {c["key"]: c["name"] for c in content("grimm_world", "action_cards")["cards"]},
        "pages": {c["key"]: c["name"] for c in content("grimm_world", "lost_pages")["cards"]},
        "items": {c["key"]: c["name"] for c in content("grimm_world", "items")["items"]},
        "conflicts": {c["key"]: c["name"] for c in content("grimm_world", "conflicts")["conflicts"]},
        "chapters": {c["number"]: c["name"] for c in campaign["chapters"]},
        "regions": {r["key"]: r for r in campaign["regions"]},
        "landscapes": {x["letter"]: x["name"] for x in campaign["landscapes"]},
        "upgrades": {c["key"]: c["name"] for c in characters["upgrades"]},
        "skills": {c["key"]: c["name"] for c in characters["skills"]},
    }


def _name(kind: str, key: str) -> str:
    return str(_names()[kind].get(key, humanize(key) if kind == "items" else key))


def _conflict(key: str) -> str:
    return _name("conflicts", key)


def render(view: Obj) -> RenderableType:
    fight = view.get("fight") if isinstance(view.get("fight"), dict) else None
    journey = view.get("journey") if isinstance(view.get("journey"), dict) else None
    mode = text(view.get("mode"), "skirmish")
    chapter = num(view.get("chapter"))
    facts = [("Chapter", str(_names()["chapters"].get(chapter, f"Chapter {chapter}")))]
    if fight:
        facts += [("Conflict", _conflict(text(fight.get("conflict")))), ("Combat round", str(num(fight.get("round"))))]
    if journey:
        facts += [("Round", str(num(journey.get("round")))), ("Location", _location_name(view))]
    board = obj(view.get("board"))
    return table(
        header(f"Grimm World · {humanize(mode)}", facts),
        _status(view, fight, journey),
        _journey(view, journey) if journey else None,
        _battlefield(view, fight, board) if fight and board else None,
        _sheet(view, fight),
        _enemies(view, fight) if fight and board else None,
    )


def _location_name(view: Obj) -> str:
    here = obj(view.get("here"))
    return f"{text(here.get('name'))} ({num(here.get('number'))})" if text(here.get("name")) else "—"


def _status(view: Obj, fight: Obj | None, journey: Obj | None) -> Text:
    result = text((journey or fight or {}).get("result"))
    if result:
        return banner(f"{'The campaign' if journey else 'The fight'} ends in {result}.", "result")
    if fight:
        prompt = text(fight.get("prompt"))
        if prompt:
            return banner(PROMPTS.get(prompt, humanize(prompt)).format(pa=num(fight.get("pa"))) + ".")
        phase = text(fight.get("phase"))
        played = f": Martha has played {num(fight.get('played'))} action card(s)" if phase == "character" else ""
        return banner(f"{humanize(phase)} phase{played}.")
    if journey and text(journey.get("title")):
        return banner(f"Now: {text(journey.get('title'))}.")
    return banner("Martha to act." if arr(view.get("to_act")) else "Waiting.", "turn")


# ----------------------------------------------------------------------------- the journey


def _regions(journey: Obj) -> RenderableType | None:
    """Each Region Card in play with its locations: `@` marks Martha's, `→` the ones a path leads to from it."""
    regions = sorted(obj(journey.get("regions")).items())
    if not regions:
        return None
    at = num(journey.get("location"), -1)
    known = _names()["regions"]
    near: set[int] = set()
    for _, key in regions:
        for loc in known.get(key, {}).get("locations", []):
            if loc["number"] == at:
                near.update(loc.get("paths", []))
    grid = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    for digit, key in regions:
        grid.add_column(f"Region {digit}: {known.get(key, {}).get('name', key)}")
    columns: list[list[Text]] = []
    for _, key in regions:
        cells = []
        for loc in known.get(key, {}).get("locations", []):
            n = loc["number"]
            mark, style = ("@ ", "bold yellow") if n == at else ("→ ", "cyan") if n in near else ("  ", "")
            cells.append(Text(f"{mark}{loc['name']} ({n})", style=style))
        columns.append(cells)
    for row in range(max(len(c) for c in columns)):
        grid.add_row(*(c[row] if row < len(c) else Text("") for c in columns))
    return grid


def _journey(view: Obj, journey: Obj) -> RenderableType:
    here = obj(view.get("here"))
    deck = obj(view.get("deck"))
    menu = [text(obj(m).get("label")) for m in arr(journey.get("menu"))]
    special = arr(deck.get("special"))
    landscapes = _names()["landscapes"]
    ids = [f"{landscapes.get(i, i)} ({i})" for i in texts(here.get("ids"))]
    top = text(deck.get("top_back"))
    deck_line = f"{len(arr(deck.get('cards')))} cards" + (
        f", top card's back: {landscapes.get(top, top)}" if top else ""
    )
    if len(special) == 2:
        which = "Next Chapter" if special[0] == "NC" else "Time Passes"
        deck_line += f"; {which} is {num(special[1]) + 1} deep"
    story = obj(journey.get("story"))
    body = facts_table(
        [
            (
                "",
                stats(
                    [
                        ("Round", num(journey.get("round"))),
                        ("Fights won", num(journey.get("won"))),
                        ("Fights lost", num(journey.get("beaten"))),
                        ("Chapters completed", num(journey.get("completed"))),
                        ("Storage", _name("pages", text(journey.get("storage")))),
                    ]
                ),
            ),
            (
                "Location",
                f"{text(here.get('name'))} · location {num(here.get('number'))}"
                + (f" · {', '.join(ids)}" if ids else "")
                if text(here.get("name"))
                else None,
            ),
            ("Map", _regions(journey)),
            ("Encounter bar", names([f"{_name('pages', k)} ({k})" for k in texts(journey.get("bar"))], "empty")),
            (
                text(journey.get("title")) or "Choice",
                names([f"{n}. {label}" for n, label in enumerate(menu, 1)]) if menu else None,
            ),
            ("Quests", names([f"{_name('pages', k)} ({k})" for k in texts(journey.get("quests"))])),
            (
                "Goods",
                names(
                    [f"{humanize(text(g[1]))} ({text(g[0])})" for g in arr(journey.get("goods")) if len(arr(g)) == 2]
                ),
            ),
            ("Encounter deck", deck_line if deck else None),
            (
                "Story",
                names(
                    [
                        f"under chapter {ch}: {', '.join(_name('pages', k) for k in texts(cards))}"
                        for ch, cards in story.items()
                    ]
                )
                if story
                else None,
            ),
        ]
    )
    return panel(body, f"Journey · {text(here.get('name')) or 'on the road'}")


# ----------------------------------------------------------------------------- the fight


def _battlefield(view: Obj, fight: Obj, board: Obj) -> RenderableType:
    """The grid, one cell per space: terrain mark, `M` for Martha, an enemy's initial and HP (`B2`);
    `|` and `_` after a cell are walls on its right and bottom sides."""
    width, height = max(1, num(board.get("width"), 1)), max(1, num(board.get("height"), 1))
    terrain = texts(board.get("terrain"))
    walls: dict[int, set[str]] = {}
    for line in arr(board.get("lines")):
        a, b = num(arr(line)[0] if arr(line) else 0), num(arr(line)[1] if len(arr(line)) > 1 else 0)
        lo, hi = min(a, b), max(a, b)
        walls.setdefault(lo, set()).add("right" if hi - lo == 1 else "bottom")
    figures: dict[int, Text] = {}
    martha = obj(view.get("martha"))
    if "x" in martha and "y" in martha:
        figures[num(martha.get("y")) * width + num(martha.get("x"))] = Text("M", style="bold yellow")
    foes = [arr(f) for f in arr(fight.get("foes"))]
    for i, enemy in enumerate(obj(e) for e in arr(view.get("enemies"))):
        hp = num(foes[i][3]) if i < len(foes) and len(foes[i]) > 3 else 0
        if hp <= 0 or "x" not in enemy:
            continue
        figures[num(enemy.get("y")) * width + num(enemy.get("x"))] = Text(
            f"{text(enemy.get('name'), '?')[:1]}{hp}", style="bold red"
        )
    grid = Table(show_header=True, header_style="dim", box=None, padding=(0, 0), show_edge=False)
    grid.add_column("", style="dim", justify="right")
    for x in range(width):
        grid.add_column(f" {x}", justify="center", min_width=4)
    for y in range(height):
        cells: list[Text | str] = [f"{y} "]
        for x in range(width):
            cell = y * width + x
            kind = terrain[cell] if cell < len(terrain) else "open"
            body = figures.get(cell, Text(TERRAIN_MARK.get(kind, "?"), style="dim" if kind == "open" else "green"))
            out = Text(" ") + body
            out.append("|" if "right" in walls.get(cell, ()) else " ", style="magenta")
            out.append("_" if "bottom" in walls.get(cell, ()) else " ", style="magenta")
            cells.append(out)
        grid.add_row(*cells)
    legend = Text("  ".join(f"{mark} {kind}" for kind, mark in TERRAIN_MARK.items()), style="dim")
    legend.append("   M Martha, letter+HP an enemy, | _ walls", style="dim")
    return panel(table(grid, legend), f"Battlefield: {_conflict(text(fight.get('conflict')))}")


def _enemies(view: Obj, fight: Obj) -> RenderableType:
    foes = [arr(f) for f in arr(fight.get("foes"))]
    rows = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
    for column in ("enemy", "colour", "HP", "at", "init", "range", "atk", "dmg", "dodge", "armor", ""):
        rows.add_column(column)
    for i, enemy in enumerate(obj(e) for e in arr(view.get("enemies"))):
        foe = foes[i] if i < len(foes) else []
        card = obj(enemy.get("card"))
        hp = num(foe[3]) if len(foe) > 3 else 0
        maximum = num(card.get("constitution"), hp)
        rows.add_row(
            Text(text(enemy.get("name")), style="dim strike" if hp <= 0 else "bold"),
            text(foe[1]) if len(foe) > 1 else "",
            Text(f"{hp}/{maximum}", style="bold red" if 0 < hp < maximum else "dim" if hp <= 0 else "bold"),
            text(enemy.get("space")),
            *(str(num(card.get(k))) for k in ("initiative", "range", "attack", "damage", "dodge", "armor")),
            "spent" if len(foe) > 4 and foe[4] is True else "",
        )
    return panel(rows, "Enemies")


# ----------------------------------------------------------------------------- Martha


def _sheet(view: Obj, fight: Obj | None) -> RenderableType:
    sheet = obj(view.get("sheet"))
    martha = obj(view.get("martha"))
    hand = texts(sheet.get("hand"))
    discard = texts(fight.get("discard")) if fight else []

    def cards(keys: list[str]) -> Text:
        return names([f"{_name('action', k)} ({k})" for k in keys])

    playing = texts(fight.get("cur")) if fight else []
    weapons = []
    for w in arr(martha.get("weapons")):
        w = arr(w)
        if len(w) >= 3:
            rate = f" · rate {num(w[3])}" if len(w) > 3 and w[3] is not None else ""
            weapons.append(f"{_name('items', text(w[0]))} (range {num(w[1])}, dmg {num(w[2])}{rate})")
    body = facts_table(
        [
            (
                "",
                stats(
                    [
                        ("Cards left", len(hand) + len(discard) if fight else None),
                        ("Wounds", len(texts(sheet.get("damaged")))),
                        ("Thalers", num(sheet.get("thalers"))),
                        ("Alignment", signed(num(sheet.get("alignment")))),
                        ("Action deck", num(obj(view.get("decks")).get("action"))),
                        ("Last Fate", num(view.get("last_fate")) or None),
                    ]
                ),
            ),
            (
                "Stats",
                stats((humanize(k), v) for k, v in obj(martha.get("stats")).items()) if martha.get("stats") else None,
            ),
            ("Playing", cards(playing) if playing else None),
            ("Hand", cards(hand)),
            ("Discard", cards(discard) if fight else None),
            ("Damage", cards(texts(sheet.get("damaged")))),
            ("Weapons", names(weapons) if weapons else None),
            ("Equipped", names([_name("items", k) for k in texts(sheet.get("equipped"))])),
            (
                "Stored",
                names([_name("items", k) for k in texts(sheet.get("stored"))]) if texts(sheet.get("stored")) else None,
            ),
            (
                "Upgrades",
                names([_names()["upgrades"].get(k, _name("pages", k)) for k in texts(sheet.get("upgrades"))])
                if texts(sheet.get("upgrades"))
                else None,
            ),
            (
                "Skills",
                names([_names()["skills"].get(k, _name("pages", k)) for k in texts(sheet.get("skills"))])
                if texts(sheet.get("skills"))
                else None,
            ),
        ]
    )
    return panel(body, "Martha", active=bool(arr(view.get("to_act"))), you=view.get("seat") == 0)
