"""Martha's choices: the only decisions a player makes (enemies are automated)."""

from __future__ import annotations

from gamehall.engine import Action


class Play(Action, tag="play", frozen=True):
    """Play one Action Card, or several combined (identical actions add up, W-CP-04)."""

    cards: tuple[str, ...]


class Step(Action, tag="step", frozen=True):
    """Move one space (up/down/left/right) with the current play's Move MP, or its Special Skill MP."""

    dir: str
    special: bool = False


class Attack(Action, tag="attack", frozen=True):
    """Attack enemy `target` (its index) with an equipped weapon or 'fists'."""

    target: int
    weapon: str


class Push(Action, tag="push", frozen=True):
    """Push an adjacent enemy one space away (W-PU-01)."""

    target: int


class Reequip(Action, tag="reequip", frozen=True):
    """Play `card` ignoring its symbols to change the hand-slot items and accessories worn (W-RQ-01): `hands` and
    `accessories` are what Martha wears afterwards (armour stays); card '' is the free re-equip of character
    initiative (W-CB-05)."""

    card: str
    hands: tuple[str, ...]
    accessories: tuple[str, ...] = ()


class EndPhase(Action, tag="end_phase", frozen=True):
    """Stop playing cards this Character Phase."""


class React(Action, tag="react", frozen=True):
    """Play `card`'s reaction (light-blue area); `weapon` for a First Strike."""

    card: str
    weapon: str = ""


class Decline(Action, tag="decline", frozen=True):
    """Let the moment pass (no reaction, no free re-equip)."""


class Wound(Action, tag="wound", frozen=True):
    """Put this Action Card (from the hand or the discard pile) under the Damage Card."""

    card: str


class Recover(Action, tag="recover", frozen=True):
    """Take this card back from the discard pile in the Refresh Phase."""

    card: str


class Stop(Action, tag="stop", frozen=True):
    """End a Retreat reaction's movement."""


class Pick(Action, tag="pick", frozen=True):
    """Campaign: choose option `n` of the menu the exploration is waiting on (travel, checks, trading...)."""

    n: int


ACTION_TYPES: tuple[type[Action], ...] = (
    Play, Step, Attack, Push, Reequip, EndPhase, React, Decline, Wound, Recover, Stop, Pick,
)
