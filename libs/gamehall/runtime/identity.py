"""Callers and service accounts, as every service that takes bearer tokens sees them.

`authenticate(context, principals)` is the one per-handler check (UNAUTHENTICATED when the token is
missing, expired, forged or its account is gone); `account_lookup(stub)` reads accounts from the
persistence service for `gamehall.auth.Principals`; `ensure_service_account` gives a service (ai,
matchmaking) a real account to act as, so its tokens resolve like anybody's.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable

import grpc

from gamehall.auth import AccountFacts, AccountLookup, Claims, Passwords, Principals, Role
from gamehall.auth.errors import InvalidToken
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.internal.v1 import persistence_pb2_grpc
from gamehall.runtime.errors import ClientError
from gamehall.runtime.upstream import translate
from gamehall_sdk.v1 import common_pb2

LOOKUP_TIMEOUT_SECONDS = 5.0


def bearer_token(context: grpc.aio.ServicerContext) -> str:
    """The token of the call's `authorization: Bearer <token>` metadata, or '' when there is none."""
    for key, value in context.invocation_metadata() or ():
        if key == "authorization" and isinstance(value, str):
            scheme, _, token = value.partition(" ")
            return token.strip() if scheme.lower() == "bearer" else ""
    return ""


async def authenticate(context: grpc.aio.ServicerContext, principals: Principals) -> Claims:
    """The caller's claims, role and name from its account record; UNAUTHENTICATED otherwise."""
    token = bearer_token(context)
    if not token:
        raise ClientError(
            grpc.StatusCode.UNAUTHENTICATED,
            "missing bearer token: send `authorization: Bearer <token>` metadata (AuthService.Login gives one)",
            common_pb2.ERROR_REASON_UNAUTHENTICATED,
        )
    try:
        return await principals.resolve(token)
    except InvalidToken as exc:
        raise ClientError(grpc.StatusCode.UNAUTHENTICATED, str(exc), common_pb2.ERROR_REASON_UNAUTHENTICATED) from exc


def account_lookup(
    persistence: Callable[[], persistence_pb2_grpc.PersistenceServiceStub], timeout: float = LOOKUP_TIMEOUT_SECONDS
) -> AccountLookup:
    """Reads an account by id from persistence (None when it does not exist; UNAVAILABLE passes on).

    `persistence` returns the stub at call time, so the lookup can be built before channels open.
    """

    async def lookup(account_id: str) -> AccountFacts | None:
        try:
            found = await persistence().GetAccount(ppb.GetAccountRequest(id=account_id), timeout=timeout)
        except grpc.aio.AioRpcError as exc:
            if exc.code() in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INVALID_ARGUMENT):
                return None
            raise translate(exc) from exc
        account = found.account
        return AccountFacts(id=account.id, username=account.username, role=account.role)

    return lookup


async def ensure_service_account(
    persistence: persistence_pb2_grpc.PersistenceServiceStub, username: str, role: Role, timeout: float = 10.0
) -> ppb.AccountRecord:
    """The service's own account, created on first start with an unusable password (idempotent across replicas).

    Refuses (RuntimeError) when an account of that name exists with another role: acting as an account
    somebody else may control would be worse than not starting.
    """
    account = await _account_named(persistence, username, timeout)
    if account is None:
        unusable = await asyncio.to_thread(Passwords().hash, secrets.token_urlsafe(32))
        try:
            created = await persistence.CreateAccount(
                ppb.CreateAccountRequest(username=username, password_hash=unusable, role=role), timeout=timeout
            )
            account = created.account
        except grpc.aio.AioRpcError as exc:
            if exc.code() != grpc.StatusCode.ALREADY_EXISTS:
                raise
            account = await _account_named(persistence, username, timeout)  # another replica won the race
    if account is None or account.role != role:
        raise RuntimeError(
            f"the service account {username!r} exists with role {getattr(account, 'role', None)!r}, not {role!r}; "
            "rename or remove that account and restart"
        )
    return account


async def _account_named(
    persistence: persistence_pb2_grpc.PersistenceServiceStub, username: str, timeout: float
) -> ppb.AccountRecord | None:
    try:
        found = await persistence.GetAccount(ppb.GetAccountRequest(username=username), timeout=timeout)
    except grpc.aio.AioRpcError as exc:
        if exc.code() == grpc.StatusCode.NOT_FOUND:
            return None
        raise
    account: ppb.AccountRecord = found.account
    return account


__all__ = ["account_lookup", "authenticate", "bearer_token", "ensure_service_account"]
