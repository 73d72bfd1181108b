"""Matchmaking store records <-> MatchmakingStoreService protobuf messages (times as unix ms; '' means None)."""

from __future__ import annotations

from gamehall.internal.v1 import matchmaking_store_pb2 as pb
from gamehall.store import PlayerRating, QueueTicket, TournamentMatch, TournamentResult, TournamentRow
from gamehall.store.tickets import PendingMatch
from gamehall_services.persistence.records import unix_ms


def ticket_to_proto(t: QueueTicket) -> pb.StoredTicket:
    return pb.StoredTicket(
        id=t.id,
        game=t.game,
        mode=t.mode,
        state=t.state,
        ticket=t.ticket,
        submitted_by=t.submitted_by,
        players=list(t.players),
        enqueued_at=t.enqueued_at,
        match_request=t.match_request or "",
        match_id=t.match_id or "",
        seats=list(t.seats),
        created_unix_ms=unix_ms(t.created_at),
        closed_unix_ms=unix_ms(t.closed_at),
    )


def pending_to_proto(p: PendingMatch) -> pb.PendingMatchRecord:
    return pb.PendingMatchRecord(
        request_id=p.request_id,
        game=p.game,
        mode=p.mode,
        match=p.match,
        ticket_ids=list(p.tickets),
        claimed_unix_ms=unix_ms(p.claimed_at),
    )


def rating_to_proto(r: PlayerRating) -> pb.RatingRecord:
    return pb.RatingRecord(
        game=r.game,
        mode=r.mode,
        account=r.account,
        mu=r.mu,
        sigma=r.sigma,
        matches=r.matches,
        updated_unix_ms=unix_ms(r.updated_at),
    )


def tournament_to_proto(t: TournamentRow) -> pb.TournamentRecord:
    return pb.TournamentRecord(
        id=t.id,
        name=t.name,
        game=t.game,
        mode=t.mode,
        format=t.format,
        status=t.status,
        revision=t.revision,
        doc=t.doc,
        created_by=t.created_by,
        created_unix_ms=unix_ms(t.created_at),
        updated_unix_ms=unix_ms(t.updated_at),
    )


def link_to_proto(m: TournamentMatch) -> pb.TournamentMatchRecord:
    return pb.TournamentMatchRecord(
        match_id=m.match_id,
        tournament_id=m.tournament_id,
        round=m.round,
        pairing_id=m.pairing_id,
        created_unix_ms=unix_ms(m.created_at),
    )


def result_to_proto(r: TournamentResult) -> pb.TournamentResultRecord:
    return pb.TournamentResultRecord(
        match_id=r.match_id,
        tournament_id=r.tournament_id,
        pairing_id=r.pairing_id,
        round=r.round,
        ranks=list(r.ranks),
        reason=r.reason,
        recorded_unix_ms=unix_ms(r.recorded_at),
    )
