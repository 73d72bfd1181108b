"""The service's views of stored things: tickets with their lifecycle, claimed matches, tournament documents.

Tickets and matches wrap the matchmaking library's `Ticket` and `Match`; a tournament document
wraps the tournament library's `Tournament` (itself msgspec data) with what only the service
knows (name, bot entrants, clocks). Which match plays which pairing is not in the document but
in its own table (store `link`), so a big tournament's document is not rewritten per match.
"""

from __future__ import annotations

import hashlib
import zlib
from typing import Literal

import msgspec

from gamehall.matchmaking import Match, Ticket
from gamehall.tournaments import Pairing, Tournament

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
    """A match a pass claimed tickets for; opened on its rules owner under `request_id` (idempotent)."""

    request_id: str
    mode: str
    match: Match
    claimed_at: float


class TournamentDoc(msgspec.Struct):
    """A tournament as stored: the library state plus names, clocks and bot entrants."""

    tournament: Tournament
    name: str
    created_by: str
    created_at: float
    no_show_s: float = 120.0
    clock: dict[str, int] = msgspec.field(default_factory=dict)
    bots: dict[str, str] = msgspec.field(default_factory=dict)
    """Bot entrant id → difficulty (their seats are bot seats, played by the ai service)."""
    bot_count: int = 0
    request_digest: str = ""
    """The digest of the CreateTournament request that made it under a request id ("" without one)."""
    requests: dict[str, str] = msgspec.field(default_factory=dict)
    """Request key (caller and request id, `gamehall.wire.idempotency.key`) → "<digest> <result>" of each
    RegisterPlayer / AdjudicatePairing made with a request id: written in the same change as its effect."""


_doc_decoder = msgspec.msgpack.Decoder(TournamentDoc)
_doc_encoder = msgspec.msgpack.Encoder()


def encode_doc(doc: TournamentDoc) -> bytes:
    """msgpack, deflated: player ids repeat through every round, so a 4,096-player Swiss shrinks ~10x."""
    return zlib.compress(_doc_encoder.encode(doc), 6)


def decode_doc(data: bytes) -> TournamentDoc:
    return _doc_decoder.decode(zlib.decompress(data))


def link_key(pairing: Pairing) -> str:
    """What a match link records for a pairing: its id and its players (a re-paired round reuses ids)."""
    digest = hashlib.sha256("|".join(pairing.players).encode()).hexdigest()[:12]
    return f"{pairing.id}/{digest}"
