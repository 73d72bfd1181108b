"""Skill ratings over OpenSkill's Plackett-Luce model: 1v1, free-for-all and teams.

Plackett-Luce (Weng & Lin 2011, Algorithm 4) rates a full finishing order of any number of
teams in one update, handles ties, and is OpenSkill's recommended model; the Thurstone-Mosteller
variants need pairwise terms and gain nothing for our 1v1..6-seat matches. All functions are
pure; the matchmaking service stores the ratings and applies each match once (through the store).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from statistics import NormalDist

import msgspec
from openskill.models import PlackettLuce, PlackettLuceRating

from gamehall.matchmaking.errors import InvalidOutcome

MODEL = PlackettLuce()
"""The one model every rating uses (mu 25, sigma 25/3, beta 25/6, tau 25/300: OpenSkill defaults)."""

ORDINAL_Z = 3.0
"""The conservative rating is mu - 3 sigma: 99.7% sure the true skill is at least that."""


class Rating(msgspec.Struct, frozen=True, gc=False):
    """A player's skill belief in one (game, mode): mean, uncertainty and matches rated."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    matches: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative display rating (mu - 3 sigma); leaderboards order by it."""
        return self.mu - ORDINAL_Z * self.sigma


DEFAULT_RATING = Rating()


def ordinal(rating: Rating) -> float:
    """The conservative display rating of `rating` (mu - 3 sigma)."""
    return rating.ordinal


def _check(teams: Sequence[Sequence[str]], ranks: Sequence[float]) -> None:
    if len(teams) < 2:
        raise InvalidOutcome("a rated match needs at least two teams")
    if len(ranks) != len(teams):
        raise InvalidOutcome(f"{len(ranks)} ranks for {len(teams)} teams")
    seen: set[str] = set()
    for team in teams:
        if not team:
            raise InvalidOutcome("a team has no players")
        for player in team:
            if player in seen:
                raise InvalidOutcome(f"player {player!r} appears twice")
            seen.add(player)


def update(ratings: Mapping[str, Rating], teams: Sequence[Sequence[str]], ranks: Sequence[float]) -> dict[str, Rating]:
    """New ratings of every player in `teams` after a match; `ranks` per team, 1 is best, equal ranks tie.

    Players missing from `ratings` start at the default rating. Covers 1v1 (two one-player teams),
    free-for-all (N one-player teams) and teams (N teams of k).
    """
    _check(teams, ranks)
    current = [[ratings.get(p, DEFAULT_RATING) for p in team] for team in teams]
    rated = MODEL.rate(
        [[PlackettLuceRating(r.mu, r.sigma) for r in team] for team in current], ranks=[float(r) for r in ranks]
    )
    out: dict[str, Rating] = {}
    for team, old_team, new_team in zip(teams, current, rated, strict=True):
        for player, old, new in zip(team, old_team, new_team, strict=True):
            out[player] = Rating(new.mu, new.sigma, old.matches + 1)
    return out


def _team_moments(team: Sequence[Rating]) -> tuple[float, float]:
    return sum(r.mu for r in team), sum(r.sigma * r.sigma for r in team)


_PHI = NormalDist().cdf
_DRAW_MARGIN: dict[int, float] = {}


def draw_margin(players: int) -> float:
    """The model's draw margin for a match of `players` players (cached)."""
    margin = _DRAW_MARGIN.get(players)
    if margin is None:
        margin = math.sqrt(players) * MODEL.beta * NormalDist().inv_cdf((1 + 1 / players) / 2)
        _DRAW_MARGIN[players] = margin
    return margin


def predict_draw(teams: Sequence[Sequence[Rating]]) -> float:
    """Match quality: the model's draw probability (OpenSkill `predict_draw`), higher is fairer.

    Re-implemented over `Rating` with the same formula so the matcher can call it millions of
    times; tests compare it with OpenSkill's own.
    """
    players = sum(len(t) for t in teams)
    margin = draw_margin(players)
    two_beta2 = 2 * MODEL.beta * MODEL.beta
    moments = [_team_moments(t) for t in teams]
    total = 0.0
    pairs = 0
    for i in range(len(moments)):
        mu_a, var_a = moments[i]
        for j in range(i + 1, len(moments)):
            mu_b, var_b = moments[j]
            scale = math.sqrt(two_beta2 + var_a + var_b)
            total += _PHI((margin - mu_a + mu_b) / scale) - _PHI((mu_b - mu_a - margin) / scale)
            pairs += 1
    return total / pairs


def match_quality(teams: Sequence[Sequence[Rating]]) -> float:
    """The matcher's quality score of a proposed match: `predict_draw`."""
    return predict_draw(teams)


def predict_win(teams: Sequence[Sequence[Rating]]) -> list[float]:
    """Each team's probability of winning (OpenSkill `predict_win`), summing to 1."""
    return MODEL.predict_win([[PlackettLuceRating(r.mu, r.sigma) for r in team] for team in teams])


# ------------------------------------------------------------------ leaderboard rows and rating changes
class LedgerEntry(msgspec.Struct, frozen=True):
    """One row of a leaderboard."""

    rank: int
    player: str
    ordinal: float
    rating: Rating


class RatingChange(msgspec.Struct, frozen=True):
    """How one player's rating moved in one applied match."""

    player: str
    before: Rating
    after: Rating
