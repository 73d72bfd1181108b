"""The loaded content pack as fast lookup tables: every physical card gets an int id.

Cards live in the state as ints (compact, quick to copy); `KEYS[id]` is the stable string key
views and actions use. An item printed in several copies gets one id per copy ("snake_oil.2").
Content is read once at import (engines do no I/O at apply time).
"""

from __future__ import annotations

from gamehall.engine.content import load_pack
from gamehall.games.grimslingers.content.schema import (
    ArchetypeDef,
    ArchetypePack,
    CardDef,
    CardPack,
    CreatureDef,
    CreaturePack,
    Effect,
    ModifierDef,
)

_PKG = "gamehall.games.grimslingers.content"

ELEMENT_PACK: CardPack = load_pack(_PKG, "elements.json", CardPack)
SIGNATURE_PACK: CardPack = load_pack(_PKG, "signatures.json", CardPack)
ITEM_PACK: CardPack = load_pack(_PKG, "items.json", CardPack)
ARCHETYPE_PACK: ArchetypePack = load_pack(_PKG, "archetypes.json", ArchetypePack)
CREATURE_PACK: CreaturePack = load_pack(_PKG, "creatures.json", CreaturePack)
READINGS = {r.key: r for r in CREATURE_PACK.readings}
"""Labelled choices of the creature modes (content `readings`, provenance `designed`)."""
TALE_ITEM_PACK: CardPack = load_pack(_PKG, "tale_items.json", CardPack)
"""Tall Tale-only items (map pieces, hex fragments, supplies, story and ritual items)."""

CARDS: list[CardDef] = []
KEYS: list[str] = []
ID: dict[str, int] = {}
NO_RN = 11
"""Sort key of a card without RN: after every RN-bearing card (AMB-21)."""

# per-card lookup tables, indexed by card id (filled by `register`)
IS_SPELL: list[bool] = []
IS_ITEM: list[bool] = []
IS_ELEMENT: list[bool] = []
RN: list[int] = []
COST: list[int] = []
DAMAGING: list[bool] = []
"""Cards that can deal DMG to a foe (Bloodlust's 'next spell that could deal DMG')."""
PLAYABLE_IN_DRAW: list[bool] = []
"""Spells and Standard items; Dynamite only once it has become Standard (tracked in the state)."""
IS_COMBINE: list[bool] = []
IS_STANDOFF_CARD: list[bool] = []


def register(card: CardDef, key: str | None = None) -> int:
    """Give a card definition an id (content loading; tests register fixture cards the same way)."""
    key = key or card.key
    if key in ID:
        raise ValueError(f"card key {key!r} is already registered")
    cid = len(CARDS)
    CARDS.append(card)
    KEYS.append(key)
    ID[key] = cid
    IS_SPELL.append(card.kind in ("element", "signature"))
    IS_ITEM.append(card.kind == "item")
    IS_ELEMENT.append(card.kind == "element")
    RN.append(NO_RN if card.rn is None else card.rn)
    COST.append(card.cost)
    DAMAGING.append(any(e.op == "dmg" and e.who == "target" for e in card.effects))
    PLAYABLE_IN_DRAW.append(
        (card.kind in ("element", "signature") and card.use == "draw")
        or (card.kind == "item" and "standard" in card.types and "instant" not in card.types)
    )
    IS_COMBINE.append(card.kind == "item" and "combine" in card.types)
    IS_STANDOFF_CARD.append(card.use == "standoff")
    return cid


for _card in ELEMENT_PACK.cards:
    register(_card)
for _card in SIGNATURE_PACK.cards:
    register(_card)
for _card in ITEM_PACK.cards:
    for _copy in range(1, _card.copies + 1):
        register(_card, _card.key if _card.copies == 1 else f"{_card.key}.{_copy}")

for _card in CREATURE_PACK.skills:
    register(_card)
for _card in TALE_ITEM_PACK.cards:  # registered last: earlier ids stay stable for stored matches
    for _copy in range(1, _card.copies + 1):
        register(_card, _card.key if _card.copies == 1 else f"{_card.key}.{_copy}")

BASIC_ELEMENTS: tuple[int, ...] = tuple(ID[k] for k in ("FIRE", "WATER", "EARTH", "WIND", "ICE", "LIGHTNING"))
LIGHT, DARK = ID["LIGHT"], ID["DARK"]
SIGNATURES: tuple[int, ...] = tuple(ID[c.key] for c in SIGNATURE_PACK.cards)
_TALE_ONLY = frozenset(c.key for c in TALE_ITEM_PACK.cards)
ITEMS: tuple[int, ...] = tuple(i for i, c in enumerate(CARDS) if c.kind == "item" and c.key not in _TALE_ONLY)
"""The Versus item deck (the regular items)."""
TALE_ITEMS: tuple[int, ...] = tuple(i for i, c in enumerate(CARDS) if c.kind == "item")
"""The Tall Tale item deck: every item (R-065), the Tall Tale-only ones included."""
DYNAMITE: frozenset[int] = frozenset(i for i, c in enumerate(CARDS) if c.key == "unstable_dynamite")
RESURRECT, SPECTER, SCOURGE = ID["Resurrect"], ID["Specter"], ID["Scourge"]
JUJUS: frozenset[int] = frozenset(i for i, c in enumerate(CARDS) if c.reactive == "juju")

ARCHETYPES: list[ArchetypeDef] = list(ARCHETYPE_PACK.archetypes)
ARCHETYPE_ID: dict[str, int] = {a.key: i for i, a in enumerate(ARCHETYPES)}
DAEMON, FORGOTTEN, OUTLAW = ARCHETYPE_ID["daemon"], ARCHETYPE_ID["forgotten"], ARCHETYPE_ID["outlaw"]
REVENANT, VAMPYRE, WITCHBORN = ARCHETYPE_ID["revenant"], ARCHETYPE_ID["vampyre"], ARCHETYPE_ID["witchborn"]


def scavenge_cost(cid: int) -> int:
    """Combine, Standoff and Instant items are free; Standard and Passive cost 1 EP (type when taken)."""
    types = CARDS[cid].types
    if "instant" in types or "combine" in types or "standoff" in types:
        return 0
    return 1


def beats_table(cycle: str) -> dict[int, int]:
    """element id -> the element id it beats, for a named cycle of the pack."""
    table = ELEMENT_PACK.cycles[cycle]
    return {ID[a]: ID[b] for a, b in table.items()}


BEATS: dict[str, dict[int, int]] = {name: beats_table(name) for name in ELEMENT_PACK.cycles}

_SWAPPED_SPLIT: dict[int, list[Effect]] = {}
for _key, _n in (("WIND", 2), ("WATER", 1)):
    _cid = ID[_key]
    _SWAPPED_SPLIT[_cid] = [
        Effect(e.op, e.who, _n, e.word, e.pierce, e.branches) if e.op == "dmg" else e for e in CARDS[_cid].effects
    ]


def card_effects(cid: int, wind_water: str) -> list[Effect]:
    """A card's printed effects, with the WIND/WATER DMG split of rule flag `wind_water_damage`."""
    if wind_water == "2/1" and cid in _SWAPPED_SPLIT:
        return _SWAPPED_SPLIT[cid]
    return CARDS[cid].effects


# ------------------------------------------------------------------ creatures (creature duels)
CREATURES: list[CreatureDef] = list(CREATURE_PACK.creatures)
CREATURE_ID: dict[str, int] = {c.key: i for i, c in enumerate(CREATURES)}
MODIFIERS: list[ModifierDef] = list(CREATURE_PACK.modifiers)
GENERAL_SKILLS: tuple[int, ...] = tuple(ID[k] for k in CREATURE_PACK.general)
WITCH_KING = CREATURE_PACK.witch_king


def is_skill(cid: int) -> bool:
    return CARDS[cid].kind == "skill"


def creature_deck(key: str) -> list[int]:
    """The skill cards a creature duels with: its own 3 plus the 3 general skills (R-213);
    the Witch King's deck is its 6 skills alone."""
    if key == WITCH_KING.key:
        return [ID[k] for k in WITCH_KING.skills]
    return [ID[k] for k in CREATURES[CREATURE_ID[key]].skills] + list(GENERAL_SKILLS)
