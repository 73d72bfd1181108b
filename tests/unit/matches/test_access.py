"""Who may see a match and act for which seat (gamehall.matches.access)."""

from __future__ import annotations

import pytest

from gamehall.matches import (
    Caller,
    NoSuchSeat,
    NotSeated,
    PrivateMatch,
    may_watch,
    require_seat,
    require_watch,
    seat_of,
)
from gamehall.matches.live import MatchFacts, SeatFacts

ALICE, BOB, EVE = Caller("alice"), Caller("bob"), Caller("eve")
OPERATOR, BOT = Caller("op", "operator"), Caller("ai", "bot")


def facts(public: bool, *seats: SeatFacts) -> MatchFacts:
    return MatchFacts(
        id="m1", game="g", status="running", seed=1, config={}, seats=seats, public=public, created_by="carol"
    )


PRIVATE = facts(False, SeatFacts(0, "human", "alice"), SeatFacts(1, "bot", bot_difficulty="easy"))


def test_public_matches_are_open_to_anyone_private_ones_to_their_people() -> None:
    assert may_watch(facts(True, SeatFacts(0, "human", "alice")), EVE)
    assert may_watch(PRIVATE, ALICE) and may_watch(PRIVATE, OPERATOR) and may_watch(PRIVATE, Caller("carol"))
    assert may_watch(PRIVATE, BOT)  # the ai plays its bot seat
    assert not may_watch(PRIVATE, EVE)
    with pytest.raises(PrivateMatch):
        require_watch(PRIVATE, EVE)


def test_humans_act_for_their_own_seats_bots_and_operators_for_bot_seats() -> None:
    assert seat_of(PRIVATE, ALICE, None) == 0
    assert require_seat(PRIVATE, ALICE, 0) == 0
    assert require_seat(PRIVATE, BOT, 1) == 1 and require_seat(PRIVATE, OPERATOR, 1) == 1
    for caller, seat in ((ALICE, 1), (BOB, 0), (BOT, 0), (OPERATOR, 0)):
        with pytest.raises(NotSeated):
            require_seat(PRIVATE, caller, seat)
    with pytest.raises(NotSeated):
        require_seat(PRIVATE, EVE, None)
    assert seat_of(PRIVATE, EVE, None) is None  # a spectator


def test_a_seat_the_match_does_not_have_is_invalid() -> None:
    with pytest.raises(NoSuchSeat):
        seat_of(PRIVATE, ALICE, 7)
