"""Named errors of the SDK: every failed call raises one of these instead of a raw gRPC error.

The server attaches a `google.rpc.Status` to failed calls in the standard `grpc-status-details-bin`
trailer (AIP-193): an `ErrorInfo` whose reason (`ILLEGAL_ACTION`, ...; the `gamehall.v1.ErrorReason`
names without their prefix) is finer than the status code (FAILED_PRECONDITION may be an illegal
action, a turn taken out of order or a finished match), a `RequestInfo` with the trace id, and a
`RetryInfo` where waiting helps. One table maps (status code, reason) to a class.
"""

from __future__ import annotations

from typing import Any, Protocol

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

StatusCode = grpc.StatusCode
Reason = str
"""An `ErrorInfo.reason` of the platform, e.g. `ILLEGAL_ACTION` (empty when the server gave none)."""

DOMAIN = "gamehall.dev"
"""The `ErrorInfo.domain` of the platform's errors."""
ANY_REASON: Reason = ""


class RpcErrorLike(Protocol):
    """What the SDK reads of a failed call (`grpc.aio.AioRpcError` has it; fakes in tests too)."""

    def code(self) -> Any: ...
    def details(self) -> str | None: ...
    def trailing_metadata(self) -> Any: ...


class GamehallError(Exception):
    """A failed call: the gRPC status code, the server's reason and metadata, its message and trace id,
    and how long to wait before retrying when the server said (`retry_after`, seconds)."""

    def __init__(
        self,
        code: grpc.StatusCode,
        reason: Reason,
        message: str,
        trace_id: str = "",
        metadata: dict[str, str] | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.trace_id = trace_id
        self.metadata = dict(metadata or {})
        self.retry_after = retry_after

    def __str__(self) -> str:
        suffix = f" (trace {self.trace_id})" if self.trace_id else ""
        return f"{self.code.name}: {self.message}{suffix}"


class FailedPrecondition(GamehallError):
    """The request is well formed but the platform's state refuses it now (no open seat, a seat taken,
    a ticket no longer queued, a tournament in another phase)."""


class IllegalAction(FailedPrecondition):
    """The action is not legal in the match's current state."""


class NotYourTurn(FailedPrecondition):
    """The seat may not act now."""


class MatchOver(FailedPrecondition):
    """The match has already ended."""


class VersionConflict(GamehallError):
    """The match moved past the `expected_version` (or kept changing): re-read and retry."""


class InvalidRequest(GamehallError):
    """The request is malformed (bad action JSON, bad config, bad argument)."""


class TooLarge(InvalidRequest):
    """A field is larger than the platform accepts (`metadata["limit"]`, `metadata["size"]`); never retried, since
    resending the same request cannot succeed."""


class NotFound(GamehallError):
    """No such match, game, ticket, tournament or account."""


class UnknownGame(NotFound):
    """The platform hosts no game of that id."""


class AlreadyExists(GamehallError):
    """The username, seat, registration or request id is taken."""


class Unauthenticated(GamehallError):
    """No token, or an invalid or expired one: register or log in."""


class PermissionDenied(GamehallError):
    """The account may not do this (e.g. an operator-only call)."""


class RateLimited(GamehallError):
    """Too many requests or open streams; slow down (`retry_after` says how long, when the server said)."""


class Unavailable(GamehallError):
    """The platform could not be reached (after the SDK's retries, for idempotent calls)."""


class DeadlineExceeded(GamehallError):
    """The call took longer than its timeout."""


class InternalError(GamehallError):
    """The platform failed; quote the trace id when reporting it."""


S = grpc.StatusCode

# (status code or None for any code, reason or ANY_REASON) -> class. Lookup order:
# (code, reason), then (None, reason), then (code, ANY_REASON); else GamehallError.
TABLE: dict[tuple[grpc.StatusCode | None, Reason], type[GamehallError]] = {
    (None, "ILLEGAL_ACTION"): IllegalAction,
    (None, "NOT_YOUR_TURN"): NotYourTurn,
    (None, "MATCH_OVER"): MatchOver,
    (None, "VERSION_CONFLICT"): VersionConflict,
    (None, "BAD_CONFIG"): InvalidRequest,
    (None, "MALFORMED"): InvalidRequest,
    (None, "UNKNOWN_GAME"): UnknownGame,
    (None, "NOT_FOUND"): NotFound,
    (None, "ALREADY_EXISTS"): AlreadyExists,
    (None, "UNAUTHENTICATED"): Unauthenticated,
    (None, "PERMISSION_DENIED"): PermissionDenied,
    (None, "RATE_LIMITED"): RateLimited,
    (None, "CORRUPT_STATE"): InternalError,
    (None, "INTERNAL"): InternalError,
    (None, "FAILED_PRECONDITION"): FailedPrecondition,
    (None, "NO_OPEN_SEAT"): FailedPrecondition,
    (None, "MATCH_NOT_STARTED"): FailedPrecondition,
    (None, "SEAT_TAKEN"): FailedPrecondition,
    (None, "ALREADY_SEATED"): FailedPrecondition,
    (None, "TICKET_NOT_OPEN"): FailedPrecondition,
    (None, "UNAVAILABLE"): Unavailable,
    (None, "DEADLINE_EXCEEDED"): DeadlineExceeded,
    (None, "INVALID_PAGE_TOKEN"): InvalidRequest,
    (None, "TOO_LARGE"): TooLarge,
    (S.FAILED_PRECONDITION, ANY_REASON): FailedPrecondition,
    (S.ABORTED, ANY_REASON): VersionConflict,
    (S.INVALID_ARGUMENT, ANY_REASON): InvalidRequest,
    (S.OUT_OF_RANGE, ANY_REASON): InvalidRequest,
    (S.NOT_FOUND, ANY_REASON): NotFound,
    (S.ALREADY_EXISTS, ANY_REASON): AlreadyExists,
    (S.UNAUTHENTICATED, ANY_REASON): Unauthenticated,
    (S.PERMISSION_DENIED, ANY_REASON): PermissionDenied,
    (S.RESOURCE_EXHAUSTED, ANY_REASON): RateLimited,
    (S.UNAVAILABLE, ANY_REASON): Unavailable,
    (S.DEADLINE_EXCEEDED, ANY_REASON): DeadlineExceeded,
    (S.INTERNAL, ANY_REASON): InternalError,
    (S.UNKNOWN, ANY_REASON): InternalError,
}


def error_class(code: grpc.StatusCode, reason: Reason) -> type[GamehallError]:
    """The named error for a status code and reason (see `TABLE` for the lookup order)."""
    for key in ((code, reason), (None, reason), (code, ANY_REASON)):
        found = TABLE.get(key)
        if found is not None:
            return found
    return GamehallError


def _status(error: RpcErrorLike) -> Any:
    try:
        return rpc_status.from_call(error)
    except ValueError:  # a trailer that does not match the status: ignore it
        return None


def from_status_bytes(data: bytes) -> GamehallError:
    """The named error of a serialized `google.rpc.Status` (a play stream's refused action)."""
    from google.rpc import status_pb2

    status = status_pb2.Status.FromString(data)
    code = next((c for c in grpc.StatusCode if c.value[0] == status.code), grpc.StatusCode.UNKNOWN)

    class _Refused:
        def code(self) -> grpc.StatusCode:
            return code

        def details(self) -> str:
            return str(status.message)

        def trailing_metadata(self) -> Any:
            return (("grpc-status-details-bin", data),)

    return from_rpc_error(_Refused())


def from_rpc_error(error: RpcErrorLike) -> GamehallError:
    """The named error for a failed call, read from its status and `grpc-status-details-bin` trailer."""
    code = error.code()
    if not isinstance(code, grpc.StatusCode):
        code = grpc.StatusCode.UNKNOWN
    reason, trace_id, metadata, retry_after = ANY_REASON, "", {}, None
    status = _status(error)
    for holder in status.details if status is not None else ():
        if holder.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            holder.Unpack(info)
            if info.domain == DOMAIN:
                reason, metadata = info.reason, dict(info.metadata)
        elif holder.Is(error_details_pb2.RequestInfo.DESCRIPTOR):
            request = error_details_pb2.RequestInfo()
            holder.Unpack(request)
            trace_id = request.request_id
        elif holder.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            retry = error_details_pb2.RetryInfo()
            holder.Unpack(retry)
            retry_after = retry.retry_delay.ToNanoseconds() / 1e9
    message = error.details() or code.name.lower()
    found = error_class(code, reason)
    if code == S.RESOURCE_EXHAUSTED and retry_after is None and reason != "RATE_LIMITED":
        found = TooLarge  # no RetryInfo: no wait helps (e.g. gRPC's own "message larger than max")
    return found(code, reason, message, trace_id, metadata, retry_after)
