"""Signed-out tokens (issue 38): refused at once by the replica that signed them out, by every other replica
after its next refresh (the revocations are audit events in the shared store), forgotten once expired."""

from __future__ import annotations

from typing import Any

import grpc
import pytest

from gamehall.auth import Claims
from gamehall.internal.v1 import audit_pb2 as apb
from gamehall.runtime.errors import ClientError
from gamehall_services.gateway.revocations import ACTION, Revocations


class FakeAuditStore:
    """The persistence AuditService, in memory: events as the gateways write and list them."""

    def __init__(self) -> None:
        self.events: dict[str, apb.AuditEvent] = {}
        self.now_ms = 1_000_000

    async def BeginAuditEvent(self, request: apb.BeginAuditEventRequest, timeout: float = 0) -> Any:
        self.now_ms += 1
        self.events[request.id] = apb.AuditEvent(
            id=request.id, at_unix_ms=self.now_ms, actor=request.actor, action=request.action,
            target=request.target, detail_json=request.detail_json, outcome="pending",
        )
        return apb.BeginAuditEventResponse(event=self.events[request.id])

    async def FinishAuditEvent(self, request: apb.FinishAuditEventRequest, timeout: float = 0) -> Any:
        self.events[request.id].outcome = request.outcome
        return apb.FinishAuditEventResponse()

    async def ListAuditEvents(self, request: apb.ListAuditEventsRequest, timeout: float = 0) -> Any:
        found = [
            e for e in self.events.values() if e.action == request.action and e.at_unix_ms >= request.since_unix_ms
        ]
        return apb.ListAuditEventsResponse(events=sorted(found, key=lambda e: -e.at_unix_ms))


def _claims(jti: str, exp: int = 2_000) -> Claims:
    return Claims(sub="a1", name="alice", role="player", iat=0, exp=exp, iss="gamehall", jti=jti)


async def test_a_signed_out_token_is_refused_here_at_once_and_by_other_replicas_after_a_refresh() -> None:
    store = FakeAuditStore()
    clock = lambda: 1_000.0  # noqa: E731
    here = Revocations(lambda: store, token_ttl=3600, clock=clock)
    there = Revocations(lambda: store, token_ttl=3600, clock=clock)
    await here.revoke(_claims("t1"))
    with pytest.raises(ClientError) as refused:
        here.check(_claims("t1"))
    assert refused.value.code == grpc.StatusCode.UNAUTHENTICATED and "signed out" in refused.value.message
    there.check(_claims("t1"))  # not yet read there
    assert await there.refresh() == 1
    with pytest.raises(ClientError):
        there.check(_claims("t1"))
    there.check(_claims("t2"))  # another token of the same account stays valid
    assert [e.action for e in store.events.values()] == [ACTION]  # the sign-out is in the audit log
    assert await there.refresh() == 0


async def test_expired_revocations_are_forgotten() -> None:
    store = FakeAuditStore()
    now = [1_000.0]
    replica = Revocations(lambda: store, token_ttl=3600, clock=lambda: now[0])
    await replica.revoke(_claims("t1", exp=1_010))
    now[0] = 1_011.0
    await replica.refresh()
    replica.check(_claims("t1", exp=1_010))  # expired anyway: the token is refused for that, not kept here
    assert replica._revoked == {}


async def test_an_unrecorded_sign_out_is_unavailable_not_silently_kept_local() -> None:
    class Down(FakeAuditStore):
        async def BeginAuditEvent(self, request: apb.BeginAuditEventRequest, timeout: float = 0) -> Any:
            raise grpc.aio.AioRpcError(grpc.StatusCode.UNAVAILABLE, grpc.aio.Metadata(), grpc.aio.Metadata(), "down")

    replica = Revocations(lambda: Down(), token_ttl=3600, clock=lambda: 1_000.0)
    with pytest.raises(ClientError) as refused:
        await replica.revoke(_claims("t1"))
    assert refused.value.code == grpc.StatusCode.UNAVAILABLE
