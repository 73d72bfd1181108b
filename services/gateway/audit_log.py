"""AuditService (public): operators read the audit log of operator actions that the gateway's audit trail
writes (audit_trail.py). A thin shell: check the caller is an operator, bind the page token to the
filters (AIP-158), and forward to persistence's internal AuditService, which pages the store."""

from __future__ import annotations

from typing import Any

import grpc

from gamehall.internal.v1 import audit_pb2 as internal
from gamehall.runtime.errors import ClientError
from gamehall.wire import pages
from gamehall.wire.audit import public_event, unix_ms
from gamehall_sdk.v1 import audit_pb2, audit_pb2_grpc, common_pb2
from gamehall_services.gateway.audit_trail import AuditTrail
from gamehall_services.gateway.auth import Authenticator
from gamehall_services.gateway.limits import RateLimiter
from gamehall_services.gateway.upstream import call

LIST_NAME = "audit-events"


class AuditLogServicer(audit_pb2_grpc.AuditServiceServicer):
    def __init__(self, trail: AuditTrail, auth: Authenticator, limiter: RateLimiter) -> None:
        self.trail = trail
        self.auth = auth
        self.limiter = limiter

    async def ListAuditEvents(
        self, request: audit_pb2.ListAuditEventsRequest, context: Any
    ) -> audit_pb2.ListAuditEventsResponse:
        """A page of events, newest first; PERMISSION_DENIED to anyone but an operator."""
        claims = await self.auth.claims(context)
        self.limiter.take(claims.account_id)
        if claims.role != "operator":
            raise ClientError(
                grpc.StatusCode.PERMISSION_DENIED,
                "only operators may read the audit log",
                common_pb2.ERROR_REASON_PERMISSION_DENIED,
            )
        since = unix_ms(request.start_time, request.HasField("start_time"))
        until = unix_ms(request.end_time, request.HasField("end_time"))
        if since and until and until <= since:
            raise ClientError(
                grpc.StatusCode.INVALID_ARGUMENT,
                "end_time must be after start_time",
                common_pb2.ERROR_REASON_MALFORMED,
                field="end_time",
            )
        filters = {"actor": request.actor, "action": request.action, "since": since, "until": until}
        cursor = pages.decode_token(request.page_token, LIST_NAME, filters)
        if cursor is not None and not isinstance(cursor, str):
            raise pages.invalid_token("page_token is not a token this list made")
        assert self.trail.stub is not None, "AuditTrail.connect() was not called"
        reply = await call(
            self.trail.stub.ListAuditEvents(
                internal.ListAuditEventsRequest(
                    actor=request.actor,
                    action=request.action,
                    since_unix_ms=since,
                    until_unix_ms=until,
                    page_size=pages.page_size(request.page_size, pages.AUDIT_EVENTS),
                    page_token=cursor or "",
                ),
                timeout=self.trail.timeout,
            )
        )
        token = pages.encode_token(reply.next_page_token, LIST_NAME, filters) if reply.next_page_token else ""
        return audit_pb2.ListAuditEventsResponse(events=[public_event(e) for e in reply.events], next_page_token=token)
