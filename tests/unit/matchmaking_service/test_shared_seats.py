"""A finished match where one account held two seats is refused by rating as a named, permanent error
(issue 20, finding 2: it used to raise 'player appears twice' from OpenSkill on every redelivery)."""

from __future__ import annotations

import pytest

from gamehall.matchmaking.errors import InvalidOutcome
from gamehall.matchmaking.rated import RatedMatch, RatedSeat, SharedSeats, rated_teams


def _match(*accounts: str) -> RatedMatch:
    return RatedMatch("m-1", "no-game-needed", "", tuple(RatedSeat(k, "human", a) for k, a in enumerate(accounts)))


def test_one_account_in_two_seats_is_not_rated() -> None:
    with pytest.raises(SharedSeats, match="'acc-1' held 2 seats") as caught:
        rated_teams(_match("acc-1", "acc-1"), [1, 2])
    assert isinstance(caught.value, InvalidOutcome)  # the consumer's permanent class


def test_a_long_account_id_is_not_echoed_whole() -> None:
    with pytest.raises(SharedSeats) as caught:
        rated_teams(_match("x" * 5000, "x" * 5000, "y"), [1, 2, 3])
    assert len(str(caught.value)) < 200
