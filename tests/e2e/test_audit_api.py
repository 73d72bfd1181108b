"""Operators read the audit log over the public API (AuditService.ListAuditEvents, issue 20): filtered by
actor, action and time, paged with tokens bound to the filters, refused to players."""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime

import grpc
import pytest
from google.protobuf.timestamp_pb2 import Timestamp
from grpc_status import rpc_status

from gamehall_sdk import Gamehall, PermissionDenied
from gamehall_sdk.v1 import audit_pb2, audit_pb2_grpc, auth_pb2, tournament_pb2, tournament_pb2_grpc
from tests.e2e.conftest import OPERATOR_PASSWORD, Running

CREATE = "TournamentService.CreateTournament"


def _stamp(seconds: float) -> Timestamp:
    stamp = Timestamp()
    stamp.FromNanoseconds(int(seconds * 1e9))
    return stamp


def _create(client: object, name: str) -> tournament_pb2.CreateTournamentResponse:
    stub = tournament_pb2_grpc.TournamentServiceStub(client.channel)  # type: ignore[attr-defined]
    request = tournament_pb2.CreateTournamentRequest(
        name=name, game="high-card", format=tournament_pb2.TOURNAMENT_FORMAT_SWISS, max_players=4
    )
    return stub.CreateTournament(request, metadata=client.metadata, timeout=20)  # type: ignore[attr-defined]


def test_operators_list_audit_events_by_actor_action_and_time(platform: Running) -> None:
    started = time.time()  # the same clock as persistence's: every event below is at or after it
    operator = platform.client()
    operator.token = operator.auth.Login(auth_pb2.LoginRequest(username="operator", password=OPERATOR_PASSWORD)).token
    audit = audit_pb2_grpc.AuditServiceStub(operator.channel)
    names = [f"audit-{uuid.uuid4().hex[:8]}-{k}" for k in range(3)]
    made = [_create(operator, name).tournament.id for name in names]
    player = platform.player()
    with pytest.raises(grpc.RpcError) as refused:
        _create(player, "not mine to make")
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED  # type: ignore[attr-defined]

    # the operator's three creations, newest first, one per page, each page's token continuing the last
    request = audit_pb2.ListAuditEventsRequest(actor="operator", action=CREATE, start_time=_stamp(started), page_size=1)
    seen: list[audit_pb2.AuditEvent] = []
    while True:
        page = audit.ListAuditEvents(request, metadata=operator.metadata, timeout=20)
        assert len(page.events) <= 1
        seen += page.events
        if not page.next_page_token:
            break
        request.page_token = page.next_page_token
    assert [e.target for e in seen] == [f"tournament:{t}" for t in reversed(made)]
    first = seen[-1]
    assert first.outcome == "OK" and first.role == auth_pb2.ROLE_OPERATOR and first.actor_name == "operator"
    assert names[0] in first.detail_json and first.create_time.ToMilliseconds() >= int(started * 1000)
    assert first.HasField("finish_time") and first.finish_time.ToNanoseconds() >= first.create_time.ToNanoseconds()

    # a player's refused attempt at an operator-only call is on the log too, found by the player's username
    by_player = audit.ListAuditEvents(
        audit_pb2.ListAuditEventsRequest(actor=player.account.username, action="TournamentService."),  # type: ignore[union-attr]
        metadata=operator.metadata,
        timeout=20,
    )
    assert [(e.action, e.outcome, e.role) for e in by_player.events] == [
        (CREATE, "PERMISSION_DENIED", auth_pb2.ROLE_PLAYER)
    ]
    assert by_player.events[0].message and not by_player.next_page_token

    # a time range in the future holds nothing; a range ending before it starts is refused
    later = audit_pb2.ListAuditEventsRequest(actor="operator", start_time=_stamp(time.time() + 3600))
    assert not audit.ListAuditEvents(later, metadata=operator.metadata, timeout=20).events
    with pytest.raises(grpc.RpcError) as backwards:
        audit.ListAuditEvents(
            audit_pb2.ListAuditEventsRequest(start_time=_stamp(started), end_time=_stamp(started - 60)),
            metadata=operator.metadata,
            timeout=20,
        )
    assert backwards.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]


def test_audit_page_tokens_are_bound_to_their_filters_and_players_are_refused(platform: Running) -> None:
    operator = platform.client()
    operator.token = operator.auth.Login(auth_pb2.LoginRequest(username="operator", password=OPERATOR_PASSWORD)).token
    audit = audit_pb2_grpc.AuditServiceStub(operator.channel)
    for k in range(2):
        _create(operator, f"audit-token-{k}")
    page = audit.ListAuditEvents(
        audit_pb2.ListAuditEventsRequest(actor="operator", page_size=1), metadata=operator.metadata, timeout=20
    )
    assert page.next_page_token
    with pytest.raises(grpc.RpcError) as other_filter:
        audit.ListAuditEvents(
            audit_pb2.ListAuditEventsRequest(actor="operator", action=CREATE, page_token=page.next_page_token),
            metadata=operator.metadata,
            timeout=20,
        )
    assert other_filter.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
    status = rpc_status.from_call(other_filter.value)  # type: ignore[arg-type]
    assert status is not None and b"INVALID_PAGE_TOKEN" in status.details[0].value

    player = platform.player()
    for client in (player, platform.client()):
        with pytest.raises(grpc.RpcError) as denied:
            audit.ListAuditEvents(
                audit_pb2.ListAuditEventsRequest(), metadata=client.metadata if client.token else (), timeout=20
            )
        expected = grpc.StatusCode.PERMISSION_DENIED if client.token else grpc.StatusCode.UNAUTHENTICATED
        assert denied.value.code() == expected  # type: ignore[attr-defined]


async def test_the_sdk_follows_every_page_of_the_audit_log(platform: Running) -> None:
    since = datetime.now(UTC)
    async with Gamehall.connect(platform.address) as hall:
        await hall.login("operator", OPERATOR_PASSWORD)
        made = [await hall.tournaments.create(f"sdk-audit-{k}", "high-card", "swiss") for k in range(3)]
        events = await hall.audit_events(actor="operator", action=CREATE, since=since)
        assert [e.target for e in events] == [f"tournament:{t.id}" for t in reversed(made)]
        assert len(await hall.audit_events(actor="operator", action=CREATE, since=since, limit=2)) == 2
    async with Gamehall.connect(platform.address) as player:
        await player.register(f"p-{uuid.uuid4().hex[:10]}", "a long passphrase 42")
        with pytest.raises(PermissionDenied):
            await player.audit_events()
