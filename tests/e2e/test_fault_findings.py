"""Issue 36's findings that need only the shared platform: a retried join is answered with its first result,
and reads under the shortest client deadlines never get INTERNAL or UNKNOWN (a cancelled SQLite read used to
leave its transaction open for the next one)."""

from __future__ import annotations

import random

import grpc

from gamehall_sdk.v1 import match_pb2
from tests.e2e.conftest import Running

NEVER = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DATA_LOSS}


def test_a_join_whose_reply_was_lost_is_answered_with_the_same_seat(platform: Running) -> None:
    """The gateway resends a join on failover: the seat the first try took comes back, OK, even though the match
    is running now (it used to be FAILED_PRECONDITION "no seat to join", a success reported as a failure)."""
    owner, joiner = platform.player(), platform.player()
    match = owner.create("high-card", join_seat=0)
    first = joiner.join(match.id, seat=1)
    assert first.seat == 1
    again = joiner.join(match.id, seat=1)  # the retry of a join whose reply was lost
    assert again.seat == 1 and again.match.id == match.id
    assert joiner.join(match.id).seat == 1  # a retry naming no seat, too
    other = platform.player()
    try:
        other.join(match.id, seat=1)
    except grpc.RpcError as exc:  # a stranger asking for the taken seat is still refused
        assert exc.code() == grpc.StatusCode.FAILED_PRECONDITION
    else:
        raise AssertionError("a stranger took a held seat")


def test_reads_under_1_to_5_ms_deadlines_never_fail_internal(platform: Running) -> None:
    player = platform.player()
    match = player.create("high-card", join_seat=0, public=True)
    rng = random.Random(36)
    reads = [
        lambda t: player.call("GetMatch", match_pb2.GetMatchRequest(match_id=match.id), timeout=t),
        lambda t: player.call("ListMatches", match_pb2.ListMatchesRequest(game="high-card"), timeout=t),
        lambda t: player.call("GetView", match_pb2.GetViewRequest(match_id=match.id), timeout=t),
    ]
    codes: dict[str, int] = {}
    for n in range(200):
        try:
            reads[n % len(reads)](rng.uniform(0.001, 0.005))
            code = grpc.StatusCode.OK
        except grpc.RpcError as exc:
            code = exc.code()
        codes[code.name] = codes.get(code.name, 0) + 1
        assert code not in NEVER, codes
    assert player.match(match.id).id == match.id  # and the store answers normally afterwards
    assert sum(codes.values()) == 200
