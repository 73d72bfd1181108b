"""Domain errors → gRPC status codes, in one table.

RPC handlers raise the libraries' named errors; the harness's interceptor looks the
exception's class (through its MRO) up here and aborts with the status, the error's
message and a machine-readable `ErrorDetail`. Anything not in the table is a bug: it
becomes INTERNAL with a generic message and a trace id that is logged with the stack.
"""

from __future__ import annotations

from dataclasses import dataclass

import grpc

from gamehall.engine import errors as engine_errors
from gamehall.matches import errors as match_errors
from gamehall.matches import lifecycle as match_lifecycle
from gamehall.v1 import common_pb2

ERROR_TRAILER = "gamehall-error-bin"


@dataclass(frozen=True)
class Mapping:
    code: grpc.StatusCode
    reason: int


class ClientError(Exception):
    """An error a service raises itself for a client's mistake (not from a library).

    >>> raise ClientError(grpc.StatusCode.NOT_FOUND, "no match abc", common_pb2.ERROR_REASON_NOT_FOUND)
    """

    def __init__(self, code: grpc.StatusCode, message: str, reason: int = common_pb2.ERROR_REASON_UNSPECIFIED):
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason


_TABLE: dict[type[BaseException], Mapping] = {}


def register_error(exc_type: type[BaseException], code: grpc.StatusCode, reason: int) -> None:
    """Map a library's named error to a status; the most specific class in the MRO wins."""
    _TABLE[exc_type] = Mapping(code, reason)


def lookup(exc: BaseException) -> Mapping | None:
    if isinstance(exc, ClientError):
        return Mapping(exc.code, exc.reason)
    for klass in type(exc).__mro__:
        found = _TABLE.get(klass)
        if found is not None:
            return found
    return None


def detail_bytes(reason: int, message: str, trace_id: str = "") -> bytes:
    detail = common_pb2.ErrorDetail(reason=reason, message=message, trace_id=trace_id)  # type: ignore[arg-type]
    return bytes(detail.SerializeToString())


def error_detail(error: grpc.aio.AioRpcError | grpc.RpcError) -> common_pb2.ErrorDetail | None:
    """The `ErrorDetail` a gamehall server attached to a failed call, if any (for clients)."""
    metadata = error.trailing_metadata() or ()
    for key, value in metadata:
        if key == ERROR_TRAILER:
            detail: common_pb2.ErrorDetail = common_pb2.ErrorDetail.FromString(value)
            return detail
    return None


S = grpc.StatusCode
R = common_pb2
register_error(engine_errors.NotYourTurn, S.FAILED_PRECONDITION, R.ERROR_REASON_NOT_YOUR_TURN)
register_error(engine_errors.MatchOver, S.FAILED_PRECONDITION, R.ERROR_REASON_MATCH_OVER)
register_error(engine_errors.MalformedAction, S.INVALID_ARGUMENT, R.ERROR_REASON_MALFORMED)
register_error(engine_errors.IllegalAction, S.FAILED_PRECONDITION, R.ERROR_REASON_ILLEGAL_ACTION)
register_error(engine_errors.ConfigError, S.INVALID_ARGUMENT, R.ERROR_REASON_BAD_CONFIG)
register_error(engine_errors.DecodeError, S.INVALID_ARGUMENT, R.ERROR_REASON_CORRUPT_STATE)
register_error(engine_errors.UnknownGame, S.NOT_FOUND, R.ERROR_REASON_UNKNOWN_GAME)
register_error(engine_errors.UnknownSeat, S.INVALID_ARGUMENT, R.ERROR_REASON_MALFORMED)
register_error(match_errors.NoSuchSeat, S.INVALID_ARGUMENT, R.ERROR_REASON_MALFORMED)
register_error(match_errors.NoOpenSeat, S.FAILED_PRECONDITION, R.ERROR_REASON_UNSPECIFIED)
register_error(match_errors.InvalidClock, S.INVALID_ARGUMENT, R.ERROR_REASON_BAD_CONFIG)
register_error(match_errors.NotSeated, S.PERMISSION_DENIED, R.ERROR_REASON_PERMISSION_DENIED)
register_error(match_errors.PrivateMatch, S.PERMISSION_DENIED, R.ERROR_REASON_PERMISSION_DENIED)
register_error(match_errors.MatchNotRunning, S.FAILED_PRECONDITION, R.ERROR_REASON_MATCH_OVER)
register_error(match_errors.MatchNotStarted, S.FAILED_PRECONDITION, R.ERROR_REASON_ILLEGAL_ACTION)
register_error(match_errors.VersionConflict, S.ABORTED, R.ERROR_REASON_VERSION_CONFLICT)
register_error(match_errors.RequestReused, S.ALREADY_EXISTS, R.ERROR_REASON_ALREADY_EXISTS)
register_error(match_lifecycle.InvalidSeats, S.INVALID_ARGUMENT, R.ERROR_REASON_BAD_CONFIG)
