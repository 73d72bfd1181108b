"""Signed-out tokens (issue 38): Logout revokes the presented token, and every gateway replica refuses it.

A revocation is an audit event (`gamehall.v1.AuthService.Logout`, target = the token's `jti`, detail = its
expiry), so it is stored where the operator's audit log already is, and needs no table of its own. The replica
that signs a token out refuses it at once; every replica reads the revocations of the last token lifetime at
start and then the new ones every `refresh_seconds`, so a signed-out token is refused by all of them within
that time. Entries are forgotten once their token has expired anyway.

Public calls reach matchmaking and the ai only through the gateway, which checks revocations first, so a
revoked token opens no door anywhere. A watch stream opened before the sign-out runs until it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Callable
from typing import Any

import grpc
import msgspec
import structlog

from gamehall.auth import Claims
from gamehall.internal.v1 import audit_pb2 as apb
from gamehall.runtime.errors import ClientError
from gamehall_sdk.v1 import common_pb2

log = structlog.get_logger("gamehall.gateway.revocations")

ACTION = "gamehall.v1.AuthService.Logout"
PAGE = 500


class Revocations:
    """The jtis of signed-out tokens still unexpired, with their expiry (seconds since the epoch)."""

    def __init__(
        self,
        stub: Callable[[], Any],
        *,
        token_ttl: float,
        refresh_seconds: float = 2.0,
        timeout: float = 5.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._stub = stub
        """The persistence's internal AuditService stub (read when first needed: it exists once connected)."""
        self.token_ttl = token_ttl
        self.refresh_seconds = refresh_seconds
        self.timeout = timeout
        self.clock = clock
        self._revoked: dict[str, float] = {}
        self._seen_ms = 0
        """The newest revocation time read so far (the next read starts a little before it)."""
        self._task: asyncio.Task[None] | None = None

    def check(self, claims: Claims) -> None:
        """Refuse a signed-out token (UNAUTHENTICATED, as for any other token no longer valid)."""
        if claims.jti in self._revoked:
            raise ClientError(
                grpc.StatusCode.UNAUTHENTICATED,
                "this token was signed out; log in again",
                common_pb2.ERROR_REASON_UNAUTHENTICATED,
            )

    async def revoke(self, claims: Claims) -> None:
        """Record the revocation of this token (the audit event), then refuse it here at once."""
        event_id = uuid.uuid4().hex
        stub = self._stub()
        detail = msgspec.json.encode({"exp": claims.exp}).decode()
        begin = apb.BeginAuditEventRequest(
            id=event_id,
            actor=claims.account_id,
            actor_name=claims.name,
            role=claims.role,
            action=ACTION,
            target=claims.jti,
            detail_json=detail,
        )
        try:
            await stub.BeginAuditEvent(begin, timeout=self.timeout)
            await stub.FinishAuditEvent(
                apb.FinishAuditEventRequest(id=event_id, outcome="OK", target=claims.jti), timeout=self.timeout
            )
        except grpc.aio.AioRpcError as exc:
            raise ClientError(
                grpc.StatusCode.UNAVAILABLE,
                "the sign-out could not be recorded; retry shortly",
                common_pb2.ERROR_REASON_UNAVAILABLE,
            ) from exc
        self._revoked[claims.jti] = float(claims.exp)

    async def refresh(self) -> int:
        """Read the revocations recorded since the last read (by any replica); how many were new."""
        now = self.clock()
        for jti in [j for j, exp in self._revoked.items() if exp < now]:
            del self._revoked[jti]
        since = max(int((now - self.token_ttl) * 1000), self._seen_ms - 60_000)  # a minute's slack for clock skew
        stub = self._stub()
        token = ""
        added = 0
        while True:
            reply = await stub.ListAuditEvents(
                apb.ListAuditEventsRequest(action=ACTION, since_unix_ms=since, page_size=PAGE, page_token=token),
                timeout=self.timeout,
            )
            for event in reply.events:
                self._seen_ms = max(self._seen_ms, event.at_unix_ms)
                try:
                    exp = float(msgspec.json.decode(event.detail_json or "{}").get("exp", 0))
                except (msgspec.DecodeError, AttributeError, TypeError, ValueError):
                    exp = now + self.token_ttl
                if event.target and exp >= now and event.target not in self._revoked:
                    self._revoked[event.target] = exp
                    added += 1
            token = reply.next_page_token
            if not token:
                return added

    async def follow(self) -> None:
        """Refresh every `refresh_seconds` until cancelled (a failed read is retried at the next tick)."""
        while True:
            try:
                await self.refresh()
            except grpc.aio.AioRpcError as exc:
                log.warning("revocations not refreshed", error=exc.details())
            await asyncio.sleep(self.refresh_seconds)

    def start(self) -> None:
        self._task = asyncio.create_task(self.follow())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


__all__ = ["ACTION", "Revocations"]
