"""AuditService over `gamehall.store`: the operators' audit log (begin, finish, list), one transaction each."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import msgspec

from gamehall.internal.v1 import audit_pb2 as pb
from gamehall.internal.v1 import audit_pb2_grpc
from gamehall.store.audit_log import AuditEvent
from gamehall.store.errors import InvalidArgument
from gamehall_services.persistence.writer import StoreWriter

DEFAULT_PAGE = 50


def _ms(value: datetime | None) -> int:
    return 0 if value is None else int(value.timestamp() * 1000)


def _time(ms: int) -> datetime | None:
    return datetime.fromtimestamp(ms / 1000, UTC) if ms else None


def event_to_proto(event: AuditEvent) -> pb.AuditEvent:
    return pb.AuditEvent(
        id=event.id,
        at_unix_ms=_ms(event.at),
        actor=event.actor,
        actor_name=event.actor_name,
        role=event.role,
        action=event.action,
        target=event.target,
        detail_json=msgspec.json.encode(event.detail).decode(),
        outcome=event.outcome,
        message=event.message,
        finished_unix_ms=_ms(event.finished_at),
    )


class AuditServicer(StoreWriter, audit_pb2_grpc.AuditServiceServicer):
    async def BeginAuditEvent(self, request: pb.BeginAuditEventRequest, context: Any) -> pb.BeginAuditEventResponse:
        try:
            detail = msgspec.json.decode(request.detail_json) if request.detail_json else {}
        except msgspec.DecodeError as exc:
            raise InvalidArgument(f"detail_json is not JSON: {exc}") from exc
        if not isinstance(detail, dict):
            raise InvalidArgument("detail_json must hold a JSON object")
        event = await self.store.begin_audit_event(
            request.id,
            actor=request.actor,
            actor_name=request.actor_name,
            role=request.role,
            action=request.action,
            target=request.target,
            detail=detail,
        )
        return pb.BeginAuditEventResponse(event=event_to_proto(event))

    async def FinishAuditEvent(self, request: pb.FinishAuditEventRequest, context: Any) -> pb.FinishAuditEventResponse:
        event = await self.store.finish_audit_event(
            request.id, request.outcome, request.message, target=request.target or None
        )
        return pb.FinishAuditEventResponse(event=event_to_proto(event))

    async def ListAuditEvents(self, request: pb.ListAuditEventsRequest, context: Any) -> pb.ListAuditEventsResponse:
        page = await self.store.list_audit_events(
            actor=request.actor,
            action=request.action,
            since=_time(request.since_unix_ms),
            until=_time(request.until_unix_ms),
            limit=request.page_size or DEFAULT_PAGE,
            cursor=request.page_token or None,
        )
        return pb.ListAuditEventsResponse(
            events=[event_to_proto(e) for e in page.events], next_page_token=page.next_cursor or ""
        )
