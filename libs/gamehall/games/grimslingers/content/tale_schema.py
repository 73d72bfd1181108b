"""Schema of the Tall Tale content (tall_tale.json): difficulty table, map, events, landmarks,
story chapters, the level tracker's perks, creature rewards and the number deck's outcomes.

Outcomes are lists of small `Effect`s the adventure interpreter (`tale_effects.py`) knows; every
entry carries its provenance (rulebook / inferred / designed).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from gamehall.engine.content import Provenance

NodeType = Literal["landmark", "attack", "event", "rest"]
TaleOp = Literal["hp", "ep", "items", "named_item", "supplies", "level", "duel", "behemoth"]


class TaleEffect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One adventure effect. `who`: each player, or the group (items won by the group)."""

    op: TaleOp
    n: int = 0
    who: Literal["each", "group", "self"] = "each"
    name: str | None = None
    """A named item (search rules, R-250), or the creature of a duel."""
    modifiers: list[str] = []
    """A story or landmark duel's modifiers (never drawn at random: not an Attack node)."""


class Difficulty(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    hp_ep_adjust: int
    hand: int
    defeats: int
    revive_hp: int
    revive_ep: int
    modifiers: int
    provenance: Provenance


class Node(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    key: str
    name: str
    type: NodeType
    links: list[str]
    landmark: str | None = None


class TaleMap(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    key: str
    name: str
    nodes: list[Node]
    attack_roll: dict[str, str]
    """d6 face ("1".."6") -> creature key (the map legend)."""
    provenance: Provenance


class Option(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    key: str
    text: str
    effects: list[TaleEffect] = []


class EventCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An event: the group picks one option (R-237), which applies to everyone."""

    key: str
    name: str
    text: str
    options: list[Option]
    provenance: Provenance


class NumberOutcome(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    numbers: list[int]
    text: str
    effects: list[TaleEffect] = []
    stop: bool = False
    """The sneak ends at once (caught)."""


class Landmark(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A landmark entry: group effects, or individual turns (sneak with the number deck, R-261)."""

    key: str
    name: str
    text: str
    kind: Literal["group", "sneak"]
    effects: list[TaleEffect] = []
    outcomes: list[NumberOutcome] = []
    provenance: Provenance | None = None


class Part(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A story part: PREREQUISITE (all of the given conditions), ACTIONS, OBJECTIVE (R-245)."""

    key: str
    text: str
    objective: str
    at_node: str | None = None
    at_type: list[NodeType] = []
    duels_won: int = 0
    actions: list[TaleEffect] = []
    ends_chapter: bool = False


class Chapter(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    key: str
    name: str
    start: str
    parts: list[Part]
    turn_limit: int
    """Designed: the campaign is lost when the chapter is not done within this many adventure turns."""
    provenance: Provenance


class Perk(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    level: int
    choices: list[Literal["hand", "hp", "ep", "signature"]]


class Reward(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    creature: str
    items: int
    levels: int


class TalePack(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    version: int
    difficulties: dict[str, Difficulty]
    map: TaleMap
    events: list[EventCard]
    landmarks: list[Landmark]
    chapters: list[Chapter]
    perks: list[Perk]
    perks_provenance: Provenance
    rewards: list[Reward]
    rewards_provenance: Provenance
    numbers: int
    trade_ins: dict[str, str]
    """Three of this item -> what the card stipulates: 'items:3' or 'crafted'."""
    crafted: list[str]
    supplies: list[str]
    behemoth_per_player: int
    behemoth_hit: int
    flee_ep: int
