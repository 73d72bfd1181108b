"""Hostile inputs through the real gateway get INVALID_ARGUMENT with short messages (issue 20, findings 4, 5).

Before: 5,000-level JSON gave INTERNAL (RecursionError in the rules host), GrimmoiR's max_rounds took
-5 and 10^12, CreateMatch took a 1 MB request id, EnqueueTicket a 100 KB pool, and an unknown 10 KB
id came back twice in the trailers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc
import pytest

from gamehall_sdk.v1 import common_pb2, match_pb2
from gamehall_sdk.v1 import matchmaking_pb2 as mm
from gamehall_sdk.v1 import matchmaking_pb2_grpc as mm_grpc
from tests.e2e.conftest import Running

DEEP = "[" * 5000 + "]" * 5000


def _refused(call: Callable[[], Any]) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    return caught.value


def _trailer_bytes(error: grpc.RpcError) -> int:
    return sum(len(k) + len(v) for k, v in error.trailing_metadata() or ())  # type: ignore[attr-defined]


def test_hostile_inputs_are_invalid_argument_and_never_echoed(platform: Running) -> None:
    alice, bob = platform.player(), platform.player()
    match = alice.create("high-card", join_seat=0)
    bob.join(match.id)
    tickets = mm_grpc.MatchmakingServiceStub(alice.channel)
    create = match_pb2.CreateMatchRequest
    cases: dict[str, Callable[[], Any]] = {
        "deep action_json": lambda: bob.call(
            "SubmitAction", match_pb2.SubmitActionRequest(match_id=match.id, action_json=DEEP)
        ),
        "deep options_json": lambda: alice.call(
            "CreateMatch", create(game="grimmoir", config=common_pb2.MatchConfig(options_json='{"a": ' + DEEP + "}"))
        ),
        "max_rounds -5": lambda: alice.call(
            "CreateMatch", create(game="grimmoir", config=common_pb2.MatchConfig(options_json='{"max_rounds": -5}'))
        ),
        "max_rounds 10^12": lambda: alice.call(
            "CreateMatch",
            create(game="grimmoir", config=common_pb2.MatchConfig(options_json='{"max_rounds": 1000000000000}')),
        ),
        "1 MB request id": lambda: alice.call("CreateMatch", create(game="high-card", request_id="r" * 1_000_000)),
        "100 KB pool": lambda: tickets.EnqueueTicket(
            mm.EnqueueTicketRequest(game="high-card", pool="p" * 100_000), metadata=alice.metadata
        ),
        "10 KB unknown id": lambda: alice.call("GetMatch", match_pb2.GetMatchRequest(match_id="x" * 10_000)),
    }
    for name, call in cases.items():
        error = _refused(call)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, (name, error.code(), error.details())  # type: ignore[attr-defined]
        assert len(error.details() or "") < 200, name  # type: ignore[attr-defined]
        assert _trailer_bytes(error) < 600, name
    assert alice.match(match.id).version == 0  # nothing was played
