"""Persistence's audit events (internal AuditService) <-> the public `gamehall.v1.AuditEvent`.

Inside, times are Unix milliseconds and roles lower-case names; outside, Timestamps and the `Role` enum.
"""

from __future__ import annotations

from google.protobuf.timestamp_pb2 import Timestamp

from gamehall.internal.v1 import audit_pb2 as internal
from gamehall.wire.public import enum_value, timestamp
from gamehall_sdk.v1 import audit_pb2, auth_pb2


def public_event(event: internal.AuditEvent) -> audit_pb2.AuditEvent:
    """The public form of a stored event; `finish_time` stays unset while the outcome is pending."""
    public = audit_pb2.AuditEvent(
        id=event.id,
        actor=event.actor,
        actor_name=event.actor_name,
        role=enum_value(auth_pb2.Role, "ROLE", event.role),
        action=event.action,
        target=event.target,
        detail_json=event.detail_json,
        outcome=event.outcome,
        message=event.message,
    )
    public.create_time.CopyFrom(timestamp(event.at_unix_ms / 1000))
    if event.finished_unix_ms:
        public.finish_time.CopyFrom(timestamp(event.finished_unix_ms / 1000))
    return public


def unix_ms(stamp: Timestamp, is_set: bool) -> int:
    """Milliseconds of a request's time bound (0, unbounded, when unset); a set bound is at least 1 ms."""
    return max(1, int(stamp.ToMilliseconds())) if is_set else 0
