"""The Grimm World state: Martha's sheet and the decks live outside any fight (part 2 adds the campaign around them)."""

from __future__ import annotations

import msgspec

from gamehall.games.grimm_world.journey import Journey

# prompts: the one decision the engine waits for (empty: free play in the Character Phase)
P_NONE = ""
P_EQUIP = "equip"  # free re-equip for character initiative (W-CB-05)
P_RETREAT = "retreat"  # an enemy activates: play a Retreat reaction? (W-CRx-03)
P_RETREAT_MOVE = "retreat_move"  # spend the Retreat MP moving away
P_ATTACKED = "attacked"  # an enemy attacks: Block / Dodge / First Strike / Special before its Fate card (W-CRx-02/04)
P_FIRST_STRIKE = "first_strike"  # an enemy moved into weapon range and sight (W-CRx-04, AMB-28)
P_DAMAGE = "damage"  # choose the Action Card that goes under the Damage Card (W-CD-01)
P_REFRESH = "refresh"  # choose the cards that come back from the discard pile (W-RF-01)

CHARACTER = "character"
ENEMY = "enemy"
OVER = "over"

COLORS = ("yellow", "turquoise", "black", "pink")
"""The four Hit Point Cards and figure colours (W-CO-06), in placement order."""


class Sheet(msgspec.Struct, forbid_unknown_fields=True):
    """Martha's character sheet: everything that survives a fight (upgrades, items, cards, alignment, purse)."""

    character: str
    upgrades: list[str]
    skills: list[str]
    equipped: list[str]
    stored: list[str]
    hand: list[str]
    damaged: list[str] = []
    """Action Cards under the Damage Card."""
    broken: list[str] = []
    goods: list[str] = []
    """Encounter Cards held as goods (out of the deck while held, W-ED-04)."""
    alignment: int = 1
    thalers: int = 0
    bag: int = 0
    """Item capacity of the storage card (0: the character's own bag, W-IT-10)."""


class Decks(msgspec.Struct, forbid_unknown_fields=True):
    """The Encounter Deck (top first), the set-aside special cards, and the Action Card deck (hidden order)."""

    encounter: list[str]
    aside: list[str]
    action: list[str]
    surfaced: list[str] = []
    """'Time Passes' / 'Next Chapter' taken out this round, processed when the round ends (W-TM-02/03)."""
    chapter_due: int = 0
    """'Next Chapter' cards processed at a combat round's end whose chapter change the campaign still owes."""
    cycles: int = 0
    """How many times 'Time Passes' or 'Next Chapter' came up (two per chapter in the base game, W-TM-09)."""


class Foe(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """An enemy figure on the battlefield with its Hit Point Card (HP and reaction chain)."""

    number: str
    color: str
    cell: int
    hp: int
    spent: bool = False
    order: int = 0
    """Its row in the placement table (AMB-14's last tie-break)."""
    fs: int = 0
    """Dodge reduction after its First Strike, until the character's current cards resolve (W-ER-04, AMB-5)."""
    ddg: int = 0
    """Dodge bonus of a Dodge reaction for the attack in progress."""
    blk: int = 0
    """Armor bonus of a Block reaction for the attack in progress."""


class Task(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """One automated step still to run (a stack: enemy activations, attacks, reactions, damage, refresh)."""

    kind: str
    a: int = 0
    b: int = 0
    c: int = 0
    d: int = 0
    s: str = ""
    path: list[int] = []


class Fight(msgspec.Struct, forbid_unknown_fields=True):
    """One combat on a Conflict Card's battlefield."""

    conflict: str
    cell: int
    foes: list[Foe]
    phase: str = CHARACTER
    round: int = 1
    discard: list[str] = []
    played: int = 0
    """Action Cards played this Character Phase (at most Action, W-CP-01)."""
    cur: list[str] = []
    """The card(s) of the current play, whose unused actions are still available."""
    move_mp: int = 0
    special_mp: int = 0
    active: str = ""
    """'move' or 'special' once that action has started; `left` is its remaining MP."""
    left: int = 0
    attack: bool = False
    attack_mod: int = 0
    crits: list[int] = []
    pushes: int = 0
    uses: dict[str, int] = {}
    """Attacks per weapon this Character Phase (attack rate, W-AK-02)."""
    reactions: int = 0
    """Reaction cards played this Enemy Phase (at most Reaction, W-CRx-01)."""
    reacted: bool = False
    """A reaction was played during the current enemy activation (at most one)."""
    martha_fs: int = 0
    """Martha's Dodge reduction after her First Strike, until the activation ends (W-CRx-04)."""
    tasks: list[Task] = []
    prompt: str = P_NONE
    pa: int = 0
    pb: int = 0
    pc: int = 0
    result: str = ""
    """'victory' or 'defeat' once an end condition is met (W-CB-07)."""


class State(msgspec.Struct, forbid_unknown_fields=True):
    """A Grimm World match. `fight` is None outside combat (the campaign modes of part 2)."""

    mode: str
    conflict: str
    chapter: int
    rng: int
    sheet: Sheet
    decks: Decks
    fight: Fight | None = None
    last_fate: int = 0
    steps: int = 0
    journey: Journey | None = None
    """The campaign outside combat (mode `campaign`); None in a skirmish."""
