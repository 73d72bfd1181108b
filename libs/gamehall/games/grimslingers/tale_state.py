"""The Tall Tale's adventure state (A16): where the group is, what it is deciding, who acts.

It hangs off `State.tale` (None in every other mode). Creature duels of the campaign reuse the
duel fields of `State` itself (the creature seat is added for the duel and removed after it).
"""

from __future__ import annotations

from enum import IntEnum

import msgspec


class Step(IntEnum):
    """The adventure turn's phases (R-235) and the end."""

    NARRATIVE = 0
    NODE = 1
    MOVE = 2
    DUEL = 3
    OVER = 4


class Activity(IntEnum):
    """What the seat at the head of `Tale.queue` does, one seat at a time (R-237)."""

    NONE = 0
    CAMP = 1
    """Rest node (refresh, organize, trade, one Standoff item) or after a Landmark (organize)."""
    SNEAK = 2
    BEHEMOTH = 3
    PERK = 4
    OVERFLOW = 5
    """Unused since the hand limit is enforced at once (tale_effects.over_limit); kept for stored values."""


class DecisionKind(IntEnum):
    """Group decisions: a proposal every player accepts, or a roll-off (R-237, R-238, R-251)."""

    MOVE = 0
    EVENT_OPTION = 1
    ITEM_OWNER = 2
    DIFFICULTY = 3
    """At the start of a chapter after the first: keep or change the difficulty (R-236, R-259);
    options index `tale_content.DIFFICULTIES`."""


class DuelKind(IntEnum):
    NONE = 0
    ATTACK = 1
    """An Attack node (modifiers by difficulty; Flee allowed)."""
    EVENT = 2
    STORY = 3


class Decision(msgspec.Struct, array_like=True):
    kind: DecisionKind
    options: list[int]
    proposer: int
    proposal: int = -1
    accepted: list[int] = []
    decider: int = -1
    """The roll-off winner, who picks alone after a rejection (-1: no roll-off yet)."""
    ref: int = -1
    """ITEM_OWNER: the item card being given."""


class Member(msgspec.Struct, array_like=True):
    """A player's campaign record besides the seat: stash, level, perks."""

    stash: list[int] = []
    level: int = 0
    hand_bonus: int = 0
    perks_due: list[int] = []
    """Levels whose perk is not chosen yet."""
    down: bool = False
    """Defeated outside a duel (or fallen in a co-op duel), waiting for the defeat count and revival."""
    counted: bool = False
    """This defeat was already taken from the allowed defeats."""


class Tale(msgspec.Struct):
    difficulty: str
    chapter: int
    part: int
    node: int
    members: list[Member]
    defeats_left: int
    step: Step = Step.NARRATIVE
    turn: int = 1
    turn_start: int = -1
    last_start: int = -1
    """The node the previous adventure turn started on (no backtracking, R-238)."""
    decision: Decision | None = None
    activity: Activity = Activity.NONE
    queue: list[int] = []
    used: int = 0
    """Rest: 1 = a refresh ability used, 2 = a Standoff item used (by the seat at the head of queue)."""
    event_deck: list[int] = []
    event_discard: list[int] = []
    event: int = -1
    numbers: list[int] = []
    numbers_seen: list[int] = []
    sneaking: bool = False
    loot: list[int] = []
    """Items the sneaking seat took this sneak (forfeited if it is defeated, R-264/R-265)."""
    behemoth: int = 0
    award: list[int] = []
    """Items won by the group, waiting for their owner (R-251)."""
    stage: int = 0
    """How far the current node's resolution has got (see tale.py); DONE once resolved."""
    moves: int = 0
    """Organize/give moves of the seat at the head of the queue (bounded, so every camp ends)."""
    duel: DuelKind = DuelKind.NONE
    duel_part: int = -1
    duel_creature: str = ""
    duel_mods: list[int] = []
    duel_outcome: str = ""
    """Set when a campaign duel ends (the duel machinery has no RNG at that point); the adventure
    settles defeats and rewards from it."""
    fled: list[int] = []
    duels_won: int = 0
    duels_before: int = 0
    """Duels won before this chapter began (a part's `duels_won` counts this chapter's wins)."""
    result: str = ""
