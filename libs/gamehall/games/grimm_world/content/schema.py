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
    price: int = 0
    """Purchase price at a blacksmith (W-IT-02)."""
    sell: int = 0
    sell_broken: int = 0
    repair: dict[str, int] = {}
    tool: str = ""
    """'axe', 'pickaxe' or 'spear' for felling, mining and fishing (W-LA-09..11)."""


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


class AllyDef(_Entry, frozen=True):
    """An ally: the one figure of Martha's side besides her own (W-CO-06). The book names the figure and gives it no
    rules, so all of this is designed (see ally.py): it stands next to Martha when a fight starts, acts once at the
    start of every Enemy Phase (attack an enemy in range and sight, the weakest first, else move up to `move`
    spaces towards the nearest one and attack if it then can), blocks spaces like a figure, and is never targeted:
    the Enemy Cards' lines name only the character."""

    key: str
    name: str
    range: int
    attack: int
    damage: int
    move: int
    provenance: Provenance


class CharacterPack(_Entry, frozen=True):
    characters: tuple[CharacterDef, ...]
    upgrades: tuple[UpgradeDef, ...]
    skills: tuple[SkillDef, ...]
    loadouts: tuple[LoadoutDef, ...]
    allies: tuple[AllyDef, ...] = ()


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
    """A Conflict Card (W-CB-02): grid of Terrain Cards with orientation, placements, initiative, compass, ends.

    A fight ends only by its win and loss conditions (W-CB-07): there is no round limit on the card (the rule flag
    `round_limit` adds one, off by default)."""

    key: str
    name: str
    intro: str
    grid: tuple[tuple[str, ...], ...]
    initiative: Literal["character", "enemies"]
    compass: dict[str, int]
    placements: tuple[Placement, ...]
    difficulty: Literal["easy", "normal", "hard"]
    victory: str
    defeat: str
    provenance: Provenance


class ConflictPack(_Entry, frozen=True):
    conflicts: tuple[ConflictDef, ...]


class EncounterCardDef(_Entry, frozen=True):
    """A B- or X-Encounter Card: Fate Number, its back's Landscape Identifier, the random-encounter ranges,
    the horizontal line and landscape options, the item printed on it, and its price row (W-RE-*, W-LA-*)."""

    key: str
    fate: int
    landscape: str
    provenance: Provenance
    ranges: tuple[tuple[int, int, str], ...] = ()
    """(lo, hi, encounter entry key) covering Encounter Values 1-12."""
    line: bool = False
    options: tuple[str, ...] = ()
    """Landscape Encounter options below the horizontal line (else those of its landscape letter)."""
    item: str = ""
    broken: bool = False
    places: str = ""
    """Blacksmith marks: letters v/t/c for village, town, castle (AMB-9); 'x' = cannot be bought."""
    event_at: str = ""
    """Letters v/t/c of the place types where the card shows the blacksmith's event symbol instead of a mark
    (W-LA-05 step 3): drawn face up there, it counts as a match and its `event` happens at once."""
    event: str = ""
    """The encounter entry of that event."""
    prices: tuple[int, int, int] = (1, 1, 1)
    """Price symbols lined up with a Region Card's three goods symbols (W-TD-02)."""


class EncounterPack(_Entry, frozen=True):
    cards: tuple[EncounterCardDef, ...]


# ----------------------------------------------------------------- campaign (part 2): card text as data


class Op(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One line of card text as data (W-RE-05): `op` names the effect; the other fields are its arguments.

    Nested lines (the indented results of a check, query or decision) sit in `then` / `orelse` / `bands` /
    `options`. The campaign interpreter (explore.py) documents every op.
    """

    op: str
    n: int = 0
    k: int = 0
    stat: str = ""
    target: int = 0
    card: str = ""
    good: str = ""
    text: str = ""
    cap: int = 0
    then: tuple[Op, ...] = ()
    orelse: tuple[Op, ...] = ()
    bands: tuple[Band, ...] = ()
    options: tuple[Choice, ...] = ()


class Band(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A result range of a check without a target, or of an Encounter Value (lo..hi inclusive)."""

    lo: int
    hi: int
    then: tuple[Op, ...] = ()


class Choice(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One option of a decision (◆): its label, an optional requirement (e.g. 'ranged', 'axe') and its lines."""

    label: str
    then: tuple[Op, ...] = ()
    requires: str = ""


class EncounterEntryDef(_Entry, frozen=True):
    """A named encounter printed on Encounter Cards (e.g. 'Miner', 'Fawn', 'Rockfall')."""

    key: str
    name: str
    text: str
    ops: tuple[Op, ...]
    provenance: Provenance


class EncounterPagesPack(_Entry, frozen=True):
    entries: tuple[EncounterEntryDef, ...]


class LocationDef(_Entry, frozen=True):
    """A location on a Region Card: number, Landscape Identifiers, symbols, paths and exits off the card."""

    number: int
    name: str
    ids: tuple[str, ...]
    symbols: tuple[str, ...] = ()
    paths: tuple[int, ...] = ()
    exits: dict[str, int] = {}
    """direction -> the location entered on the neighbouring Region Card (W-TR-02)."""


class RegionCardDef(_Entry, frozen=True):
    """A Region Card: region digit + Event Number (e.g. '111'), its Y-cards, compass, goods symbols, locations."""

    key: str
    name: str
    y_cards: tuple[str, ...]
    compass: dict[str, int]
    goods: tuple[str, str, str]
    locations: tuple[LocationDef, ...]
    provenance: Provenance


class LostPageDef(_Entry, frozen=True):
    """A Lost Pages (Y) card: where it matches in the Bar, its book symbols and its text as ops (W-EB-*, W-TX-*)."""

    key: str
    number: str
    name: str
    kind: Literal["location", "instant", "rumor", "conflict", "quest", "sub", "story", "training", "storage"]
    text: str
    provenance: Provenance
    ops: tuple[Op, ...] = ()
    location: int = 0
    symbol: str = ""
    landscape: str = ""
    book: int = 0
    """Black book: banished when placed in (or still in) the Bar once this chapter is reached (W-EB-04)."""
    arrow: bool = False
    """Curved arrow on the black book: its front is resolved before it is banished."""
    hourglass: bool = False
    resolve_on_expiry: bool = False
    bang: bool = False
    """'!' sub-chapter card: resolved at once when it enters the Bar at a chapter start (W-TM-03 step 4)."""
    fee: int = 0
    """Training fee in thalers (AMB-18: ours)."""
    level: int = 0
    """Quest level 1-3 (Quest Deck order); 0 for main quests."""
    needs: dict[str, int] = {}
    """A quest's other requirements: goods by kind, 'thalers', or flags ('flag:<name>': 1)."""
    capacity: tuple[int, int, int] = (0, 0, 0)
    """A storage card: goods, items, thalers (W-IT-10)."""


class LostPagesPack(_Entry, frozen=True):
    cards: tuple[LostPageDef, ...]


class ChapterDef(_Entry, frozen=True):
    """A Storybook card: chapter number (0 = Book Cover, 99 = Epilogue), Encounter Value modifier, text, ops."""

    number: int
    name: str
    modifier: int
    text: str
    ops: tuple[Op, ...]
    provenance: Provenance
    tier: int = 1
    """The placement-table column Conflict Cards use in this chapter (which chapter 1-14 it stands for)."""
    sub: tuple[str, ...] = ()
    """Y-cards lying under this Chapter Card from the start (sub-chapter cards)."""


class LandscapeDef(_Entry, frozen=True):
    """The landscape-identifier table (Fig 10): letter -> landscape and its Landscape Encounter options."""

    letter: str
    name: str
    place: str
    """village / town / castle for the blacksmith (AMB-9), else ''."""
    options: tuple[str, ...]
    provenance: Provenance


class PriceDef(_Entry, frozen=True):
    """A price symbol (Fig 64): thalers to buy and to sell one good."""

    symbol: int
    buy: int
    sell: int
    provenance: Provenance


class CampaignPack(_Entry, frozen=True):
    """The Storybook, the Region Cards, the landscape table and the goods-price table."""

    chapters: tuple[ChapterDef, ...]
    regions: tuple[RegionCardDef, ...]
    landscapes: tuple[LandscapeDef, ...]
    prices: tuple[PriceDef, ...]
    x_cards: tuple[EncounterCardDef, ...] = ()
