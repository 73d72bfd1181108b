"""Named errors of the SDK: every failed call raises one of these instead of a raw gRPC error.

The server attaches a `gamehall.v1.ErrorDetail` (reason, message, trace id) to failed calls; the
reason is finer than the status code (FAILED_PRECONDITION may be an illegal action, a turn taken
out of order or a finished match), so one table maps (status code, reason) to a class.
"""

from __future__ import annotations

from typing import Any, Protocol

import grpc

from gamehall.runtime.errors import ERROR_TRAILER
from gamehall.v1 import common_pb2

StatusCode = grpc.StatusCode
Reason = int
"""A `gamehall.v1.ErrorReason` value (`common_pb2.ERROR_REASON_*`)."""

ANY_REASON: Reason = common_pb2.ERROR_REASON_UNSPECIFIED


class RpcErrorLike(Protocol):
    """What the SDK reads of a failed call (`grpc.aio.AioRpcError` has it; fakes in tests too)."""

    def code(self) -> Any: ...
    def details(self) -> str | None: ...
    def trailing_metadata(self) -> Any: ...


class GamehallError(Exception):
    """A failed call: the gRPC status code, the server's reason, its message and trace id."""

    def __init__(self, code: grpc.StatusCode, reason: Reason, message: str, trace_id: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.trace_id = trace_id

    @property
    def reason_name(self) -> str:
        """The reason's enum name, e.g. `ERROR_REASON_ILLEGAL_ACTION`."""
        return str(common_pb2.ErrorReason.Name(self.reason))

    def __str__(self) -> str:
        suffix = f" (trace {self.trace_id})" if self.trace_id else ""
        return f"{self.code.name}: {self.message}{suffix}"


class IllegalAction(GamehallError):
    """The action is not legal in the match's current state."""


class NotYourTurn(GamehallError):
    """The seat may not act now."""


class MatchOver(GamehallError):
    """The match has already ended."""


class VersionConflict(GamehallError):
    """The match moved past the `expected_version` (or kept changing): re-read and retry."""


class InvalidRequest(GamehallError):
    """The request is malformed (bad action JSON, bad config, bad argument)."""


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
    """Too many requests or too large a payload; slow down."""


class Unavailable(GamehallError):
    """The platform could not be reached (after the SDK's retries, for idempotent calls)."""


class DeadlineExceeded(GamehallError):
    """The call took longer than its timeout."""


class InternalError(GamehallError):
    """The platform failed; quote the trace id when reporting it."""


S = grpc.StatusCode
R = common_pb2

# (status code or None for any code, reason or ANY_REASON) -> class. Lookup order:
# (code, reason), then (None, reason), then (code, ANY_REASON); else GamehallError.
TABLE: dict[tuple[grpc.StatusCode | None, Reason], type[GamehallError]] = {
    (None, R.ERROR_REASON_ILLEGAL_ACTION): IllegalAction,
    (None, R.ERROR_REASON_NOT_YOUR_TURN): NotYourTurn,
    (None, R.ERROR_REASON_MATCH_OVER): MatchOver,
    (None, R.ERROR_REASON_VERSION_CONFLICT): VersionConflict,
    (None, R.ERROR_REASON_BAD_CONFIG): InvalidRequest,
    (None, R.ERROR_REASON_MALFORMED): InvalidRequest,
    (None, R.ERROR_REASON_UNKNOWN_GAME): UnknownGame,
    (None, R.ERROR_REASON_NOT_FOUND): NotFound,
    (None, R.ERROR_REASON_ALREADY_EXISTS): AlreadyExists,
    (None, R.ERROR_REASON_UNAUTHENTICATED): Unauthenticated,
    (None, R.ERROR_REASON_PERMISSION_DENIED): PermissionDenied,
    (None, R.ERROR_REASON_RATE_LIMITED): RateLimited,
    (None, R.ERROR_REASON_CORRUPT_STATE): InternalError,
    (None, R.ERROR_REASON_INTERNAL): InternalError,
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


def _detail(error: RpcErrorLike) -> common_pb2.ErrorDetail | None:
    for key, value in error.trailing_metadata() or ():
        if key == ERROR_TRAILER and isinstance(value, bytes):
            detail: common_pb2.ErrorDetail = common_pb2.ErrorDetail.FromString(value)
            return detail
    return None


def from_rpc_error(error: RpcErrorLike) -> GamehallError:
    """The named error for a failed call, read from its status and `gamehall-error-bin` trailer."""
    code = error.code()
    if not isinstance(code, grpc.StatusCode):
        code = grpc.StatusCode.UNKNOWN
    detail = _detail(error)
    reason = int(detail.reason) if detail is not None else ANY_REASON
    message = (detail.message if detail is not None and detail.message else error.details()) or code.name.lower()
    trace_id = detail.trace_id if detail is not None else ""
    return error_class(code, reason)(code, reason, message, trace_id)
