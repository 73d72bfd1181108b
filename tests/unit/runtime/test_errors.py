from __future__ import annotations

import grpc
import pytest

from gamehall.engine import errors as e
from gamehall.runtime.errors import ClientError, lookup, register_error
from gamehall_sdk.v1 import common_pb2 as pb


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


def test_a_mapped_error_travels_as_a_standard_status_and_reads_back() -> None:
    """The interceptor's Status (ErrorInfo, RequestInfo, RetryInfo) survives the `grpc-status-details-bin` trailer."""
    from google.rpc import error_details_pb2
    from grpc.aio import AioRpcError, Metadata

    from gamehall.runtime.errors import DOMAIN, Failure, failure_of, read_failure

    failure = failure_of(ClientError(grpc.StatusCode.UNAVAILABLE, "away", metadata={"game": "x"}), "away", "t-9")
    assert failure is not None
    status = failure.status()
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info) and (info.reason, info.domain) == ("UNAVAILABLE", DOMAIN)
    assert dict(info.metadata) == {"game": "x"}
    sent = failure.grpc_status()
    error = AioRpcError(sent.code, Metadata(), Metadata(*sent.trailing_metadata), details=sent.details)
    back = read_failure(error)
    assert back is not None and (back.reason, back.trace_id, back.retry_after) == (
        pb.ERROR_REASON_UNAVAILABLE,
        "t-9",
        1.0,
    )
    assert read_failure(AioRpcError(grpc.StatusCode.INTERNAL, Metadata(), Metadata(), details="x")) is None
    unnamed = Failure(grpc.StatusCode.FAILED_PRECONDITION, "no").status()
    assert unnamed.details[0].Unpack(info) and info.reason == "FAILED_PRECONDITION", "every ErrorInfo names a reason"


def test_a_field_error_carries_a_bad_request() -> None:
    from google.rpc import error_details_pb2

    from gamehall.runtime.errors import failure_of

    failure = failure_of(e.MalformedAction("not JSON"), "not JSON")
    assert failure is not None and failure.code == grpc.StatusCode.INVALID_ARGUMENT
    bad = error_details_pb2.BadRequest()
    assert any(d.Unpack(bad) for d in failure.status().details if d.Is(bad.DESCRIPTOR))
    assert [v.field for v in bad.field_violations] == ["action_json"]


def test_the_store_unreachable_is_unavailable_not_internal() -> None:
    """The database away (a PostgreSQL restart, SQLite's busy timeout) answers UNAVAILABLE, which clients retry;
    unmapped it was INTERNAL (found by the soak at tournament scale)."""
    import gamehall_services.persistence.errors  # noqa: F401 - registers the store's errors
    from gamehall import store

    mapping = lookup(store.Unavailable("lost the PostgreSQL connection"))
    assert mapping is not None and mapping.code == grpc.StatusCode.UNAVAILABLE
    assert mapping.reason == pb.ERROR_REASON_UNAVAILABLE
