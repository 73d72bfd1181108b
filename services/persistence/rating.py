"""The ratings maths the projection runs in the transaction that projects a match's finish.

Who is rated comes from the matchmaking library (`rated_teams`: human accounts by team, each team's
best rank) and the new values from its OpenSkill model (`update`). A match that can never be rated
(one account in two seats, a game this process does not host, a model result that is not finite) is
logged and left unrated: its finish is projected all the same, since the projection must never stall
on a rating.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import structlog

from gamehall.engine import GameError, all_games
from gamehall.matchmaking import Rating, update
from gamehall.matchmaking.errors import InvalidOutcome
from gamehall.matchmaking.rated import RatedMatch, RatedSeat, rated_teams
from gamehall.store.ratings import PlayerRating, RatedTeams, RatingUpdate
from gamehall.store.records import Seat

log = structlog.get_logger("gamehall.persistence.rating")


class FinishRater:
    """`gamehall.store.ratings.Rater` over the matchmaking library."""

    def __init__(self) -> None:
        all_games()  # the engines seat the teams: load them now (a fraction of a second), not in a finish's batch

    def teams(
        self, match_id: str, game: str, mode: str, seats: Sequence[Seat], ranks: Sequence[int]
    ) -> RatedTeams | None:
        match = RatedMatch(match_id, game, mode, tuple(RatedSeat(s.seat, s.kind, s.account_id or "") for s in seats))
        try:
            found = rated_teams(match, ranks)
        except (InvalidOutcome, GameError) as exc:
            log.warning("finished match not rated", match_id=match_id, game=game, reason=str(exc))
            return None
        if found is None:
            return None
        teams, team_ranks = found
        return RatedTeams(teams=tuple(tuple(t) for t in teams), ranks=tuple(team_ranks))

    def update(self, teams: RatedTeams, before: Mapping[str, PlayerRating]) -> Sequence[RatingUpdate] | None:
        current = {p: Rating(r.mu, r.sigma, r.matches) for p, r in before.items()}
        try:
            after = update(current, teams.teams, teams.ranks)
        except InvalidOutcome as exc:
            log.warning("finished match not rated", players=teams.players, reason=str(exc))
            return None
        if not all(math.isfinite(r.mu) and math.isfinite(r.sigma) and r.sigma > 0 for r in after.values()):
            log.warning("finished match not rated: the model gave a rating that is not finite", players=teams.players)
            return None
        return [
            RatingUpdate(account=p, expected_matches=before[p].matches if p in before else 0, mu=r.mu, sigma=r.sigma)
            for p, r in after.items()
        ]
