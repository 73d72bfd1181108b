"""Stored documents → public protobuf messages."""

from __future__ import annotations

from collections.abc import Mapping

from gamehall.matches.clocks import ClockSpec
from gamehall.matchmaking import Rating
from gamehall.tournaments import standings
from gamehall.tournaments.model import Pairing
from gamehall.tournaments.standings import TIEBREAKS
from gamehall.wire.public import clock_to_proto, duration_ms, enum_value, timestamp
from gamehall_sdk.v1 import matchmaking_pb2, tournament_pb2
from gamehall_services.matchmaking.documents import TicketEntry, TournamentDoc, link_key

TICKET_STATES = {
    "queued": matchmaking_pb2.TICKET_STATUS_QUEUED,
    "matching": matchmaking_pb2.TICKET_STATUS_QUEUED,
    "matched": matchmaking_pb2.TICKET_STATUS_MATCHED,
    "cancelled": matchmaking_pb2.TICKET_STATUS_CANCELLED,
}


def ticket_to_proto(entry: TicketEntry) -> matchmaking_pb2.Ticket:
    t = entry.ticket
    return matchmaking_pb2.Ticket(
        id=t.id,
        game=t.game,
        mode=t.mode,
        players=list(t.players()),
        status=TICKET_STATES[entry.state],
        enqueue_time=timestamp(t.enqueued_at),
        match_id=entry.match_id,
        seats=entry.seats,
        allow_bots=t.constraints.allow_bots,
        pool=t.constraints.pool,
        submitted_by=entry.submitted_by,
    )


def rating_to_proto(game: str, mode: str, player: str, rating: Rating, rank: int = 0) -> matchmaking_pb2.Rating:
    return matchmaking_pb2.Rating(
        account_id=player,
        game=game,
        mode=mode,
        mu=rating.mu,
        sigma=rating.sigma,
        ordinal=rating.ordinal,
        matches=rating.matches,
        rank=rank,
    )


def tournament_to_proto(doc: TournamentDoc, revision: int) -> tournament_pb2.Tournament:
    """The tournament's settings, status and entrants (its pairings are listed apart: `pairing_to_proto`)."""
    t = doc.tournament
    cfg = t.config
    msg = tournament_pb2.Tournament(
        id=t.id,
        name=doc.name,
        game=cfg.game,
        mode=cfg.mode,
        format=enum_value(tournament_pb2.TournamentFormat, "TOURNAMENT_FORMAT", cfg.format),
        status=enum_value(tournament_pb2.TournamentStatus, "TOURNAMENT_STATUS", t.status),
        round=t.round,
        rounds_planned=t.rounds_planned,
        revision=revision,
        registration_open_time=timestamp(cfg.registration_opens),
        registration_close_time=timestamp(cfg.registration_closes),
        created_by=doc.created_by,
        seats=cfg.seats,
        pairing_count=len(t.pairings),
        clock=clock_to_proto(ClockSpec.from_json(doc.clock)),
        no_show_timeout=duration_ms(round(doc.no_show_s * 1000)),
    )
    for e in t.entrants:
        msg.entrants.add(
            player=e.player,
            seed=e.seed,
            checked_in=e.checked_in,
            dropped=e.dropped,
            rating=e.rating,
            display_name=e.name,
        )
    return msg


def pairing_to_proto(pairing: Pairing, match_ids: Mapping[str, str]) -> tournament_pb2.TournamentPairing:
    """One pairing with its match (`match_ids`: link key → match id, see `link_key`)."""
    p = pairing
    row = tournament_pb2.TournamentPairing(
        id=p.id, round=p.round, table=p.table, players=p.players, match_id=match_ids.get(link_key(p), "")
    )
    if p.result is not None:
        row.ranks.extend(p.result.ranks)
        row.forfeited.extend(p.result.forfeited)
        row.forfeit_reason = enum_value(tournament_pb2.ForfeitReason, "FORFEIT_REASON", p.result.reason)
        row.adjudicated = p.result.adjudicated
    return row


def standings_to_proto(doc: TournamentDoc, revision: int) -> tournament_pb2.Standings:
    t = doc.tournament
    msg = tournament_pb2.Standings(
        tournament_id=t.id,
        status=enum_value(tournament_pb2.TournamentStatus, "TOURNAMENT_STATUS", t.status),
        round=t.round,
        rounds_planned=t.rounds_planned,
        revision=revision,
        tiebreak_order=list(TIEBREAKS.get(t.config.format, ())),
    )
    names = {e.player: e.name for e in t.entrants}
    for row in standings(t):
        msg.rows.add(
            rank=row.rank,
            player=row.player,
            display_name=names.get(row.player, ""),
            points=row.points,
            tiebreaks=row.tiebreaks,
            games=row.games,
            wins=row.wins,
            dropped=row.dropped,
        )
    return msg
