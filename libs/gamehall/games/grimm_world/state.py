"""The Grimm World state: Martha's sheet and the decks live outside any fight (part 2 adds the campaign around them)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

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



class FightPhase(StrEnum):
    """Where a combat round is: Martha's Character Phase, the Enemy Phase, or the fight is over (W-CB-*).

    The values are the strings snapshots, views and `phase` events have always carried, so stored matches load
    unchanged; being a `str`, a member compares equal to its string.
    """

    CHARACTER = "character"
    ENEMY = "enemy"
    OVER = "over"


COLORS = ("yellow", "turquoise", "black", "pink")
"""The four Hit Point Cards and figure colours (W-CO-06), in placement order."""


def _doc(text: str) -> msgspec.Meta:
    """A field description for the view schema (the state's records are embedded in the views)."""
    return msgspec.Meta(description=text)


class Sheet(msgspec.Struct, forbid_unknown_fields=True):
    """Martha's character sheet: everything that survives a fight (upgrades, items, cards, alignment, purse)."""

    character: Annotated[str, _doc("The character card key.")]
    upgrades: Annotated[list[str], _doc("Upgrade keys bought.")]
    skills: Annotated[list[str], _doc("Skill keys learned.")]
    equipped: Annotated[list[str], _doc("Item keys equipped (worn or in hand).")]
    stored: Annotated[list[str], _doc("Item keys carried in the bag, not equipped.")]
    hand: Annotated[list[str], _doc("Healthy Action Cards in hand.")]
    damaged: Annotated[list[str], _doc("Action Cards under the Damage Card.")] = []
    broken: Annotated[list[str], _doc("Item keys held broken (unusable until repaired).")] = []
    goods: Annotated[list[str], _doc("Encounter Cards held as goods (out of the deck while held, W-ED-04).")] = []
    alignment: Annotated[int, _doc("The alignment track position.")] = 1
    thalers: Annotated[int, _doc("Money.")] = 0
    bag: Annotated[int, _doc("Item capacity of the storage card (0: the character's own bag, W-IT-10).")] = 0
    ally: Annotated[str, _doc("The ally who fights beside Martha ('' for none; W-CO-06, designed).")] = ""


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
    """An enemy figure on the battlefield with its Hit Point Card (HP and reaction chain).

    Encoded as an array in field order: [number, color, cell, hp, spent, order, fs, ddg, blk]."""

    number: Annotated[str, _doc("The Enemy Card number.")]
    color: Annotated[str, _doc("Its figure and Hit Point Card colour.")]
    cell: Annotated[int, _doc("Its battlefield cell (y * width + x).")]
    hp: Annotated[int, _doc("Hit points left.")]
    spent: Annotated[bool, _doc("It has activated this Enemy Phase.")] = False
    order: Annotated[int, _doc("Its row in the placement table (AMB-14's last tie-break).")] = 0
    fs: Annotated[
        int, _doc("Dodge reduction after its First Strike, until Martha's current cards resolve (W-ER-04, AMB-5).")
    ] = 0
    ddg: Annotated[int, _doc("Dodge bonus of a Dodge reaction for the attack in progress.")] = 0
    blk: Annotated[int, _doc("Armor bonus of a Block reaction for the attack in progress.")] = 0


class Ally(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """Martha's ally on the battlefield (W-CO-06, designed: see ally.py). Encoded as [key, cell]."""

    key: Annotated[str, _doc("The ally's key.")]
    cell: Annotated[int, _doc("Its battlefield cell (y * width + x).")]


class Task(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """One automated step still to run (a stack: enemy activations, attacks, reactions, damage, refresh).

    Encoded as an array in field order: [kind, a, b, c, d, s, path]; the engine's bookkeeping, which clients
    may ignore."""

    kind: Annotated[str, _doc("The step, e.g. enemy_phase, enemy_move, enemy_attack, damage, refresh.")]
    a: Annotated[int, _doc("The step's first argument (usually the enemy index).")] = 0
    b: Annotated[int, _doc("The step's further integer arguments.")] = 0
    c: int = 0
    d: int = 0
    s: Annotated[str, _doc("The step's text argument.")] = ""
    path: Annotated[list[int], _doc("The step's list argument (a movement's cells, an attack's crit numbers).")] = []


class Fight(msgspec.Struct, forbid_unknown_fields=True):
    """One combat on a Conflict Card's battlefield."""

    conflict: Annotated[str, _doc("The Conflict Card fought.")]
    cell: Annotated[int, _doc("Martha's battlefield cell (y * width + x).")]
    foes: Annotated[list[Foe], _doc("The enemy figures, in placement order (an action's `enemy` indexes this).")]
    phase: Annotated[str, _doc("'character' (Martha's phase), 'enemy' or 'over'.")] = FightPhase.CHARACTER
    """A FightPhase; typed `str` so the published view schema stays what it was (a decoded state holds the plain
    string, which compares equal to its FightPhase member)."""
    round: Annotated[int, _doc("The combat round.")] = 1
    discard: Annotated[list[str], _doc("Action Cards in the discard pile.")] = []
    played: Annotated[int, _doc("Action Cards played this Character Phase (at most Action, W-CP-01).")] = 0
    cur: Annotated[list[str], _doc("The card(s) of the current play, whose unused actions are still available.")] = []
    move_mp: Annotated[int, _doc("Movement points of the current play not yet used.")] = 0
    special_mp: Annotated[int, _doc("Special-move points of the current play not yet used.")] = 0
    active: Annotated[str, _doc("'move' or 'special' once that action has started (`left` MP remain); else ''.")] = ""
    left: Annotated[int, _doc("MP left of the action in progress.")] = 0
    attack: Annotated[bool, _doc("The current play's attack is still available.")] = False
    attack_mod: Annotated[int, _doc("The current play's attack modifier.")] = 0
    crits: Annotated[list[int], _doc("Extra crit numbers the current play adds.")] = []
    pushes: Annotated[int, _doc("Pushes the current play may still make.")] = 0
    uses: Annotated[dict[str, int], _doc("Attacks per weapon this Character Phase (attack rate, W-AK-02).")] = {}
    reactions: Annotated[int, _doc("Reaction cards played this Enemy Phase (at most Reaction, W-CRx-01).")] = 0
    reacted: Annotated[bool, _doc("A reaction was played during the current enemy activation (at most one).")] = False
    martha_fs: Annotated[
        int, _doc("Martha's Dodge reduction after her First Strike, until the activation ends (W-CRx-04).")
    ] = 0
    tasks: Annotated[list[Task], _doc("Automated steps still to run; the last one runs next.")] = []
    prompt: Annotated[
        str,
        _doc(
            "The decision the engine waits for: '' free play in the Character Phase, 'equip', 'retreat', "
            "'retreat_move', 'attacked', 'first_strike', 'damage' or 'refresh'."
        ),
    ] = P_NONE
    pa: Annotated[int, _doc("The prompt's first argument (the enemy index for retreat/attacked/first_strike).")] = 0
    pb: Annotated[int, _doc("The prompt's second argument (e.g. Retreat MP left, attack modifier).")] = 0
    pc: Annotated[int, _doc("The prompt's third argument (a Retreat: her distance to the enemy when it began).")] = 0
    result: Annotated[str, _doc("'victory' or 'defeat' once an end condition is met (W-CB-07); else ''.")] = ""
    ally: Annotated[Ally | None, _doc("Martha's ally figure, if she has one (W-CO-06, designed).")] = None


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
    round_limit: int = 0
    """Rule flag `round_limit`: a fight still on after this many combat rounds is lost. 0 (the default) is the
    book's rule: a fight ends only by its Conflict Card's win and loss conditions (W-CB-07)."""
