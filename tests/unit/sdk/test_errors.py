"""Failed calls become named errors: the ErrorInfo reason in the standard trailer wins, else the status code."""

from __future__ import annotations

import grpc
import pytest
from grpc.aio import AioRpcError, Metadata

from gamehall.runtime.errors import Failure
from gamehall_sdk import errors as sdk
from gamehall_sdk.matches import Matches
from gamehall_sdk.transport import Transport
from gamehall_sdk.v1 import common_pb2 as c
from gamehall_sdk.v1 import match_pb2
from tests.unit.sdk.fakes import FakeMethod, FakeStub, rpc_error

S = grpc.StatusCode


@pytest.mark.parametrize(
    ("code", "reason", "expected"),
    [
        (S.FAILED_PRECONDITION, c.ERROR_REASON_ILLEGAL_ACTION, sdk.IllegalAction),
        (S.FAILED_PRECONDITION, c.ERROR_REASON_NOT_YOUR_TURN, sdk.NotYourTurn),
        (S.FAILED_PRECONDITION, c.ERROR_REASON_MATCH_OVER, sdk.MatchOver),
        (S.ABORTED, c.ERROR_REASON_VERSION_CONFLICT, sdk.VersionConflict),
        (S.NOT_FOUND, c.ERROR_REASON_NOT_FOUND, sdk.NotFound),
        (S.NOT_FOUND, c.ERROR_REASON_UNKNOWN_GAME, sdk.UnknownGame),
        (S.ALREADY_EXISTS, c.ERROR_REASON_ALREADY_EXISTS, sdk.AlreadyExists),
        (S.UNAUTHENTICATED, c.ERROR_REASON_UNAUTHENTICATED, sdk.Unauthenticated),
        (S.PERMISSION_DENIED, c.ERROR_REASON_PERMISSION_DENIED, sdk.PermissionDenied),
        (S.RESOURCE_EXHAUSTED, c.ERROR_REASON_RATE_LIMITED, sdk.RateLimited),
        (S.INVALID_ARGUMENT, c.ERROR_REASON_MALFORMED, sdk.InvalidRequest),
        (S.INVALID_ARGUMENT, c.ERROR_REASON_BAD_CONFIG, sdk.InvalidRequest),
        (S.INVALID_ARGUMENT, c.ERROR_REASON_TOO_LARGE, sdk.TooLarge),
        (S.INTERNAL, c.ERROR_REASON_INTERNAL, sdk.InternalError),
    ],
)
def test_reason_in_the_trailer_names_the_error(code: grpc.StatusCode, reason: int, expected: type) -> None:
    error = sdk.from_rpc_error(rpc_error(code, reason, "the message", "trace-42"))
    assert type(error) is expected
    name = c.ErrorReason.Name(reason).removeprefix("ERROR_REASON_")
    expected_fields = (code, name, "grpc says: the message", "trace-42")
    assert (error.code, error.reason, error.message, error.trace_id) == expected_fields
    assert "the message" in str(error) and "trace-42" in str(error)


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (S.UNAVAILABLE, sdk.Unavailable),
        (S.ABORTED, sdk.VersionConflict),
        (S.UNAUTHENTICATED, sdk.Unauthenticated),
        (S.PERMISSION_DENIED, sdk.PermissionDenied),
        (S.NOT_FOUND, sdk.NotFound),
        (S.DEADLINE_EXCEEDED, sdk.DeadlineExceeded),
        (S.RESOURCE_EXHAUSTED, sdk.TooLarge),  # no RetryInfo: gRPC's own "message larger than max"
        (S.INVALID_ARGUMENT, sdk.InvalidRequest),
    ],
)
def test_without_a_trailer_the_status_code_decides(code: grpc.StatusCode, expected: type) -> None:
    error = sdk.from_rpc_error(rpc_error(code, None, "plain"))
    assert type(error) is expected
    assert error.reason == "" and error.message == "grpc says: plain" and error.trace_id == ""


def test_the_reason_beats_the_code() -> None:
    """A FAILED_PRECONDITION is an illegal action, a turn out of order or a finished match, as the reason says."""
    assert type(sdk.from_rpc_error(rpc_error(S.FAILED_PRECONDITION, c.ERROR_REASON_MATCH_OVER))) is sdk.MatchOver
    assert type(sdk.from_rpc_error(rpc_error(S.FAILED_PRECONDITION))) is sdk.FailedPrecondition
    assert type(sdk.from_rpc_error(rpc_error(S.DATA_LOSS))) is sdk.GamehallError


def test_every_error_reason_has_a_named_error() -> None:
    for name, value in c.ErrorReason.items():
        if value != c.ERROR_REASON_UNSPECIFIED:
            assert sdk.error_class(S.UNKNOWN, name.removeprefix("ERROR_REASON_")) is not sdk.GamehallError, name


def test_named_errors_share_the_base_and_reason_name() -> None:
    error = sdk.from_rpc_error(rpc_error(S.FAILED_PRECONDITION, c.ERROR_REASON_ILLEGAL_ACTION, "card 13"))
    assert isinstance(error, sdk.FailedPrecondition) and error.reason == "ILLEGAL_ACTION"
    assert issubclass(sdk.UnknownGame, sdk.NotFound)


async def test_sdk_calls_raise_named_errors_with_the_grpc_error_as_cause() -> None:
    raw = rpc_error(S.FAILED_PRECONDITION, c.ERROR_REASON_ILLEGAL_ACTION, "card 13 is not in your hand", "t1")
    method = FakeMethod(match_pb2.SubmitActionResponse(), errors=[raw])
    matches = Matches(Transport(), FakeStub(SubmitAction=method))
    with pytest.raises(sdk.IllegalAction) as caught:
        await matches.submit("m1", 0, "play-13")
    assert caught.value.__cause__ is raw
    assert caught.value.message == "grpc says: card 13 is not in your hand" and caught.value.trace_id == "t1"
    assert len(method.calls) == 1, "an illegal action is not retried"


def test_retry_info_and_metadata_reach_the_named_error() -> None:
    """A rate limit carries the server's RetryInfo; ErrorInfo metadata is kept as given."""
    error = sdk.from_rpc_error(rpc_error(S.RESOURCE_EXHAUSTED, c.ERROR_REASON_RATE_LIMITED, "slow down"))
    assert type(error) is sdk.RateLimited and error.retry_after == 1.0 and error.metadata == {}


async def test_too_large_is_not_retried_and_not_a_rate_limit() -> None:
    """Issue 39: a 20 KiB action came back as RateLimited ("retry in 1 s"); it is TooLarge, an InvalidRequest,
    with the limit, and the SDK sends it once."""
    from gamehall.runtime.errors import too_large

    refused = too_large("action_json", 20_480, 16_384)
    status = Failure(refused.code, refused.message, refused.reason, refused.metadata, field=refused.field)
    raw = AioRpcError(refused.code, Metadata(), Metadata(*status.grpc_status().trailing_metadata), refused.message)
    method = FakeMethod(match_pb2.SubmitActionResponse(), errors=[raw])
    matches = Matches(Transport(), FakeStub(SubmitAction=method))
    with pytest.raises(sdk.TooLarge) as caught:
        await matches.submit("m1", 0, {"kind": "x"}, request_id="r1")
    error = caught.value
    assert isinstance(error, sdk.InvalidRequest) and not isinstance(error, sdk.RateLimited)
    assert error.code == S.INVALID_ARGUMENT and error.reason == "TOO_LARGE" and error.retry_after is None
    assert error.metadata == {"limit": "16384", "size": "20480", "unit": "bytes"}
    assert "the limit is 16384 bytes" in error.message
    assert len(method.calls) == 1
