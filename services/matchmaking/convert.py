"""Stored documents → public protobuf messages."""

from __future__ import annotations

from collections.abc import Mapping

from gamehall.matchmaking import Rating
from gamehall.tournaments import standings
from gamehall.tournaments.standings import TIEBREAKS
from gamehall.v1 import matchmaking_pb2 as pb
from gamehall_services.matchmaking.documents import TicketEntry, TournamentDoc, link_key

TICKET_STATES = {
    "queued": pb.TICKET_STATUS_QUEUED,
    "matching": pb.TICKET_STATUS_QUEUED,
    "matched": pb.TICKET_STATUS_MATCHED,
    "cancelled": pb.TICKET_STATUS_CANCELLED,
}


def ticket_to_proto(entry: TicketEntry) -> pb.Ticket:
    t = entry.ticket
    return pb.Ticket(
        id=t.id,
        game=t.game,
        mode=t.mode,
        players=list(t.players()),
        status=TICKET_STATES[entry.state],
        enqueued_unix_ms=int(t.enqueued_at * 1000),
        match_id=entry.match_id,
        seats=entry.seats,
        allow_bots=t.constraints.allow_bots,
        pool=t.constraints.pool,
        submitted_by=entry.submitted_by,
    )


def rating_to_proto(game: str, mode: str, player: str, rating: Rating, rank: int = 0) -> pb.Rating:
    return pb.Rating(
        account_id=player,
        game=game,
        mode=mode,
        mu=rating.mu,
        sigma=rating.sigma,
        ordinal=rating.ordinal,
        matches=rating.matches,
        rank=rank,
    )


def tournament_to_proto(doc: TournamentDoc, revision: int, match_ids: Mapping[str, str]) -> pb.Tournament:
    """The tournament with each pairing's match (`match_ids`: link key → match id, see `link_key`)."""
    t = doc.tournament
    cfg = t.config
    msg = pb.Tournament(
        id=t.id,
        name=doc.name,
        game=cfg.game,
        mode=cfg.mode,
        format=cfg.format,
        status=t.status,
        round=t.round,
        rounds_planned=t.rounds_planned,
        revision=revision,
        registration_opens_unix=int(cfg.registration_opens),
        registration_closes_unix=int(cfg.registration_closes),
        created_by=doc.created_by,
        seats=cfg.seats,
    )
    for e in t.entrants:
        msg.entrants.add(player=e.player, seed=e.seed, checked_in=e.checked_in, dropped=e.dropped, rating=e.rating)
    for p in t.pairings:
        row = msg.pairings.add(
            id=p.id, round=p.round, table=p.table, players=p.players, match_id=match_ids.get(link_key(p), "")
        )
        if p.result is not None:
            row.ranks.extend(p.result.ranks)
            row.forfeited.extend(p.result.forfeited)
            row.forfeit_reason = p.result.reason
            row.adjudicated = p.result.adjudicated
    return msg


def standings_to_proto(doc: TournamentDoc, revision: int) -> pb.Standings:
    t = doc.tournament
    msg = pb.Standings(
        tournament_id=t.id,
        status=t.status,
        round=t.round,
        rounds_planned=t.rounds_planned,
        revision=revision,
        tiebreak_order=list(TIEBREAKS.get(t.config.format, ())),
    )
    for row in standings(t):
        msg.rows.add(
            rank=row.rank,
            player=row.player,
            points=row.points,
            tiebreaks=row.tiebreaks,
            games=row.games,
            wins=row.wins,
            dropped=row.dropped,
        )
    return msg
