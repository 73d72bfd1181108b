"""Queue data: tickets (a player or a party), match shapes, the matching policy and the matches made."""

from __future__ import annotations

import math
from typing import Literal

import msgspec

from gamehall.engine.protocol import Mode
from gamehall.matchmaking.errors import InvalidTicket
from gamehall.matchmaking.ratings import Rating


class Member(msgspec.Struct, frozen=True, gc=False):
    """One player of a ticket with their rating in the ticket's (game, mode)."""

    player: str
    rating: Rating = Rating()


class Constraints(msgspec.Struct, frozen=True, gc=False):
    """What a ticket accepts: only tickets of the same `pool` (region, ruleset...); bot seats or not."""

    pool: str = ""
    allow_bots: bool = True


class Ticket(msgspec.Struct, frozen=True, gc=False):
    """A request to play one (game, mode): a solo player or a party that must stay together."""

    id: str
    game: str
    mode: str
    members: tuple[Member, ...]
    enqueued_at: float
    """Seconds on the caller's clock (the same clock as `now` in a matching pass)."""
    constraints: Constraints = Constraints()

    @property
    def size(self) -> int:
        return len(self.members)

    @property
    def mu(self) -> float:
        """The ticket's skill for windows: the mean mu of its members."""
        return sum(m.rating.mu for m in self.members) / len(self.members)

    def players(self) -> tuple[str, ...]:
        return tuple(m.player for m in self.members)


class MatchShape(msgspec.Struct, frozen=True):
    """How many teams a match has and how many seats each: 1v1 (2, 1), 4-seat FFA (4, 1), 2v2 (2, 2)."""

    teams: int
    team_size: int = 1

    def __post_init__(self) -> None:
        if self.teams < 1 or self.team_size < 1 or self.seats < 2:
            raise InvalidTicket(f"a match shape needs at least two seats, not {self.teams}x{self.team_size}")

    @property
    def seats(self) -> int:
        return self.teams * self.team_size

    @property
    def free_for_all(self) -> bool:
        return self.team_size == 1

    @classmethod
    def from_mode(cls, mode: Mode, seats: int) -> MatchShape:
        """The shape of an engine `Mode` at `seats` seats (team modes use `Mode.team_size`)."""
        if seats not in mode.seats:
            raise InvalidTicket(f"mode {mode.id} takes {list(mode.seats)} seats, not {seats}")
        size = mode.team_size or 1
        if seats % size:
            raise InvalidTicket(f"mode {mode.id}: {seats} seats do not split into teams of {size}")
        return cls(teams=seats // size, team_size=size)

    def check(self, ticket: Ticket) -> None:
        """Raise InvalidTicket if the ticket's party cannot sit in one match (one team in team modes)."""
        if not ticket.members:
            raise InvalidTicket(f"ticket {ticket.id} has no players")
        limit = self.seats if self.free_for_all else self.team_size
        if ticket.size > limit:
            raise InvalidTicket(f"a party of {ticket.size} does not fit a {self.teams}x{self.team_size} match")
        if ticket.size > 1 and len(set(ticket.players())) != ticket.size:
            raise InvalidTicket(f"ticket {ticket.id} lists a player twice")


class MatchPolicy(msgspec.Struct, frozen=True):
    """How picky a matching pass is; windows are gaps in mu (OpenSkill scale, default sigma 8.33).

    A ticket accepts opponents within `initial_window + growth_per_s * wait` (capped at
    `max_window`); after `max_wait_s` it takes any feasible match; after `bot_fill_after` seconds
    (None: never) a ticket left unmatched gets bot seats if it allows bots.
    """

    initial_window: float = 2.0
    growth_per_s: float = 0.15
    max_window: float = 12.0
    max_wait_s: float = 120.0
    bot_fill_after: float | None = None
    lookahead: int = 8
    """How many free neighbours (in rating order) a group may skip over; bounds the pass to O(n log n)."""

    def window(self, wait: float) -> float:
        """The acceptable mu gap after waiting `wait` seconds (infinite once starving)."""
        if wait >= self.max_wait_s:
            return math.inf
        return min(self.initial_window + self.growth_per_s * max(wait, 0.0), self.max_window)


class Seat(msgspec.Struct, frozen=True, gc=False):
    """One seat of a made match: a queued player (with its ticket) or a bot."""

    player: str | None
    ticket: str | None
    rating: Rating

    @property
    def bot(self) -> bool:
        return self.player is None


Reason = Literal["window", "max-wait", "bot-fill"]


class Match(msgspec.Struct, frozen=True, gc=False):
    """A match the pass made: its tickets, the seats grouped by team, its quality and why it was taken."""

    tickets: tuple[str, ...]
    teams: tuple[tuple[Seat, ...], ...]
    quality: float
    reason: Reason

    @property
    def bots(self) -> int:
        return sum(1 for team in self.teams for seat in team if seat.bot)


class PassResult(msgspec.Struct, frozen=True):
    """What a matching pass returns: the matches made and the tickets still waiting (input order)."""

    matches: list[Match]
    remaining: list[Ticket]
