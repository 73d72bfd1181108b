"""The ratings maths the projection runs on a finish: humans by the engine's teams, bots unrated, and a match that
can never be rated left unrated (logged) rather than failing the projection's transaction."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from structlog.testing import capture_logs

from gamehall.matchmaking import Rating, update
from gamehall.store.ratings import PlayerRating, RatedTeams
from gamehall.store.records import Seat
from gamehall_services.persistence.rating import FinishRater


def seats(*holders: str) -> list[Seat]:
    """`"bot"` is a bot seat; any other name is that account's human seat."""
    return [
        Seat(match_id="m", seat=n, kind="bot", bot_difficulty="easy")
        if who == "bot"
        else Seat(match_id="m", seat=n, kind="human", account_id=who)
        for n, who in enumerate(holders)
    ]


def test_the_engine_seats_the_teams_and_each_team_ranks_as_its_best_seat() -> None:
    rater = FinishRater()
    teams = rater.teams("m", "grimslingers", "versus-teams", seats("a", "b", "c", "d"), [2, 1, 2, 1])
    assert teams == RatedTeams(teams=(("a", "c"), ("b", "d")), ranks=(2, 1))


def test_a_match_with_one_human_team_rates_nobody() -> None:
    assert FinishRater().teams("m", "grimslingers", "versus-1v1", seats("a", "bot"), [1, 2]) is None


@pytest.mark.parametrize(
    ("game", "holders", "reason"),
    [("grimslingers", ("a", "a"), "held 2 seats"), ("no-such-game", ("a", "b"), "no game 'no-such-game'")],
)
def test_a_match_that_can_never_be_rated_is_logged_and_rates_nobody(
    game: str, holders: tuple[str, ...], reason: str
) -> None:
    with capture_logs() as logs:
        assert FinishRater().teams("m-9", game, "versus-1v1", seats(*holders), [1, 2]) is None
    [entry] = logs
    assert entry["event"] == "finished match not rated" and entry["match_id"] == "m-9" and reason in entry["reason"]


def test_new_ratings_name_the_match_count_they_were_computed_from() -> None:
    stored = PlayerRating(
        game="g", mode="m", account="a", mu=30.0, sigma=4.0, matches=7, updated_at=datetime(2030, 1, 1, tzinfo=UTC)
    )
    teams = RatedTeams(teams=(("a",), ("new",)), ranks=(1, 2))
    updates = FinishRater().update(teams, {"a": stored})
    assert updates is not None
    expected = update({"a": Rating(30.0, 4.0, 7)}, [["a"], ["new"]], [1, 2])
    assert {u.account: (u.expected_matches, u.mu, u.sigma) for u in updates} == {
        "a": (7, pytest.approx(expected["a"].mu), pytest.approx(expected["a"].sigma)),
        "new": (0, pytest.approx(expected["new"].mu), pytest.approx(expected["new"].sigma)),
    }
