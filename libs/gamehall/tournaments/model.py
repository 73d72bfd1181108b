"""Tournament data as msgspec Structs: configuration, entrants, pairings, bracket slots, the tournament."""

from __future__ import annotations

from typing import Literal

import msgspec

Format = Literal["swiss", "single-elimination", "double-elimination", "round-robin", "pods"]
Status = Literal["registration", "running", "paused", "finished", "cancelled"]
Forfeit = Literal["", "no-show", "clock"]

BYE = "~bye"
"""The placeholder a bracket slot holds when no player will ever fill it."""


class TimeControl(msgspec.Struct, frozen=True):
    """Per-player clock of every match: base seconds plus increment per move."""

    base_s: int = 600
    increment_s: int = 5


class Scoring(msgspec.Struct, frozen=True):
    """Points per result. Two-seat formats use win/draw/loss; pods use `placement` (1st, 2nd, ...)."""

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    bye: float = 1.0
    """A Swiss bye scores a win; a pod bye scores `bye` too."""
    placement: tuple[float, ...] = (3.0, 2.0, 1.0, 0.0)


class TournamentConfig(msgspec.Struct, frozen=True):
    """What an operator fixes when creating a tournament."""

    game: str
    mode: str
    format: Format
    registration_opens: float
    registration_closes: float
    rounds: int = 0
    """Rounds for Swiss and pods (0: a default from the field size); ignored by the other formats."""
    seats: int = 2
    """Seats per match; more than 2 only with the `pods` format."""
    min_pod: int = 0
    """Smallest pod the game accepts (0: `seats`); leftover players get a bye."""
    time_control: TimeControl = TimeControl()
    max_players: int = 0
    """0: no limit."""
    check_in: bool = True
    """If true, only checked-in players start."""
    scoring: Scoring = Scoring()


class Entrant(msgspec.Struct):
    """A registered player: rating at registration, check-in, seed once started, dropped or not."""

    player: str
    rating: float
    registered_at: float
    checked_in: bool = False
    seed: int = 0
    dropped: bool = False
    name: str = ""
    """The username at registration, for display ("" for a bot entrant and in tournaments stored before it)."""


class Result(msgspec.Struct, frozen=True):
    """A pairing's result: a rank per seat (1 best, equal ranks tie); who forfeited and why."""

    ranks: tuple[int, ...]
    forfeited: tuple[str, ...] = ()
    reason: Forfeit = ""
    adjudicated: bool = False


class Pairing(msgspec.Struct):
    """One match of one round (players in seat order), or a bye (a single player, scored at once)."""

    id: str
    round: int
    table: int
    players: list[str]
    bracket: str = ""
    """Elimination only: the bracket match id it plays."""
    result: Result | None = None

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1


class BracketMatch(msgspec.Struct):
    """A slot pair of an elimination bracket; players fill in as earlier matches finish.

    `players` holds a player id, "" (not known yet) or BYE. `win_to`/`lose_to` name the match and
    slot the winner/loser moves to ("" when they leave the bracket).
    """

    id: str
    section: Literal["W", "L", "GF", "GF2"]
    round: int
    players: list[str]
    win_to: str = ""
    win_slot: int = 0
    lose_to: str = ""
    lose_slot: int = 0
    winner: str = ""
    loser: str = ""
    released: bool = False
    void: bool = False
    """The reset final that is not needed (the winners-bracket champion won the grand final)."""


class Tournament(msgspec.Struct):
    """The whole tournament; every transition in `machine` returns a new one (persist with `encode`)."""

    id: str
    config: TournamentConfig
    status: Status = "registration"
    entrants: list[Entrant] = msgspec.field(default_factory=list)
    round: int = 0
    rounds_planned: int = 0
    pairings: list[Pairing] = msgspec.field(default_factory=list)
    bracket: list[BracketMatch] = msgspec.field(default_factory=list)
    schedule: list[list[list[str]]] = msgspec.field(default_factory=list)
    """Round robin: the Berger schedule, round by round (a pair with BYE is a bye)."""
