"""Opening a match: its id from the creator's request id, its seats from the requests (gamehall.matches.lifecycle)."""

from __future__ import annotations

import uuid

import pytest

from gamehall.matches.lifecycle import InvalidSeats, SeatRequest, is_full, match_id_for, plan_seats
from gamehall.matches.live import SeatFacts


def test_a_request_id_always_names_the_same_match_and_only_for_its_creator() -> None:
    assert match_id_for("alice", "r1") == match_id_for("alice", "r1")
    assert match_id_for("alice", "r1") != match_id_for("bob", "r1")
    assert uuid.UUID(match_id_for("alice", "")).version == 4  # no request id: a fresh match every time
    assert match_id_for("alice", "") != match_id_for("alice", "")


def test_seats_follow_the_requests_then_stay_open() -> None:
    seats = plan_seats([SeatRequest("bot", bot="easy"), SeatRequest("reserved", "bob")], 3, "alice", None)
    assert seats == (SeatFacts(0, "bot", bot_difficulty="easy"), SeatFacts(1, "reserved", "bob"), SeatFacts(2, "open"))
    assert not is_full(seats)


def test_the_creator_joins_an_open_seat_or_one_reserved_for_them() -> None:
    assert plan_seats([], 2, "alice", 1)[1] == SeatFacts(1, "human", "alice")
    seats = plan_seats([SeatRequest("reserved", "alice"), SeatRequest("bot", bot="hard")], 2, "alice", 0)
    assert seats[0] == SeatFacts(0, "human", "alice") and is_full(seats)


@pytest.mark.parametrize(
    ("requests", "count", "join", "why"),
    [
        ([SeatRequest(), SeatRequest(), SeatRequest()], 2, None, "3 seat specs for a 2-seat match"),
        ([SeatRequest("bot", bot="grandmaster")], 2, None, "bot difficulty"),
        ([SeatRequest("bot", bot="easy")], 2, 0, "not open to you"),
        ([SeatRequest("reserved", "bob")], 2, 0, "not open to you"),
        ([], 2, 5, "does not exist"),
        ([SeatRequest("reserved")], 2, None, "needs an account"),
        ([SeatRequest("reserved", "bob"), SeatRequest("reserved", "bob")], 2, None, "one account plays one seat"),
        ([SeatRequest("open"), SeatRequest("reserved", "alice")], 2, 0, "one account plays one seat"),
    ],
)
def test_seat_requests_that_do_not_fit_are_refused(
    requests: list[SeatRequest], count: int, join: int | None, why: str
) -> None:
    with pytest.raises(InvalidSeats, match=why):
        plan_seats(requests, count, "alice", join)
