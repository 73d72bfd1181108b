"""GrimmoiR actions. Characters are named by their card id; rows and columns are 1-based as in the book
(row 1 = "1st row" next to the opponent, row 2 = "2nd row"; columns 1..3, column 2 the centre)."""

from __future__ import annotations

from gamehall.engine import Action


class PickFaction(Action, tag="pick_faction", frozen=True):
    """Team formation: choose a main faction, or (third and fourth picks) a supporting faction."""

    faction: str


class DeclineSupport(Action, tag="decline_support", frozen=True):
    """Team formation: take no supporting faction (a 6/0 team)."""


class Recruit(Action, tag="recruit", frozen=True):
    """Team formation: add one character to your team of six."""

    character: str


class Place(Action, tag="place", frozen=True):
    """Display steps 1-4: place a character face up in your 1st row."""

    character: str
    column: int


class Arrange(Action, tag="arrange", frozen=True):
    """Display step 5: your last three characters face down in your 2nd row, columns 1, 2, 3."""

    characters: tuple[str, str, str]


class Attack(Action, tag="attack", frozen=True):
    attacker: str
    target: str


class Special(Action, tag="special", frozen=True):
    """Pay 1 coin, close the book, exhaust the character, then its special skill resolves."""

    character: str
    target: str | None = None


class Move(Action, tag="move", frozen=True):
    """Pay 1 coin to move a character into a blank space on your side."""

    character: str
    row: int
    column: int


class Swap(Action, tag="swap", frozen=True):
    """Pay 1 coin to swap the places of two of your characters."""

    first: str
    second: str


class Pass(Action, tag="pass", frozen=True):
    """Stop acting for the rest of this round."""


class ShiftColumn(Action, tag="shift_column", frozen=True):
    """AMB-2: both your side columns could shift to your empty centre; choose which one does."""

    column: int


ACTION_TYPES: tuple[type[Action], ...] = (
    PickFaction,
    DeclineSupport,
    Recruit,
    Place,
    Arrange,
    Attack,
    Special,
    Move,
    Swap,
    Pass,
    ShiftColumn,
)
