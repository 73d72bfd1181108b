"""Integer lookup tables compiled once from the content pack, so the rules run on ints and tuples."""

from __future__ import annotations

from gamehall.games.tiny_epic_quest.content import PACK
from gamehall.games.tiny_epic_quest.content.schema import Pack

# Region types.
CASTLE, TEMPLE, OBELISK, GROTTO, PORTAL = range(5)
REGION_CODES = {"castle": CASTLE, "temple": TEMPLE, "obelisk": OBELISK, "grotto": GROTTO, "portal": PORTAL}
REGION_NAMES = ("castle", "temple", "obelisk", "grotto", "portal")

# Die faces (symbol kinds) and temple symbols.
DAMAGE, POWER, MAGIC, TORCH, SCROLL, ATTACK = range(6)
FACE_CODES = {"damage": DAMAGE, "power": POWER, "magic": MAGIC, "torch": TORCH, "scroll": SCROLL, "attack": ATTACK}
FACE_NAMES = ("damage", "power", "magic", "torch", "scroll", "attack")

# Movement cards.
HORSE, RAFT, GRYPHON, SHIP, FOOT = range(5)
METHODS = ("horse", "raft", "gryphon", "ship", "foot")
METHOD_CODES = {name: i for i, name in enumerate(METHODS)}

BRIGHT, GLOOM = 0, 1
LAST_SPACE = 4
"""Temple progress: 0 is the entrance, 1..4 the four track spaces (AMB-8); 4 is the last space."""


def _compile(pack: Pack) -> dict[str, object]:
    temples = {t.name: i for i, t in enumerate(pack.temples)}
    grottos = {g.name: i for i, g in enumerate(pack.grottos)}
    colors = [p.color for p in pack.players]
    symbols: list[str] = []
    for s in pack.table.spell_library:
        if s not in symbols:
            symbols.append(s)

    def region(r: object) -> tuple[int, int]:
        kind = REGION_CODES[r.type]  # type: ignore[attr-defined]
        name = r.name  # type: ignore[attr-defined]
        arg = -1
        if kind == TEMPLE:
            arg = temples[name]
        elif kind == GROTTO:
            arg = grottos[name]
        elif kind == OBELISK:
            arg = symbols.index(name)
        elif kind == CASTLE:
            arg = colors.index(name)
        return kind, arg

    regions = tuple(
        tuple((region(getattr(c, side).left), region(getattr(c, side).right)) for c in pack.cards)
        for side in ("bright", "gloom")
    )

    def track(spaces: list[str]) -> tuple[tuple[int, int], ...]:
        out = []
        for sp in spaces:
            sym = TORCH if sp.startswith("torch") else SCROLL
            out.append((sym, 2 if sp.endswith("2") else 1))
        return tuple(out)

    tracks = tuple(tuple(track(getattr(t, side)) for t in pack.temples) for side in ("bright", "gloom"))
    items = [i.name for i in pack.items]
    legend = tuple(
        tuple((temples[p.sword[0]], temples[p.sword[1]]) if k == 0 else
              (temples[p.shield[0]], temples[p.shield[1]]) if k == 1 else
              (temples[p.staff[0]], temples[p.staff[1]]) for k in range(3))
        for p in pack.players
    )
    return {
        "temples": temples, "grottos": grottos, "colors": colors, "symbols": symbols, "regions": regions,
        "tracks": tracks, "items": items, "legend": legend,
    }


_C = _compile(PACK)
TEMPLE_NAMES: tuple[str, ...] = tuple(t.name for t in PACK.temples)
COLORS: tuple[str, ...] = tuple(_C["colors"])  # type: ignore[arg-type]
SPELL_SYMBOLS: tuple[str, ...] = tuple(_C["symbols"])  # type: ignore[arg-type]
REGIONS: tuple[tuple[tuple[tuple[int, int], tuple[int, int]], ...], ...] = _C["regions"]  # type: ignore[assignment]
"""REGIONS[side][card][left/right] = (region type, arg): temple index, spell symbol, grotto index or colour."""
TRACKS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = _C["tracks"]  # type: ignore[assignment]
"""TRACKS[side][temple][i] = (TORCH or SCROLL, 1 or 2): what stepping onto space i + 1 needs."""
GROTTO_EFFECTS: tuple[str, ...] = tuple(g.effect for g in PACK.grottos)
ITEM_NAMES: tuple[str, ...] = tuple(_C["items"])  # type: ignore[arg-type]
ITEM = {name: i for i, name in enumerate(ITEM_NAMES)}
SWORD, SHIELD, STAFF = ITEM["Sword"], ITEM["Shield"], ITEM["Staff"]
LEGENDARY_ITEMS = (SWORD, SHIELD, STAFF)
BOW, HELM, CLOAK, RING, HAMMER = ITEM["Bow"], ITEM["Helm"], ITEM["Cloak"], ITEM["Ring"], ITEM["Hammer"]
LANTERN, TOME, AMULET, WAND, CHALICE = ITEM["Lantern"], ITEM["Tome"], ITEM["Amulet"], ITEM["Wand"], ITEM["Chalice"]
HORN, BOOTS = ITEM["Horn"], ITEM["Boots"]
LEGEND: tuple[tuple[tuple[int, int], ...], ...] = _C["legend"]  # type: ignore[assignment]
"""LEGEND[colour][sword/shield/staff] = (first temple, second temple)."""

CASTLE_CARDS: tuple[int, ...] = tuple(
    sorted((i for i, c in enumerate(PACK.cards) if c.castle), key=lambda i: COLORS.index(PACK.cards[i].castle or ""))
)
REGULAR_CARDS: tuple[int, ...] = tuple(i for i, c in enumerate(PACK.cards) if not c.castle)

QUESTS = PACK.quests
N_QUESTS = len(QUESTS)
QUEST_IS_TREASURE: tuple[bool, ...] = tuple(q.type == "treasure" for q in QUESTS)
QUEST_TEMPLE: tuple[int, ...] = tuple(TEMPLE_NAMES.index(q.temple) if q.temple else -1 for q in QUESTS)
QUEST_ITEM: tuple[int, ...] = tuple(ITEM[q.item] if q.item else -1 for q in QUESTS)
QUEST_METHOD: tuple[int, ...] = tuple(METHOD_CODES[q.method] if q.method else -1 for q in QUESTS)
QUEST_REGION: tuple[int, ...] = tuple(REGION_CODES[q.region] if q.region else -1 for q in QUESTS)

DIE_FACES: tuple[int, ...] = tuple(FACE_CODES[f] for f in PACK.table.die_faces)
N_DICE = 5
MAGIC_MULTI: tuple[int, ...] = tuple(PACK.table.magic_multi.levels)
MAGIC_SOLO: tuple[int, ...] = tuple(PACK.table.magic_solo.levels)
LIBRARY: tuple[int, ...] = tuple(SPELL_SYMBOLS.index(s) for s in PACK.table.spell_library)
"""LIBRARY[level - 1] = the spell symbol of that book."""
MAX_SPELL = len(LIBRARY)
SCORE_SPELLS = tuple(PACK.table.score_spells)
SCORE_QUESTS = tuple(PACK.table.score_quests)
SCORE_GOBLINS = tuple(PACK.table.score_goblins)
SCORE_LEGENDARY = PACK.table.score_legendary
DIFFICULTY_GOALS = {d.id: d.goal for d in PACK.table.difficulties}
GOBLIN_TOKENS = PACK.table.goblin_tokens
GOBLIN_HITS = PACK.table.goblin_hits
PORTALS_ON_MAP = sum(1 for r in REGIONS[BRIGHT] for t, _ in r if t == PORTAL)
