"""Ratings: agreement with OpenSkill's reference results, and the strongest player rising to the top."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from gamehall.matchmaking import (
    DEFAULT_RATING,
    InvalidOutcome,
    Rating,
    predict_draw,
    predict_win,
    update,
)

REFERENCE = PlackettLuce()


def _reference(ratings: dict[str, Rating], teams: list[list[str]], ranks: list[int]) -> dict[str, tuple[float, float]]:
    """The same update computed by OpenSkill directly."""
    rated = REFERENCE.rate(
        [[REFERENCE.rating(mu=ratings[p].mu, sigma=ratings[p].sigma) for p in team] for team in teams],
        ranks=[float(r) for r in ranks],
    )
    return {p: (r.mu, r.sigma) for team, new in zip(teams, rated, strict=True) for p, r in zip(team, new, strict=True)}


def _check_against_reference(ratings: dict[str, Rating], teams: list[list[str]], ranks: list[int]) -> None:
    ours = update(ratings, teams, ranks)
    theirs = _reference(ratings, teams, ranks)
    assert set(ours) == set(theirs)
    for player, (mu, sigma) in theirs.items():
        assert ours[player].mu == pytest.approx(mu, rel=1e-12)
        assert ours[player].sigma == pytest.approx(sigma, rel=1e-12)
        assert ours[player].matches == ratings[player].matches + 1


def test_one_on_one_matches_openskill() -> None:
    ratings = {"a": Rating(25.0, 8.3), "b": Rating(30.0, 4.0, 12)}
    _check_against_reference(ratings, [["a"], ["b"]], [1, 2])
    new = update(ratings, [["a"], ["b"]], [1, 2])
    assert new["a"].mu > 25.0 and new["b"].mu < 30.0


def test_free_for_all_and_teams_match_openskill() -> None:
    rng = random.Random(3)
    players = {f"p{k}": Rating(rng.uniform(15, 35), rng.uniform(2, 8.3), rng.randrange(20)) for k in range(8)}
    _check_against_reference(players, [["p0"], ["p1"], ["p2"], ["p3"]], [2, 1, 4, 3])
    _check_against_reference(players, [["p0", "p1"], ["p2", "p3"]], [1, 2])
    _check_against_reference(players, [["p0", "p1"], ["p2", "p3"], ["p4", "p5"], ["p6", "p7"]], [3, 1, 2, 4])
    _check_against_reference(players, [["p0"], ["p1"], ["p2"]], [1, 1, 3])


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.lists(st.tuples(st.floats(0, 50), st.floats(0.5, 10)), min_size=1, max_size=3), min_size=2, max_size=5)
)
def test_predict_draw_equals_openskill(teams: list[list[tuple[float, float]]]) -> None:
    ours = predict_draw([[Rating(mu, sigma) for mu, sigma in team] for team in teams])
    theirs = REFERENCE.predict_draw([[REFERENCE.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams])
    assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-12)


def test_predict_win_sums_to_one_and_favours_the_stronger() -> None:
    odds = predict_win([[Rating(30, 2)], [Rating(20, 2)]])
    assert sum(odds) == pytest.approx(1.0)
    assert odds[0] > 0.5


def test_a_player_who_beats_everyone_ends_on_top() -> None:
    rng = random.Random(7)
    ratings: dict[str, Rating] = {}
    players = [f"p{k}" for k in range(10)]
    for _ in range(6):
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                ranks = [1, 2] if a == "p0" else [1, 2] if rng.random() < 0.5 else [2, 1]
                ratings.update(update(ratings, [[a], [b]], ranks))
    board = sorted(players, key=lambda p: -ratings.get(p, DEFAULT_RATING).ordinal)
    assert board[0] == "p0"
    assert all(ratings[p].matches == 6 * 9 for p in players)


@pytest.mark.parametrize(
    ("teams", "ranks"),
    [([["a"]], [1]), ([["a"], ["b"]], [1]), ([["a"], []], [1, 2]), ([["a"], ["a"]], [1, 2])],
)
def test_bad_outcomes_are_refused(teams: list[list[str]], ranks: list[int]) -> None:
    with pytest.raises(InvalidOutcome):
        update({}, teams, ranks)
