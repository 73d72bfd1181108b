"""The stored documents of the service (msgpack in the KV bucket): a game's queue and a tournament.

Queue documents wrap the library's `Ticket` and `Match`; tournament documents wrap the library's
`Tournament` (itself msgspec data) with what only the service knows: the match of each pairing.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from gamehall.matchmaking import Match, Ticket
from gamehall.tournaments import Tournament

TicketState = Literal["queued", "matching", "matched", "cancelled"]


class TicketEntry(msgspec.Struct):
    """One ticket with its lifecycle: queued → matching (claimed by a pass) → matched, or cancelled."""

    ticket: Ticket
    submitted_by: str
    state: TicketState = "queued"
    match_id: str = ""
    seats: list[int] = msgspec.field(default_factory=list)
    closed_at: float = 0.0


class PendingMatch(msgspec.Struct):
    """A match a pass claimed tickets for; created through the gateway under `request_id` (idempotent)."""

    request_id: str
    mode: str
    match: Match
    claimed_at: float


class QueueDoc(msgspec.Struct):
    """Every ticket of one game (all modes): one key, so one CAS claims all tickets of a match at once."""

    game: str
    tickets: dict[str, TicketEntry] = msgspec.field(default_factory=dict)
    pending: list[PendingMatch] = msgspec.field(default_factory=list)

    def waiting(self, mode: str | None = None) -> list[Ticket]:
        """Queued tickets (of one mode) in enqueue order."""
        rows = [e.ticket for e in self.tickets.values() if e.state == "queued"]
        rows = [t for t in rows if mode is None or t.mode == mode]
        return sorted(rows, key=lambda t: (t.enqueued_at, t.id))

    def holder_of(self, player: str) -> TicketEntry | None:
        """The open (queued or matching) ticket holding `player`, if any: one queue per game per player."""
        for entry in self.tickets.values():
            if entry.state in ("queued", "matching") and player in entry.ticket.players():
                return entry
        return None


class PairingMatch(msgspec.Struct):
    """The platform match playing a tournament pairing."""

    match_id: str
    created_at: float


class TournamentDoc(msgspec.Struct):
    """A tournament as stored: the library state plus names, bot entrants and the pairing → match map."""

    tournament: Tournament
    name: str
    created_by: str
    created_at: float
    no_show_s: float = 120.0
    clock: dict[str, int] = msgspec.field(default_factory=dict)
    bots: dict[str, str] = msgspec.field(default_factory=dict)
    """Bot entrant id → difficulty (their seats are bot seats, played by the ai service)."""
    matches: dict[str, PairingMatch] = msgspec.field(default_factory=dict)
    bot_count: int = 0


class MatchLink(msgspec.Struct):
    """Which tournament pairing a platform match plays (looked up when the match finishes)."""

    tournament_id: str
    pairing_id: str
