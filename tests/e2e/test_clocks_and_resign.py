"""Turn clocks play the game's default action on expiry; leaving a running match forfeits the seat."""

from __future__ import annotations

import time

from google.protobuf.duration_pb2 import Duration

from gamehall_sdk.v1 import common_pb2, match_pb2
from tests.e2e.conftest import Running
from tests.e2e.helpers import Collector
from tests.e2e.test_play_through_gateway import _verify


def _wait_for(predicate, timeout: float = 20.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError("condition not reached in time")


def test_per_move_clock_plays_the_default_action(platform: Running) -> None:
    alice, bob = platform.player(), platform.player()
    match = alice.create("high-card", join_seat=0, clock=common_pb2.ClockSpec(per_move=Duration(nanos=300_000_000)))
    bob.join(match.id)
    hand = alice.view(match.id).view_json
    _wait_for(lambda: alice.match(match.id).version >= 2)  # both seats timed out once
    view = alice.view(match.id)
    assert view.version >= 2 and view.view_json != hand
    assert '"revealed":[[' in view.view_json  # the round was played by the clock (lowest card, the default)


def test_bank_clock_counts_down(platform: Running) -> None:
    alice, bob = platform.player(), platform.player()
    match = alice.create(
        "high-card", join_seat=0, clock=common_pb2.ClockSpec(bank=Duration(seconds=60), increment=Duration(seconds=1))
    )
    bob.join(match.id)
    alice.submit(match.id, alice.legal(match.id).actions[0].id)
    seats = alice.match(match.id).seats
    assert 0 < seats[1].clock_remaining.ToMilliseconds() <= 60_000
    assert seats[0].clock_remaining.ToMilliseconds() > 55_000  # the increment was added after the move


def test_leaving_a_running_match_forfeits(platform: Running) -> None:
    alice, bob = platform.player(), platform.player()
    match = alice.create("high-card", join_seat=0)
    bob.join(match.id)
    watching = Collector(alice, match.id)
    alice.submit(match.id, alice.legal(match.id).actions[0].id)
    left = bob.call("LeaveMatch", match_pb2.LeaveMatchRequest(match_id=match.id)).match
    assert left.status == match_pb2.MATCH_STATUS_FINISHED
    assert list(left.outcome.ranks) == [1, 2] and left.outcome.reason.startswith("forfeit: seat 1")
    assert left.seed != 0
    messages = watching.join()
    assert messages[-1].outcome.reason.startswith("forfeit") and not messages[-1].to_act
    assert _verify(platform, match.id)["ok"]


def test_leaving_an_open_match_frees_the_seat(platform: Running) -> None:
    alice, bob = platform.player(), platform.player()
    match = alice.create("high-card", join_seat=0)
    left = alice.call("LeaveMatch", match_pb2.LeaveMatchRequest(match_id=match.id)).match
    assert [s.kind for s in left.seats] == [match_pb2.SEAT_KIND_OPEN, match_pb2.SEAT_KIND_OPEN]
    assert bob.join(match.id).seat == 0
