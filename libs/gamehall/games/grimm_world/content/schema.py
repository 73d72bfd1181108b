"""msgspec schema of the Grimm World content pack; every entry carries its provenance (ARCHITECTURE rule 5)."""

from __future__ import annotations

from typing import Literal

import msgspec

from gamehall.engine.content import Provenance

Stat = Literal[
    "dexterity", "knowledge", "charisma", "action", "reaction", "regeneration",
    "range", "attack", "damage", "dodge", "armor", "constitution",
]
ReactionKind = Literal["block", "dodge", "retreat", "first_strike"]
Terrain = Literal["open", "blocked", "obstacle", "cover", "water", "elevation"]
Skill = Literal["critical", "agile", "flying", "massive", "huge"]


class _Entry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Base of every content entry."""


class Reaction(_Entry, frozen=True):
    """A reaction (light-blue area of an Action Card, or an enemy's): kind and modifier / MP."""

    kind: ReactionKind
    value: int


class CheckBonus(_Entry, frozen=True):
    """The grey box of an Action Card: +bonus to checks of one attribute."""

    stat: Stat
    bonus: int


class ActionCardDef(_Entry, frozen=True):
    """One Action Card (W-CO-09): action area, reaction area, check box, stars, crit numbers."""

    key: str
    name: str
    provenance: Provenance
    move: int = 0
    attack: int | None = None
    crit: tuple[int, ...] = ()
    push: bool = False
    special: bool = False
    reaction: Reaction | None = None
    reaction_special: bool = False
    check: CheckBonus | None = None
    check_star: bool = False


class ActionCardPack(_Entry, frozen=True):
    cards: tuple[ActionCardDef, ...]


class ItemDef(_Entry, frozen=True):
    """An item (W-IT-02): slot, hands, weight, black/red stat changes, and weapon values (white)."""

    key: str
    name: str
    rarity: Literal["common", "rare", "unique"]
    slot: Literal["hands", "body", "accessory"]
    weight: int
    provenance: Provenance
    hands: int = 0
    mods: dict[str, int] = {}
    weapon: bool = False
    range: int = 0
    damage: int = 0
    rate: int | None = None
    ranged: bool = False
    crit: tuple[int, ...] = ()


class ItemPack(_Entry, frozen=True):
    items: tuple[ItemDef, ...]


class UpgradeDef(_Entry, frozen=True):
    """A Status Upgrade card (black numbers that add up)."""

    key: str
    name: str
    mods: dict[str, int]
    provenance: Provenance


class SkillDef(_Entry, frozen=True):
    """A character skill that adds critical-hit numbers (e.g. Frenzy, crit 5)."""

    key: str
    name: str
    crit: tuple[int, ...]
    provenance: Provenance


class LoadoutDef(_Entry, frozen=True):
    """Martha's sheet for a skirmish at chapters lo..hi (the campaign would build it by play)."""

    chapters: tuple[int, int]
    upgrades: tuple[str, ...]
    skills: tuple[str, ...]
    equipped: tuple[str, ...]
    stored: tuple[str, ...]
    provenance: Provenance


class CharacterDef(_Entry, frozen=True):
    """A Character Card (W-CO-03)."""

    key: str
    name: str
    birthplace: str
    gender: str
    slots: dict[str, int]
    crit: tuple[int, ...]
    base: dict[str, int]
    special_move: int
    special_reaction: Reaction
    check_skill: tuple[Stat, ...]
    exploration_ability: str
    starting_cards: tuple[str, ...]
    bag_items: int
    provenance: Provenance


class CharacterPack(_Entry, frozen=True):
    characters: tuple[CharacterDef, ...]
    upgrades: tuple[UpgradeDef, ...]
    skills: tuple[SkillDef, ...]
    loadouts: tuple[LoadoutDef, ...]


class EnemyAction(_Entry, frozen=True):
    """One action of an Action Line: attack (modifier), towards / away (MP, optional suffix), push."""

    kind: Literal["attack", "towards", "away", "push"]
    value: int = 0
    suffix: Literal["", "cover", "elevation"] = ""


class EnemyReaction(_Entry, frozen=True):
    """An enemy's trigger (attack, or line of sight within `range`) and the reaction it may fire."""

    trigger: Literal["attack", "sight"]
    kind: ReactionKind
    value: int
    values: tuple[int, ...]
    range: int = 0


class EnemyDef(_Entry, frozen=True):
    """An Enemy Card (W-CO-10)."""

    number: str
    name: str
    weapon: str
    type: Literal["human", "animal", "creature"]
    initiative: int
    range: int
    attack: int
    damage: int
    dodge: int
    armor: int
    constitution: int
    lines: tuple[tuple[EnemyAction, ...], ...]
    reaction: EnemyReaction
    reaction_value: int
    provenance: Provenance
    skills: tuple[Skill, ...] = ()
    crit: tuple[int, ...] = ()


class EnemyPack(_Entry, frozen=True):
    enemies: tuple[EnemyDef, ...]


class TerrainCardDef(_Entry, frozen=True):
    """A Terrain Card (W-CO-12): 6 spaces in reading order (3 wide, 2 tall) and terrain on inner lines."""

    number: str
    spaces: tuple[Terrain, ...]
    lines: dict[str, Literal["obstacle", "blocked"]]
    provenance: Provenance


class TerrainPack(_Entry, frozen=True):
    cards: tuple[TerrainCardDef, ...]


class Placement(_Entry, frozen=True):
    """One column of a Conflict Card's placement table (W-CB-03)."""

    chapters: tuple[int, int]
    character: str
    enemies: tuple[tuple[str, str], ...]


class ConflictDef(_Entry, frozen=True):
    """A Conflict Card (W-CB-02): grid of Terrain Cards with orientation, placements, initiative, compass, ends."""

    key: str
    name: str
    intro: str
    grid: tuple[tuple[str, ...], ...]
    initiative: Literal["character", "enemies"]
    compass: dict[str, int]
    placements: tuple[Placement, ...]
    round_limit: int
    difficulty: Literal["easy", "normal", "hard"]
    victory: str
    defeat: str
    provenance: Provenance


class ConflictPack(_Entry, frozen=True):
    conflicts: tuple[ConflictDef, ...]


class EncounterCardDef(_Entry, frozen=True):
    """A B- or X-Encounter Card as combat needs it: its Fate Number (and its back's Landscape Identifier)."""

    key: str
    fate: int
    landscape: str
    provenance: Provenance


class EncounterPack(_Entry, frozen=True):
    cards: tuple[EncounterCardDef, ...]
