"""Write web/src/renderers/content.generated.ts: the names and printed facts the renderers show for the ids a view
carries (card names, map cards, layout), taken from the games' content packs so the browser has no second copy to
keep by hand. `--check` exits 1 when the file is stale (the renderer test runs that check).

Run with the project's venv from the repository root: `python web/test/renderers/make_content.py [--check]`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
GAMES = ROOT / "libs" / "gamehall" / "games"
OUT = ROOT / "web" / "src" / "renderers" / "content.generated.ts"


def _load(game: str, name: str) -> Any:
    return json.loads((GAMES / game / "content" / f"{name}.json").read_text())


def grimmoir() -> dict[str, Any]:
    chars = _load("grimmoir", "characters")["characters"]
    def skills(c: dict[str, Any]) -> str:
        return " ".join(s["text"] for s in c.get("skills", []))

    return {
        "characters": {
            c["id"]: [c["name"], c["faction"], c["attack"], c["damage"], c["strength"], skills(c)] for c in chars
        }
    }


def grimm_world() -> dict[str, Any]:
    return {
        "action": {c["key"]: c["name"] for c in _load("grimm_world", "action_cards")["cards"]},
        "pages": {c["key"]: [c["name"], c["kind"]] for c in _load("grimm_world", "lost_pages")["cards"]},
        "items": {c["key"]: c["name"] for c in _load("grimm_world", "items")["items"]},
        "conflicts": {c["key"]: c["name"] for c in _load("grimm_world", "conflicts")["conflicts"]},
        "chapters": {str(c["number"]): c["name"] for c in _load("grimm_world", "campaign")["chapters"]},
        "upgrades": {c["key"]: c["name"] for c in _load("grimm_world", "characters")["upgrades"]},
        "regions": {
            r["key"]: [r["name"], [[loc["number"], loc["name"], loc.get("paths", [])] for loc in r["locations"]]]
            for r in _load("grimm_world", "campaign")["regions"]
        },
        "landscapes": {x["letter"]: x["name"] for x in _load("grimm_world", "campaign")["landscapes"]},
        "skills": {c["key"]: c["name"] for c in _load("grimm_world", "characters")["skills"]},
    }


def tiny_epic_quest() -> dict[str, Any]:
    cards = _load("tiny_epic_quest", "cards")
    layout = _load("tiny_epic_quest", "layout")

    def region(r: dict[str, str]) -> list[str]:
        return [r["type"], r.get("name", "")]

    return {
        "cards": [[[region(c[side]["left"]), region(c[side]["right"])] for side in ("bright", "gloom")] for c in cards],
        "slots": [[s["row"], s["col"]] for s in layout["slots"]],
        "quests": [[q["title"], q["type"]] for q in _load("tiny_epic_quest", "quests")],
        "items": [[i["name"], i["kind"]] for i in _load("tiny_epic_quest", "items")],
        "temples": [t["name"] for t in _load("tiny_epic_quest", "temples")],
        "tracks": {t["name"]: [t["bright"], t["gloom"]] for t in _load("tiny_epic_quest", "temples")},
        "colors": [p["color"] for p in _load("tiny_epic_quest", "players")],
    }


_TYPES = """/** Printed facts per game, by the ids its views carry. */
export interface Content {
  /** The Tall Tale map: nodes as [key, name, type] in book order, and the map's name. */
  grimslingers: {
    /** Card key (without an item's copy suffix) -> [name, kind, RN or null, EP cost, text]. */
    cards: Record<string, [string, string, number | null, number, string]>;
    creatures: Record<string, string>;
    /** Creature modifier key -> [name, text]. */
    modifiers: Record<string, [string, string]>;
    /** Archetype key -> [name, ability text]. */
    archetypes: Record<string, [string, string]>;
    nodes: [string, string, string][];
    map: string;
    chapters: Record<string, string>;
  };
  /** Character id -> [name, faction, attack, damage type, strength, skill texts]. */
  grimmoir: { characters: Record<string, [string, string, number, string, number, string]> };
  "grimm-world": {
    /** Action Card key -> name. */
    action: Record<string, string>;
    /** Lost Pages (Y-card) key -> [name, kind]. */
    pages: Record<string, [string, string]>;
    items: Record<string, string>;
    conflicts: Record<string, string>;
    chapters: Record<string, string>;
    /** Character upgrade (Y-card) key -> name. */
    upgrades: Record<string, string>;
    /** Region Card key -> [name, its locations as [number, name, numbers reached by a path]]. */
    regions: Record<string, [string, [number, string, number[]][]]>;
    /** Landscape letter (an encounter id of a location) -> its name. */
    landscapes: Record<string, string>;
    skills: Record<string, string>;
  };
  "tiny-epic-quest": {
    /** Map card -> side (0 bright, 1 gloom) -> [left, right] region as [type, name]. */
    cards: [string, string][][][];
    /** Layout slot -> [row, col] on the 5x5 kingdom grid. */
    slots: [number, number][];
    /** Quest index -> [title, type]. */
    quests: [string, string][];
    /** Item index -> [name, kind]. */
    items: [string, string][];
    temples: string[];
    /** Temple name -> side (0 bright, 1 gloom) -> its 4 track spaces ("torch", "scroll2", ...). */
    tracks: Record<string, string[][]>;
    /** Player card index -> colour. */
    colors: string[];
  };
}"""


def _gs_card(c: dict[str, Any]) -> list[Any]:
    name = c["name"].title() if c["kind"] == "element" else c["name"]
    return [name, c["kind"], c.get("rn"), c.get("cost", 0), c.get("text", "")]


def grimslingers() -> dict[str, Any]:
    tale = _load("grimslingers", "tall_tale")
    creatures = _load("grimslingers", "creatures")
    cards = [
        *_load("grimslingers", "elements")["cards"],
        *_load("grimslingers", "signatures")["cards"],
        *_load("grimslingers", "items")["cards"],
        *creatures["skills"],
        *_load("grimslingers", "tale_items")["cards"],
    ]
    return {
        "cards": {c["key"]: _gs_card(c) for c in cards},
        "creatures": {c["key"]: c["name"] for c in [*creatures["creatures"], creatures["witch_king"]]},
        "modifiers": {m["key"]: [m["name"], m["text"]] for m in creatures["modifiers"]},
        "archetypes": {a["key"]: [a["name"], a["text"]] for a in _load("grimslingers", "archetypes")["archetypes"]},
        "nodes": [[n["key"], n["name"], n["type"]] for n in tale["map"]["nodes"]],
        "map": tale["map"]["name"],
        "chapters": {c["key"]: c["name"] for c in tale["chapters"]},
    }


def render() -> str:
    content = {
        "grimslingers": grimslingers(),
        "grimmoir": grimmoir(),
        "grimm-world": grimm_world(),
        "tiny-epic-quest": tiny_epic_quest(),
    }
    body = json.dumps(content, separators=(",", ":"), sort_keys=True)
    return (
        "// Generated by web/test/renderers/make_content.py from libs/gamehall/games/*/content: do not edit.\n"
        f"{_TYPES}\n"
        f"export const CONTENT: Content = {body};\n"
    )


def main() -> int:
    text = render()
    if "--check" in sys.argv:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT} is stale: run {Path(__file__).relative_to(ROOT)}", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
