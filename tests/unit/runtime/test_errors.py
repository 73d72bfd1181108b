from __future__ import annotations

import grpc
import pytest

from gamehall.engine import errors as e
from gamehall.runtime.errors import ClientError, lookup, register_error
from gamehall.v1 import common_pb2 as pb


@pytest.mark.parametrize(
    ("exc", "code", "reason"),
    [
        (e.IllegalAction("no"), grpc.StatusCode.FAILED_PRECONDITION, pb.ERROR_REASON_ILLEGAL_ACTION),
        (e.NotYourTurn("no"), grpc.StatusCode.FAILED_PRECONDITION, pb.ERROR_REASON_NOT_YOUR_TURN),
        (e.MatchOver("no"), grpc.StatusCode.FAILED_PRECONDITION, pb.ERROR_REASON_MATCH_OVER),
        (e.MalformedAction("no"), grpc.StatusCode.INVALID_ARGUMENT, pb.ERROR_REASON_MALFORMED),
        (e.ConfigError("no"), grpc.StatusCode.INVALID_ARGUMENT, pb.ERROR_REASON_BAD_CONFIG),
        (e.DecodeError("no"), grpc.StatusCode.INVALID_ARGUMENT, pb.ERROR_REASON_CORRUPT_STATE),
        (e.UnknownGame("no"), grpc.StatusCode.NOT_FOUND, pb.ERROR_REASON_UNKNOWN_GAME),
    ],
)
def test_engine_errors_map_to_statuses(exc: Exception, code: grpc.StatusCode, reason: int) -> None:
    found = lookup(exc)
    assert found is not None and (found.code, found.reason) == (code, reason)


def test_most_specific_class_wins_and_unknown_is_none() -> None:
    class Quota(e.IllegalAction):
        pass

    register_error(Quota, grpc.StatusCode.RESOURCE_EXHAUSTED, pb.ERROR_REASON_RATE_LIMITED)
    assert lookup(Quota("x")).code == grpc.StatusCode.RESOURCE_EXHAUSTED  # type: ignore[union-attr]
    assert lookup(RuntimeError("boom")) is None
    assert lookup(ClientError(grpc.StatusCode.NOT_FOUND, "x")).code == grpc.StatusCode.NOT_FOUND  # type: ignore[union-attr]
