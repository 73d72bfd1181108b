"""A store call's failure as the match domain's error, keeping the status it came with.

The owner's flow (`gamehall.matches.owner`) acts on a few of the store's answers: no such match, a lobby write
refused because the match changed, an id already used, the store away. A failed call to persistence is a
`ClientError` (its code, reason and message passed through to the caller); here it becomes an error that is
both that `ClientError` and the domain's error, so the flow can catch it by its meaning and an uncaught one
still answers the caller exactly as persistence did.
"""

from __future__ import annotations

import grpc

from gamehall.matches import errors as match_errors
from gamehall.runtime.errors import ClientError


class StoreNotFound(match_errors.NoSuchMatch, ClientError):
    pass


class StoreRefusedCall(match_errors.StoreRefused, ClientError):
    pass


class StoreAlreadyUsed(match_errors.AlreadyUsed, ClientError):
    pass


class StoreUnavailable(match_errors.Unavailable, ClientError):
    pass


class StoreBadRequest(match_errors.BadRequest, ClientError):
    pass


_BY_CODE: dict[grpc.StatusCode, type[ClientError]] = {
    grpc.StatusCode.NOT_FOUND: StoreNotFound,
    grpc.StatusCode.FAILED_PRECONDITION: StoreRefusedCall,
    grpc.StatusCode.ALREADY_EXISTS: StoreAlreadyUsed,
    grpc.StatusCode.UNAVAILABLE: StoreUnavailable,
    grpc.StatusCode.INVALID_ARGUMENT: StoreBadRequest,
}


def as_domain(exc: Exception) -> Exception:
    """`exc` as the domain's error when it is a store's `ClientError` the flow acts on; else `exc` itself."""
    if not isinstance(exc, ClientError):
        return exc
    kind = _BY_CODE.get(exc.code)
    if kind is None or isinstance(exc, kind):
        return exc
    found = kind.__new__(kind)
    ClientError.__init__(
        found,
        exc.code,
        exc.message,
        exc.reason,
        metadata=exc.metadata,
        field=exc.field,
        retry_after=exc.retry_after,
    )
    return found


__all__ = ["as_domain"]
