"""Ratings: one `Ledger` per (game, mode) in the KV bucket, updated from finished matches exactly once.

The ledger holds the ratings AND the set of match ids already applied, so recording an outcome
and marking it applied is one compare-and-swap write: a redelivered or replayed finished event
finds its match id applied and changes nothing, whatever crashed in between.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import structlog

from gamehall.engine import GameError, get_game
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matchmaking import DEFAULT_RATING, Ledger, LedgerEntry, Rating, RatingChange, apply_outcome, leaderboard
from gamehall.runtime import metrics
from gamehall_services.matchmaking.kv import Documents, Unchanged

log = structlog.get_logger("gamehall.matchmaking.ratings")


def ledger_name(game: str, mode: str) -> str:
    return f"{game}.{mode}"


def rated_teams(match: ppb.MatchRecord, ranks: Sequence[int]) -> tuple[list[list[str]], list[int]] | None:
    """Teams of human accounts and each team's rank (its best seat's), or None when fewer than two
    teams have a human: bot seats are not rated, and a match against bots alone moves no rating."""
    config = json.loads(match.config_json or "{}")
    game = get_game(match.game)
    try:  # the engine seats its teams (Grimslingers 2v2: seats 0 and 2 against 1 and 3)
        layout = game.teams(game.configure(config.get("mode"), len(match.seats)))
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
    """Ledgers per (game, mode)."""

    def __init__(self, docs: Documents[Ledger]) -> None:
        self.docs = docs

    async def ledger(self, game: str, mode: str) -> Ledger:
        got = await self.docs.get(ledger_name(game, mode))
        return got[0] if got is not None else Ledger(game, mode)

    async def rating(self, game: str, mode: str, player: str) -> Rating:
        return (await self.ledger(game, mode)).ratings.get(player, DEFAULT_RATING)

    async def leaderboard(self, game: str, mode: str, limit: int) -> list[LedgerEntry]:
        return leaderboard(await self.ledger(game, mode), limit)

    async def apply(self, match: ppb.MatchRecord, ranks: Sequence[int]) -> list[RatingChange] | None:
        """Rate a finished match once; None when it is not rated or was already applied."""
        teams = rated_teams(match, ranks)
        if teams is None:
            return None
        mode = json.loads(match.config_json or "{}").get("mode", "")

        def rate(ledger: Ledger | None) -> tuple[Ledger, list[RatingChange]]:
            ledger = ledger or Ledger(match.game, mode)
            changes = apply_outcome(ledger, match.id, teams[0], teams[1])
            if changes is None:
                raise Unchanged()
            return ledger, changes

        try:
            _, changes, _ = await self.docs.mutate(ledger_name(match.game, mode), rate)
        except Unchanged:
            log.info("outcome already rated", match_id=match.id)
            return None
        metrics.RATINGS_APPLIED.labels(match.game, mode).inc()
        return changes
