"""The matchmaking and tournament libraries' named errors in the runtime's error table (imported for effect).

Each library error class declares its `grpc_status`; the reason follows from the status.
"""

from __future__ import annotations

import grpc

from gamehall.matchmaking import errors as matchmaking_errors
from gamehall.runtime.errors import register_error
from gamehall.tournaments import errors as tournament_errors
from gamehall_sdk.v1 import common_pb2 as c
from gamehall_services.matchmaking.store_client import Stale

REASONS = {
    "INVALID_ARGUMENT": c.ERROR_REASON_MALFORMED,
    "ALREADY_EXISTS": c.ERROR_REASON_ALREADY_EXISTS,
    "NOT_FOUND": c.ERROR_REASON_NOT_FOUND,
    "FAILED_PRECONDITION": c.ERROR_REASON_UNSPECIFIED,
}


def _register_tree(base: type[Exception]) -> list[type[Exception]]:
    """Register `base` and every subclass under the status its `grpc_status` names."""
    done: list[type[Exception]] = []
    pending = [base]
    while pending:
        klass = pending.pop()
        status = klass.grpc_status  # type: ignore[attr-defined]
        register_error(klass, grpc.StatusCode[status], REASONS.get(status, c.ERROR_REASON_UNSPECIFIED))
        done.append(klass)
        pending.extend(klass.__subclasses__())
    return done


REGISTERED = _register_tree(matchmaking_errors.MatchmakingError) + _register_tree(tournament_errors.TournamentError)

# A compare-and-swap that kept losing (persistence ABORTED, retried MAX_ATTEMPTS times): the caller may retry.
register_error(Stale, grpc.StatusCode.ABORTED, c.ERROR_REASON_VERSION_CONFLICT)
