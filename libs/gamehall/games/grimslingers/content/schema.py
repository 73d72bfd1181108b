"""Schema of the Grimslingers content pack: cards are data (RN, target kind, cost, effect list).

An effect is one primitive the interpreter in `effects.py` knows (`op`), aimed at the card's
targets (`who="target"`) or its caster (`who="self"`), with a numeral `n`. `word=True` marks a
number the card writes as a word: it is not an NV, so Surge and +NV items leave it alone.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from gamehall.engine.content import Provenance

Who = Literal["target", "self"]
TargetKind = Literal["single", "self", "team", "all", "all_foes", "ally", "none"]
CardKind = Literal["element", "signature", "item", "skill"]
Aim = Literal["random", "weakest", "strongest"]
ItemType = Literal["standard", "combine", "standoff", "instant", "passive"]
After = Literal["discard", "deactivate", "keep"]

OPS = frozenset(
    {
        # resource changes
        "dmg",
        "heal",
        "lose_hp",
        "gain_ep",
        "lose_ep",
        "steal_hp",
        "steal_ep",
        "set_hp",
        # hand and piles
        "discard_random",
        "deactivate_random",
        "amnesia",
        "recall_random",
        "reactivate_random",
        "pick_discard",
        # chance
        "roll",
        # turn-long statuses and card manipulation
        "barrier",
        "exalt",
        "evert",
        "transmute",
        "bloodlust",
        "scourge",
        "paralyze",
        "hush",
        "redirect",
        "equilibrium",
        # creature skills
        "boost_unresolved",
        "choose_one",
        "catalyst",
        "discard_named",
        # combine-item modifiers of the companion spell
        "nv_bonus",
        "dmg_bonus",
        "rn_shift",
    }
)


class Branch(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One outcome of a ROLL: die faces (never NVs) and the effects they trigger."""

    faces: list[int]
    effects: list[Effect] = []
    keep: bool = False
    """For an Instant item's take roll: the item stays in hand as a Standard item."""


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    op: str
    who: Who = "target"
    n: int = 0
    word: bool = False
    pierce: bool = False
    branches: list[Branch] = []
    name: str | None = None
    """The card an effect names (discard_named: Engulf's "discard your WIND spell")."""

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(f"unknown effect op {self.op!r}")


class CardDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    key: str
    name: str
    kind: CardKind
    text: str
    provenance: Provenance
    rn: int | None = None
    cost: int = 0
    target: TargetKind = "single"
    effects: list[Effect] = []
    element: str | None = None
    use: Literal["draw", "standoff", "never"] = "draw"
    reactive: Literal["resurrect", "specter", "juju"] | None = None
    after: After = "discard"
    types: list[ItemType] = []
    combine_with: str | None = None
    on_take: list[Effect] = []
    copies: int = 1
    back: str | None = None
    """Creature skills: what the face-down card's back shows (its creature, general, or the Witch
    King's telegraph category)."""
    aim: Aim = "random"
    """Creature skills with a single target: which player it picks (AMB-27: card data)."""


class ArchetypeDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    key: str
    name: str
    hp: int
    ep: int
    ability: str
    text: str
    provenance: Provenance
    ability_cost: int = 0
    values: Provenance | None = None
    """Provenance of the HP/EP numbers when it differs from the ability's."""


class CardPack(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    version: int
    cards: list[CardDef]
    cycles: dict[str, dict[str, str]] = {}
    """Element weakness cycles by name: element -> the element it beats (elements.json only)."""
    cycles_provenance: dict[str, Provenance] = {}


class ArchetypePack(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    version: int
    archetypes: list[ArchetypeDef]


class CreatureDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A creature portrait: HP/EP by player count (1-4 players) and its own skill cards."""

    key: str
    name: str
    hp: list[int]
    ep: list[int]
    skills: list[str]
    provenance: Provenance
    ritual_item: str | None = None


class ModifierDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A creature modifier (Attack-node duels): per-player HP/EP, skill NV/RN, per-turn regen,
    a standing barrier, DMG to every player at the start, extra reward items."""

    key: str
    name: str
    text: str
    provenance: Provenance
    hp: int = 0
    ep: int = 0
    nv: int = 0
    rn: int = 0
    regen: int = 0
    ep_regen: int = 0
    barrier: int = 0
    ambush: int = 0
    items: int = 0


class Setting(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A Witch King setting by player count (index = players - 1): HP, EP and the +NV of its
    skills; `rn` shifts every skill's RN."""

    hp: list[int]
    ep: list[int]
    nv: list[int] = msgspec.field(default_factory=lambda: [0, 0, 0, 0])
    rn: int = 0


class WitchKingDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    key: str
    name: str
    skills: list[str]
    difficulties: dict[str, Setting]
    provenance: Provenance


class Reading(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A rule of a mode that the books do not state (a choice of ours, labelled like content)."""

    key: str
    modes: list[str]
    text: str
    provenance: Provenance


class CreaturePack(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    version: int
    skills: list[CardDef]
    general: list[str]
    creatures: list[CreatureDef]
    modifiers: list[ModifierDef]
    witch_king: WitchKingDef
    readings: list[Reading] = []
    """The creature modes' unstated rules (item 9 of issue 40)."""
