"""The store's and the match log's named errors in the runtime's error table (imported for its side effect by the
service). Unavailability (a locked or lost database, a NATS that refused or did not answer) is UNAVAILABLE, which
clients retry, never INTERNAL."""

from __future__ import annotations

import grpc

from gamehall import store
from gamehall.runtime.errors import register_error
from gamehall.runtime.matchlog import LogUnavailable
from gamehall_sdk.v1 import common_pb2 as c

S = grpc.StatusCode
register_error(store.NotFound, S.NOT_FOUND, c.ERROR_REASON_NOT_FOUND)
register_error(store.AlreadyExists, S.ALREADY_EXISTS, c.ERROR_REASON_ALREADY_EXISTS)
register_error(store.VersionConflict, S.ABORTED, c.ERROR_REASON_VERSION_CONFLICT)
register_error(store.SeatTaken, S.FAILED_PRECONDITION, c.ERROR_REASON_SEAT_TAKEN)
register_error(store.AlreadySeated, S.FAILED_PRECONDITION, c.ERROR_REASON_ALREADY_SEATED)
register_error(store.MatchClosed, S.FAILED_PRECONDITION, c.ERROR_REASON_MATCH_OVER)
register_error(store.InvalidArgument, S.INVALID_ARGUMENT, c.ERROR_REASON_MALFORMED)
register_error(store.TicketNotOpen, S.FAILED_PRECONDITION, c.ERROR_REASON_TICKET_NOT_OPEN)
register_error(store.RatingConflict, S.ABORTED, c.ERROR_REASON_VERSION_CONFLICT)
register_error(store.RevisionConflict, S.ABORTED, c.ERROR_REASON_VERSION_CONFLICT)
register_error(store.Unavailable, S.UNAVAILABLE, c.ERROR_REASON_UNAVAILABLE)  # the database is away: retry
register_error(LogUnavailable, S.UNAVAILABLE, c.ERROR_REASON_UNAVAILABLE)
