"""The GrimmoiR match state: compact msgspec Structs of ints, lists and one small unit record.

The battlefield is a flat list of 12 slots: ``seat * 6 + row * 3 + col`` with row 0 the
front ("1st row") and row 1 the back ("2nd row"), columns 0..2 numbered alike for both
seats (column 1 is the centre). A slot holds a `Unit` or None (a blank space).
"""

from __future__ import annotations

from enum import IntEnum

import msgspec


class Phase(IntEnum):
    """Where the duel is, in the rulebook's order (a match only moves forward through them).

    Snapshots store the int value (so their values must never change); views carry the lower-case name.
    """

    DRAFT = 0
    RECRUIT = 1
    DISPLAY = 2
    ARRANGE = 3
    BATTLE = 4
    OVER = 5


PHASE_NAMES: tuple[str, ...] = tuple(p.name.lower() for p in Phase)
"""The view's `phase` of each Phase, by value ("draft" .. "over")."""

NO_BOOK, BOOK_OPEN, BOOK_CLOSED = 0, 1, 2
FRONT, BACK = 0, 1
CENTRE = 1
SIDE_COLUMNS = (0, 2)
NOBODY = -1
DRAW = 2
"""`State.winner` value when both sides fell at once (AMB-6 default reading)."""

DISPLAY_STEPS: tuple[tuple[str, bool], ...] = (
    ("A", True),
    ("B", False),
    ("C", False),
    ("D", True),
    ("E", True),
    ("F", False),
)
"""The display positions A-F in book order, each with whether the initiative player places it."""


class Rules(msgspec.Struct, frozen=True, array_like=True):
    """Rule flags and options fixed at match creation (see flags.py for their meaning)."""

    faction_exclusivity: str = "all"
    shift_choice: str = "owner"
    swap_columns: str = "every_destination"
    back_row_moves: bool = True
    coin_refill: str = "top_up"
    simultaneous_elimination: str = "draw"
    team_secrecy: str = "open"
    max_rounds: int = 60


class Unit(msgspec.Struct, array_like=True):
    """A character on the battlefield with its counters; its position is its slot."""

    card: int
    wounds: int = 0
    plus: int = 0
    minus: int = 0
    exhausted: bool = False
    book: int = NO_BOOK
    pens: int = 0


class State(msgspec.Struct, array_like=True):
    rules: Rules
    rng: int
    phase: Phase
    first: int
    """The seat that had the first-player card at setup ("P1" of the draft and the display)."""
    initiative: int
    """The seat holding the first-player card now."""
    step: int
    """Draft: 0..3 (P1 main, P2 main, P1 supporting, P2 supporting). Display: 0..5 (A..F)."""
    mains: list[int]
    supports: list[int]
    """Supporting faction per seat, or -1 (none chosen, or declined)."""
    teams: list[list[int]]
    """Recruited cards per seat, in recruitment order."""
    hands: list[list[int]]
    """Team cards not yet placed, sorted."""
    arranged: list[list[int]]
    """Step 5: the cards a seat committed face down for back-row columns 0..2 ([] = not yet)."""
    board: list[Unit | None]
    fallen: list[list[int]]
    coins: list[int]
    turn: int
    passed: list[bool]
    round: int
    pending_shift: int
    """A seat that must choose which side column shifts to its empty centre (AMB-2), or -1."""
    round_ending: bool
    """End-of-round effects are resolved and the round is closing (a shift choice interrupted it)."""
    winner: int = NOBODY
    end_reason: str = ""


def slot_of(seat: int, row: int, col: int) -> int:
    return seat * 6 + row * 3 + col


def new_board() -> list[Unit | None]:
    return [None] * 12
