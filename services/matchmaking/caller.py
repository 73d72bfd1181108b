"""Who is calling: the bearer token the gateway verified and forwarded, verified again here.

The matchmaking port is internal, but checking the signature again costs microseconds and means
a misrouted call can never act as somebody else.
"""

from __future__ import annotations

import grpc

from gamehall.auth import Claims, Tokens
from gamehall.auth.errors import InvalidToken
from gamehall.runtime.errors import ClientError
from gamehall.v1 import common_pb2


def claims_of(context: grpc.aio.ServicerContext, tokens: Tokens) -> Claims:
    """The verified claims of the call's `authorization: Bearer` metadata; UNAUTHENTICATED otherwise."""
    token = ""
    for key, value in context.invocation_metadata() or ():
        if key == "authorization" and isinstance(value, str):
            scheme, _, token = value.partition(" ")
            token = token.strip() if scheme.lower() == "bearer" else ""
            break
    if not token:
        raise ClientError(
            grpc.StatusCode.UNAUTHENTICATED, "missing bearer token", common_pb2.ERROR_REASON_UNAUTHENTICATED
        )
    try:
        return tokens.verify(token)
    except InvalidToken as exc:
        raise ClientError(grpc.StatusCode.UNAUTHENTICATED, str(exc), common_pb2.ERROR_REASON_UNAUTHENTICATED) from exc


def is_operator(claims: Claims) -> bool:
    return claims.role == "operator"


def require_operator(claims: Claims, what: str) -> None:
    if not is_operator(claims):
        raise ClientError(
            grpc.StatusCode.PERMISSION_DENIED, f"only an operator may {what}", common_pb2.ERROR_REASON_PERMISSION_DENIED
        )


def invalid(message: str) -> ClientError:
    return ClientError(grpc.StatusCode.INVALID_ARGUMENT, message, common_pb2.ERROR_REASON_MALFORMED)


def not_found(message: str) -> ClientError:
    return ClientError(grpc.StatusCode.NOT_FOUND, message, common_pb2.ERROR_REASON_NOT_FOUND)


def denied(message: str) -> ClientError:
    return ClientError(grpc.StatusCode.PERMISSION_DENIED, message, common_pb2.ERROR_REASON_PERMISSION_DENIED)
