"""Domain errors → gRPC statuses with AIP-193 error details, in one table.

RPC handlers raise the libraries' named errors; the harness's interceptor looks the
exception's class (through its MRO) up here and aborts with the status, the error's
message and a `google.rpc.Status` in the standard `grpc-status-details-bin` trailer:
an `ErrorInfo` (a stable UPPER_SNAKE reason from `gamehall.v1.ErrorReason`, the domain
`gamehall.dev`, metadata), a `RequestInfo` (the trace id), and where they fit a
`RetryInfo` (rate limits, UNAVAILABLE) or a `BadRequest` (the field at fault).
Anything not in the table is a bug: it becomes INTERNAL with a generic message and a
trace id that is logged with the stack.
"""

from __future__ import annotations

from collections.abc import Mapping as MappingType
from dataclasses import dataclass, field

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from gamehall.engine import errors as engine_errors
from gamehall.matches import errors as match_errors
from gamehall.matches import lifecycle as match_lifecycle
from gamehall_sdk.v1 import common_pb2

DOMAIN = "gamehall.dev"
"""`ErrorInfo.domain` of every error the platform raises."""
STATUS_TRAILER = "grpc-status-details-bin"
REASON_PREFIX = "ERROR_REASON_"
DEFAULT_RETRY_SECONDS = 1.0
"""`RetryInfo.retry_delay` of a RESOURCE_EXHAUSTED or UNAVAILABLE error that names no delay of its own."""

S = grpc.StatusCode
R = common_pb2

DEFAULT_REASONS: dict[grpc.StatusCode, int] = {
    S.INVALID_ARGUMENT: R.ERROR_REASON_MALFORMED,
    S.OUT_OF_RANGE: R.ERROR_REASON_MALFORMED,
    S.NOT_FOUND: R.ERROR_REASON_NOT_FOUND,
    S.ALREADY_EXISTS: R.ERROR_REASON_ALREADY_EXISTS,
    S.FAILED_PRECONDITION: R.ERROR_REASON_FAILED_PRECONDITION,
    S.ABORTED: R.ERROR_REASON_VERSION_CONFLICT,
    S.PERMISSION_DENIED: R.ERROR_REASON_PERMISSION_DENIED,
    S.UNAUTHENTICATED: R.ERROR_REASON_UNAUTHENTICATED,
    S.RESOURCE_EXHAUSTED: R.ERROR_REASON_RATE_LIMITED,
    S.UNAVAILABLE: R.ERROR_REASON_UNAVAILABLE,
    S.DEADLINE_EXCEEDED: R.ERROR_REASON_DEADLINE_EXCEEDED,
}
"""The reason of an error that names none (`ERROR_REASON_UNSPECIFIED`): every ErrorInfo carries one."""

RETRYABLE = frozenset({S.RESOURCE_EXHAUSTED, S.UNAVAILABLE})
"""Codes whose errors carry a RetryInfo."""


@dataclass(frozen=True)
class Mapping:
    code: grpc.StatusCode
    reason: int
    field: str = ""
    """The request field at fault (a BadRequest field violation), if the error always names one."""


class ClientError(Exception):
    """An error a service raises itself for a client's mistake (not from a library).

    >>> raise ClientError(grpc.StatusCode.NOT_FOUND, "no match abc", common_pb2.ERROR_REASON_NOT_FOUND)
    """

    def __init__(
        self,
        code: grpc.StatusCode,
        message: str,
        reason: int = common_pb2.ERROR_REASON_UNSPECIFIED,
        *,
        metadata: MappingType[str, str] | None = None,
        field: str = "",
        retry_after: float | None = None,
    ):
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason
        self.metadata = dict(metadata or {})
        self.field = field
        self.retry_after = retry_after


def too_large(what: str, size: int, limit: int, unit: str = "bytes", field: str = "") -> ClientError:
    """INVALID_ARGUMENT, reason TOO_LARGE: `what` is `size` `unit` where `limit` are accepted. Never RetryInfo
    (sending the same value again can never succeed); the BadRequest names the field and the message the limit,
    and the ErrorInfo metadata carries both numbers for programs."""
    return ClientError(
        grpc.StatusCode.INVALID_ARGUMENT,
        f"{what} is {size} {unit}; the limit is {limit} {unit} (make it smaller: retrying cannot help)",
        common_pb2.ERROR_REASON_TOO_LARGE,
        metadata={"limit": str(limit), "size": str(size), "unit": unit},
        field=field or what,
    )


_TABLE: dict[type[BaseException], Mapping] = {}


def register_error(exc_type: type[BaseException], code: grpc.StatusCode, reason: int, field: str = "") -> None:
    """Map a library's named error to a status; the most specific class in the MRO wins."""
    _TABLE[exc_type] = Mapping(code, reason, field)


def lookup(exc: BaseException) -> Mapping | None:
    if isinstance(exc, ClientError):
        return Mapping(exc.code, exc.reason, exc.field)
    for klass in type(exc).__mro__:
        found = _TABLE.get(klass)
        if found is not None:
            return found
    return None


def reason_name(reason: int, code: grpc.StatusCode) -> str:
    """The ErrorInfo reason string of `reason` (`ILLEGAL_ACTION`), or the code's default reason when unspecified."""
    if reason == R.ERROR_REASON_UNSPECIFIED:
        reason = DEFAULT_REASONS.get(code, R.ERROR_REASON_INTERNAL)
    return str(R.ErrorReason.Name(reason)).removeprefix(REASON_PREFIX)


def reason_value(name: str) -> int:
    """The `ErrorReason` value of an ErrorInfo reason string (UNSPECIFIED when unknown)."""
    try:
        return int(R.ErrorReason.Value(REASON_PREFIX + name))
    except ValueError:
        return int(R.ERROR_REASON_UNSPECIFIED)


@dataclass
class Failure:
    """Everything a failed call says: status, message and the AIP-193 details."""

    code: grpc.StatusCode
    message: str
    reason: int = common_pb2.ERROR_REASON_UNSPECIFIED
    metadata: dict[str, str] = field(default_factory=dict)
    trace_id: str = ""
    field: str = ""
    retry_after: float | None = None

    def status(self) -> status_pb2.Status:
        """The `google.rpc.Status` of this failure (ErrorInfo first, then RequestInfo, RetryInfo, BadRequest)."""
        details: list[object] = [
            error_details_pb2.ErrorInfo(
                reason=reason_name(self.reason, self.code), domain=DOMAIN, metadata=self.metadata
            )
        ]
        if self.trace_id:
            details.append(error_details_pb2.RequestInfo(request_id=self.trace_id))
        if self.code in RETRYABLE or self.retry_after is not None:
            delay = duration_pb2.Duration()
            delay.FromNanoseconds(int((self.retry_after or DEFAULT_RETRY_SECONDS) * 1e9))
            details.append(error_details_pb2.RetryInfo(retry_delay=delay))
        if self.field:
            violation = error_details_pb2.BadRequest.FieldViolation(
                field=self.field, description=self.message, reason=reason_name(self.reason, self.code)
            )
            details.append(error_details_pb2.BadRequest(field_violations=[violation]))
        packed = []
        for detail in details:
            holder = any_pb2.Any()
            holder.Pack(detail)
            packed.append(holder)
        return status_pb2.Status(code=self.code.value[0], message=self.message, details=packed)

    def grpc_status(self) -> grpc.Status:
        """The status to abort with: code, message and the `grpc-status-details-bin` trailer."""
        return rpc_status.to_status(self.status())


def status_code(number: int) -> grpc.StatusCode:
    """The StatusCode of a status number (a google.rpc.Status's code, a context's raw code); UNKNOWN if none."""
    return next((c for c in grpc.StatusCode if c.value[0] == number), grpc.StatusCode.UNKNOWN)


def internal_failure(trace_id: str) -> Failure:
    """What a bug answers: INTERNAL with a generic message and the trace id (its stack goes to the log only)."""
    return Failure(
        grpc.StatusCode.INTERNAL,
        f"internal error (trace id {trace_id}); it was logged",
        common_pb2.ERROR_REASON_INTERNAL,
        trace_id=trace_id,
    )


def failure_of(exc: BaseException, message: str, trace_id: str = "") -> Failure | None:
    """The failure a mapped error stands for (None for an unmapped one: a bug)."""
    mapping = lookup(exc)
    if mapping is None:
        return None
    extra = exc if isinstance(exc, ClientError) else None
    return Failure(
        code=mapping.code,
        message=message,
        reason=mapping.reason,
        metadata=dict(extra.metadata) if extra else {},
        trace_id=trace_id,
        field=mapping.field,
        retry_after=extra.retry_after if extra else None,
    )


def read_failure(error: grpc.aio.AioRpcError | grpc.RpcError) -> Failure | None:
    """The failure a gamehall server described in a failed call's standard trailer (None without one)."""
    try:
        status = rpc_status.from_call(error)
    except ValueError:
        return None
    if status is None:
        return None
    code = error.code()
    found = Failure(code=code, message=status.message)
    for holder in status.details:
        if holder.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            holder.Unpack(info)
            if info.domain != DOMAIN:
                return None
            found.reason = reason_value(info.reason)
            found.metadata = dict(info.metadata)
        elif holder.Is(error_details_pb2.RequestInfo.DESCRIPTOR):
            request = error_details_pb2.RequestInfo()
            holder.Unpack(request)
            found.trace_id = request.request_id
        elif holder.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            retry = error_details_pb2.RetryInfo()
            holder.Unpack(retry)
            found.retry_after = retry.retry_delay.ToNanoseconds() / 1e9
        elif holder.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            holder.Unpack(bad)
            if bad.field_violations:
                found.field = bad.field_violations[0].field
    return found


register_error(engine_errors.NotYourTurn, S.FAILED_PRECONDITION, R.ERROR_REASON_NOT_YOUR_TURN)
register_error(engine_errors.MatchOver, S.FAILED_PRECONDITION, R.ERROR_REASON_MATCH_OVER)
register_error(engine_errors.MalformedAction, S.INVALID_ARGUMENT, R.ERROR_REASON_MALFORMED, "action_json")
register_error(engine_errors.IllegalAction, S.FAILED_PRECONDITION, R.ERROR_REASON_ILLEGAL_ACTION)
register_error(engine_errors.ConfigError, S.INVALID_ARGUMENT, R.ERROR_REASON_BAD_CONFIG, "config")
register_error(engine_errors.DecodeError, S.INVALID_ARGUMENT, R.ERROR_REASON_CORRUPT_STATE)
register_error(engine_errors.UnknownGame, S.NOT_FOUND, R.ERROR_REASON_UNKNOWN_GAME)
register_error(engine_errors.UnknownSeat, S.INVALID_ARGUMENT, R.ERROR_REASON_MALFORMED, "seat")
register_error(match_errors.NoSuchSeat, S.INVALID_ARGUMENT, R.ERROR_REASON_MALFORMED, "seat")
register_error(match_errors.NoOpenSeat, S.FAILED_PRECONDITION, R.ERROR_REASON_NO_OPEN_SEAT)
register_error(match_errors.InvalidClock, S.INVALID_ARGUMENT, R.ERROR_REASON_BAD_CONFIG, "clock")
register_error(match_errors.NotSeated, S.PERMISSION_DENIED, R.ERROR_REASON_PERMISSION_DENIED)
register_error(match_errors.PrivateMatch, S.PERMISSION_DENIED, R.ERROR_REASON_PERMISSION_DENIED)
register_error(match_errors.MatchNotRunning, S.FAILED_PRECONDITION, R.ERROR_REASON_MATCH_OVER)
register_error(match_errors.MatchNotStarted, S.FAILED_PRECONDITION, R.ERROR_REASON_MATCH_NOT_STARTED)
register_error(match_errors.VersionConflict, S.ABORTED, R.ERROR_REASON_VERSION_CONFLICT)
register_error(match_lifecycle.InvalidSeats, S.INVALID_ARGUMENT, R.ERROR_REASON_BAD_CONFIG, "seats")
register_error(match_errors.NotOpen, S.FAILED_PRECONDITION, R.ERROR_REASON_MATCH_OVER)
register_error(match_errors.KeptChanging, S.ABORTED, R.ERROR_REASON_VERSION_CONFLICT)
register_error(match_errors.StoreRefused, S.FAILED_PRECONDITION, R.ERROR_REASON_FAILED_PRECONDITION)
register_error(match_errors.BadRequest, S.INVALID_ARGUMENT, R.ERROR_REASON_MALFORMED)
register_error(match_errors.NoSuchMatch, S.NOT_FOUND, R.ERROR_REASON_NOT_FOUND)
register_error(match_errors.AlreadyUsed, S.ALREADY_EXISTS, R.ERROR_REASON_ALREADY_EXISTS)
register_error(match_errors.NotYet, S.OUT_OF_RANGE, R.ERROR_REASON_MALFORMED)
register_error(match_errors.Unavailable, S.UNAVAILABLE, R.ERROR_REASON_UNAVAILABLE)
register_error(match_errors.LogUnavailable, S.UNAVAILABLE, R.ERROR_REASON_UNAVAILABLE)
