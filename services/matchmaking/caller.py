"""Who is calling: the bearer token the gateway verified and forwarded, verified again here.

The matchmaking port is internal, but checking again (the signature, and the role from the account
record, cached) is cheap and means a misrouted call can never act as somebody else.
"""

from __future__ import annotations

import grpc

from gamehall.auth import Claims, Principals
from gamehall.runtime.errors import ClientError
from gamehall.runtime.identity import authenticate, bearer_token
from gamehall_sdk.v1 import common_pb2


async def claims_of(context: grpc.aio.ServicerContext, principals: Principals) -> Claims:
    """The verified caller, role from its account record; UNAUTHENTICATED otherwise."""
    return await authenticate(context, principals)


async def reader_of(context: grpc.aio.ServicerContext, principals: Principals) -> Claims | None:
    """The caller of a public tournament read: verified when it sent a token (a bad one is UNAUTHENTICATED), None
    for the anonymous visitor the gateway lets through for these reads only (issue 38: public tournament pages);
    this port is internal, so only the gateway's own calls reach it."""
    if not bearer_token(context):
        return None
    return await authenticate(context, principals)


def page_owner(claims: Claims | None) -> str:
    """Whose a page token is: a signed-in caller's own, or one every anonymous visitor shares (public data)."""
    return claims.account_id if claims is not None else ""


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
