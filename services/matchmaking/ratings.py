"""Ratings: one row per (game, mode, player) in persistence, updated from finished matches exactly once.

Rating a match reads its players' ratings, computes the new ones with the library (OpenSkill
Plackett-Luce) and records them in one persistence transaction that also marks the match rated:
a redelivered or replayed finished event finds it rated and changes nothing, and a player whose
rating moved in between (another match of theirs finished at the same moment) makes the write
stale, so it is recomputed from fresh ratings instead of overwriting.

The ratings this replica last wrote are remembered, so a player's next match is rated without a read:
the write names the match count it expects, and a rating another replica moved meanwhile makes it
stale, after which it is read afresh. Queues and leaderboards always read the store.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import structlog
from cachetools import LRUCache

from gamehall.engine import GameError, get_game
from gamehall.events.v1 import match_pb2 as epb
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matchmaking import LedgerEntry, Rating, RatingChange, update
from gamehall.matchmaking.errors import InvalidOutcome
from gamehall.runtime import metrics
from gamehall_services.matchmaking.store_client import MatchmakingStore, Stale

log = structlog.get_logger("gamehall.matchmaking.ratings")
MAX_ATTEMPTS = 16
REMEMBERED = 100_000
"""Ratings this replica wrote and keeps for rating the same players' next matches without a read."""


class SharedSeats(InvalidOutcome):
    """One account held two seats of a finished match: no rating can say who beat whom, so it is not rated.

    The seat rule belongs to the match library (one account, one seat, unless a documented hot-seat
    option says otherwise); this is the rating side's defence (issue 20, finding 2)."""


class RatedSeat(NamedTuple):
    seat: int
    kind: str
    account_id: str


@dataclass(frozen=True)
class RatedMatch:
    """What rating a finished match needs: its id, game, mode and who held each seat."""

    id: str
    game: str
    mode: str
    seats: tuple[RatedSeat, ...]

    @classmethod
    def of_record(cls, record: ppb.MatchRecord) -> RatedMatch:
        mode = record.mode or json.loads(record.config_json or "{}").get("mode", "")
        seats = tuple(RatedSeat(int(s.seat), s.kind, s.account_id) for s in record.seats)
        return cls(record.id, record.game, mode, seats)

    @classmethod
    def of_event(cls, event: epb.MatchEvent) -> RatedMatch:
        """From a finished event that carries its seats (`event.finished.seats`)."""
        seats = tuple(RatedSeat(int(s.seat), s.kind, s.account_id) for s in event.finished.seats)
        return cls(event.match_id, event.game, event.finished.mode, seats)


def _rated(match: RatedMatch | ppb.MatchRecord) -> RatedMatch:
    return match if isinstance(match, RatedMatch) else RatedMatch.of_record(match)


def ledger_name(game: str, mode: str) -> str:
    return f"{game}.{mode}"


def rated_teams(match: RatedMatch | ppb.MatchRecord, ranks: Sequence[int]) -> tuple[list[list[str]], list[int]] | None:
    """Teams of human accounts and each team's rank (its best seat's), or None when fewer than two
    teams have a human: bot seats are not rated, and a match against bots alone moves no rating."""
    match = _rated(match)
    humans = [s.account_id for s in match.seats if s.kind == "human" and s.account_id]
    shared = sorted({a for a in humans if humans.count(a) > 1})
    if shared:
        raise SharedSeats(f"match {match.id}: account {shared[0][:64]!r} held {humans.count(shared[0])} seats")
    game = get_game(match.game)
    try:  # the engine seats its teams (Grimslingers 2v2: seats 0 and 2 against 1 and 3)
        layout = game.teams(game.configure(match.mode or None, len(match.seats)))
        team_of = {seat: k for k, team in enumerate(layout) for seat in team}
    except GameError:
        team_of = {}
    teams: dict[int, list[str]] = {}
    best: dict[int, int] = {}
    for seat in match.seats:
        if seat.kind != "human" or not seat.account_id or seat.seat >= len(ranks):
            continue
        team = team_of.get(int(seat.seat), int(seat.seat))
        teams.setdefault(team, []).append(seat.account_id)
        best[team] = min(best.get(team, ranks[seat.seat]), ranks[seat.seat])
    if len(teams) < 2:
        return None
    order = sorted(teams)
    return [teams[t] for t in order], [best[t] for t in order]


class Ratings:
    """Ratings per (game, mode), read and written through the matchmaking store."""

    def __init__(self, store: MatchmakingStore, remembered: int = REMEMBERED) -> None:
        self.store = store
        self._written: LRUCache[tuple[str, str, str], Rating] = LRUCache(maxsize=remembered)

    async def rating(self, game: str, mode: str, player: str) -> Rating:
        return (await self.store.ratings(game, mode, [player]))[player]

    async def ratings(self, game: str, mode: str, players: Sequence[str]) -> dict[str, Rating]:
        return await self.store.ratings(game, mode, players)

    def _remembered(self, game: str, mode: str, players: Sequence[str]) -> dict[str, Rating] | None:
        """Every player's rating as this replica last wrote it, or None when one of them is not held."""
        found = {p: self._written.get((game, mode, p)) for p in players}
        if any(r is None for r in found.values()):
            return None
        return {p: r for p, r in found.items() if r is not None}

    def _forget(self, game: str, mode: str, players: Sequence[str]) -> None:
        for player in players:
            self._written.pop((game, mode, player), None)

    async def leaderboard(self, game: str, mode: str, limit: int) -> list[LedgerEntry]:
        rows = await self.store.leaderboard(game, mode, limit)
        return [LedgerEntry(k + 1, player, r.ordinal, r) for k, (player, r) in enumerate(rows)]

    async def apply(self, match: RatedMatch | ppb.MatchRecord, ranks: Sequence[int]) -> list[RatingChange] | None:
        """Rate a finished match once; None when it is not rated or was already applied."""
        match = _rated(match)
        teams = rated_teams(match, ranks)
        if teams is None:
            return None
        mode = match.mode
        players = [p for team in teams[0] for p in team]
        for attempt in range(MAX_ATTEMPTS):
            before = (self._remembered(match.game, mode, players) if attempt == 0 else None) or (
                await self.store.ratings(match.game, mode, players)
            )
            after = update(before, teams[0], teams[1])
            try:
                recorded = await self.store.record_ratings(match.id, match.game, mode, before, after)
            except Stale:
                self._forget(match.game, mode, players)
                continue  # a rating moved under us: recompute from fresh values
            if not recorded:
                self._forget(match.game, mode, players)  # rated elsewhere: what we hold may be behind
                log.info("outcome already rated", match_id=match.id)
                return None
            for player in players:
                self._written[(match.game, mode, player)] = after[player]
            metrics.RATINGS_APPLIED.labels(match.game, mode).inc()
            return [RatingChange(p, before[p], after[p]) for p in players]
        raise RuntimeError(f"could not rate match {match.id}: its players' ratings kept changing")
