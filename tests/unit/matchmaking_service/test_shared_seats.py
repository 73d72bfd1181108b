"""A finished match where one account held two seats is refused by rating as a named, permanent error
(issue 20, finding 2: it used to raise 'player appears twice' from OpenSkill on every redelivery)."""

from __future__ import annotations

import pytest

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matchmaking.errors import InvalidOutcome
from gamehall_services.matchmaking.ratings import SharedSeats, rated_teams


def _match(*accounts: str) -> ppb.MatchRecord:
    seats = [ppb.SeatRecord(seat=k, kind="human", account_id=a) for k, a in enumerate(accounts)]
    return ppb.MatchRecord(id="m-1", game="no-game-needed", config_json="{}", seats=seats)


def test_one_account_in_two_seats_is_not_rated() -> None:
    with pytest.raises(SharedSeats, match="'acc-1' held 2 seats") as caught:
        rated_teams(_match("acc-1", "acc-1"), [1, 2])
    assert isinstance(caught.value, InvalidOutcome)  # the consumer's permanent class


def test_a_long_account_id_is_not_echoed_whole() -> None:
    with pytest.raises(SharedSeats) as caught:
        rated_teams(_match("x" * 5000, "x" * 5000, "y"), [1, 2, 3])
    assert len(str(caught.value)) < 200
