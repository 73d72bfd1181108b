"""Ratings: one row per (game, mode, player) in persistence; queues and leaderboards read them here.

A finished match is rated by persistence, in the transaction that projects its finish (ARCHITECTURE
rule 6), and its finished event says so (`ratings_settled`). Matchmaking rates only the finished
events of an older persistence: it reads the players' ratings, computes the new ones with the library
(OpenSkill Plackett-Luce) and records them in one persistence transaction that also marks the match
rated, so a redelivered event, or a match persistence rated meanwhile, changes nothing, and a rating
that moved in between makes the write stale: it is recomputed from fresh ratings, never overwritten.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import structlog

from gamehall.events.v1 import match_pb2 as epb
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matchmaking import LedgerEntry, Rating, RatingChange, update
from gamehall.matchmaking.rated import RatedMatch, RatedSeat, rated_teams
from gamehall.runtime import metrics
from gamehall_services.matchmaking.store_client import MatchmakingStore, Stale

log = structlog.get_logger("gamehall.matchmaking.ratings")
MAX_ATTEMPTS = 16


def match_of_record(record: ppb.MatchRecord) -> RatedMatch:
    mode = record.mode or json.loads(record.config_json or "{}").get("mode", "")
    seats = tuple(RatedSeat(int(s.seat), s.kind, s.account_id) for s in record.seats)
    return RatedMatch(record.id, record.game, mode, seats)


def match_of_event(event: epb.MatchEvent) -> RatedMatch:
    """From a finished event that carries its seats (`event.finished.seats`)."""
    seats = tuple(RatedSeat(int(s.seat), s.kind, s.account_id) for s in event.finished.seats)
    return RatedMatch(event.match_id, event.game, event.finished.mode, seats)


def _rated(match: RatedMatch | ppb.MatchRecord) -> RatedMatch:
    return match if isinstance(match, RatedMatch) else match_of_record(match)


class Ratings:
    """Ratings per (game, mode), read and written through the matchmaking store."""

    def __init__(self, store: MatchmakingStore) -> None:
        self.store = store

    async def rating(self, game: str, mode: str, player: str) -> Rating:
        return (await self.store.ratings(game, mode, [player]))[player]

    async def ratings(self, game: str, mode: str, players: Sequence[str]) -> dict[str, Rating]:
        return await self.store.ratings(game, mode, players)

    async def leaderboard(self, game: str, mode: str, limit: int) -> list[LedgerEntry]:
        rows = await self.store.leaderboard(game, mode, limit)
        return [LedgerEntry(k + 1, player, r.ordinal, r) for k, (player, r) in enumerate(rows)]

    async def apply(self, match: RatedMatch | ppb.MatchRecord, ranks: Sequence[int]) -> list[RatingChange] | None:
        """Rate a finished match once (an older persistence's event); None when it is not rated or was rated
        already."""
        match = _rated(match)
        teams = rated_teams(match, ranks)
        if teams is None:
            return None
        mode = match.mode
        players = [p for team in teams[0] for p in team]
        for _ in range(MAX_ATTEMPTS):
            before = await self.store.ratings(match.game, mode, players)
            after = update(before, teams[0], teams[1])
            try:
                recorded = await self.store.record_ratings(match.id, match.game, mode, before, after)
            except Stale:
                continue  # a rating moved under us: recompute from fresh values
            if not recorded:
                log.info("outcome already rated", match_id=match.id)
                return None
            metrics.RATINGS_APPLIED.labels(match.game, mode).inc()
            return [RatingChange(p, before[p], after[p]) for p in players]
        raise RuntimeError(f"could not rate match {match.id}: its players' ratings kept changing")
