"""msgspec schemas of the Tiny Epic Quest content pack; every entry carries its provenance."""

from __future__ import annotations

from typing import Literal

import msgspec

from gamehall.engine.content import Provenance

RegionType = Literal["castle", "temple", "obelisk", "grotto", "portal"]
Method = Literal["horse", "raft", "gryphon", "ship", "foot"]


class Slot(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One position of the land map on a grid: the cross, a castle corner or an outer coast card."""

    id: int
    row: int
    col: int
    role: Literal["cross", "castle", "coast"]


class Layout(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Map geometry (AMB-1): slots, the lines each travel method follows and the coast ring."""

    slots: list[Slot]
    roads: list[list[int]]
    rivers: list[list[int]]
    diagonals: list[list[int]]
    coast_ring: list[int]
    provenance: Provenance


class Region(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One half of a map card: its type and the name of its temple, spell symbol or grotto effect."""

    type: RegionType
    name: str = ""


class CardSide(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    left: Region
    right: Region


class MapCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    castle: str | None
    bright: CardSide
    gloom: CardSide
    provenance: Provenance


class Temple(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A temple track (AMB-8): the symbols needed to step onto each of its 4 spaces, per side."""

    name: str
    bright: list[str]
    gloom: list[str]
    provenance: Provenance


class Grotto(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A Mushroom Grotto effect; `effect` names the engine routine, `text` is what the card says."""

    name: str
    effect: str
    text: str
    provenance: Provenance


class Item(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    kind: Literal["treasure", "legendary"]
    text: str
    provenance: Provenance


class Quest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A quest card: Movement (requirement and reward) or Treasure (temple and item)."""

    id: str
    type: Literal["movement", "treasure"]
    title: str
    method: Method | None = None
    region: RegionType | None = None
    through_min: int = 0
    spread: bool = False
    together: bool = False
    health: int = 0
    power: int = 0
    temple: str | None = None
    item: str | None = None
    provenance: Provenance | None = None


class PlayerCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A player colour and, per Legendary item, the two temples to complete in order."""

    color: str
    sword: list[str]
    shield: list[str]
    staff: list[str]
    provenance: Provenance


class MagicSide(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The Magic Level of each space of one Magic Track side (first space level 0, last level 3)."""

    levels: list[int]
    provenance: Provenance


class Difficulty(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    goal: int
    provenance: Provenance


class Table(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Dice faces, the Magic Track sides, the Spell Library, the scoring table and solo goals."""

    die_faces: list[str]
    die_provenance: Provenance
    magic_multi: MagicSide
    magic_solo: MagicSide
    spell_library: list[str]
    spell_provenance: Provenance
    score_spells: list[int]
    score_quests: list[int]
    score_goblins: list[int]
    score_legendary: int
    score_provenance: Provenance
    difficulties: list[Difficulty]
    goblin_tokens: int
    goblin_hits: int
    goblin_provenance: Provenance


class Pack(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The whole content pack, one JSON file per part."""

    layout: Layout
    cards: list[MapCard]
    temples: list[Temple]
    grottos: list[Grotto]
    items: list[Item]
    quests: list[Quest]
    players: list[PlayerCard]
    table: Table
