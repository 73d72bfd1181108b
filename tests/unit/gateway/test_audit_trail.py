"""The gateway's audit trail (issue 20): an operator's changing call is recorded before it runs and finished
with its outcome; players' ordinary calls are not; refused operator-only calls are; no record, no action."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import msgspec
import pytest

from gamehall.auth import Claims
from gamehall.internal.v1 import audit_pb2_grpc
from gamehall.runtime.errors import ClientError
from gamehall.store import Store, open_store
from gamehall_sdk.v1 import auth_pb2, tournament_pb2, tournament_pb2_grpc
from gamehall_services.gateway.audit_trail import OPERATOR_ONLY, AuditTrail, redacted
from gamehall_services.persistence.audit_servicer import AuditServicer

TOURNAMENTS = "gamehall.v1.TournamentService"


def _claims(role: str, sub: str = "acc-1", name: str = "olga") -> Claims:
    return Claims(sub=sub, name=name, role=role, iat=0, exp=2**40, iss="t", jti="j")  # type: ignore[arg-type]


class _Context:
    def __init__(self, claims: Claims | None) -> None:
        self.claims = claims


class _Auth:
    async def claims(self, context: _Context) -> Claims:
        if context.claims is None:
            raise ClientError(grpc.StatusCode.UNAUTHENTICATED, "no token")
        return context.claims


class _Tournaments(tournament_pb2_grpc.TournamentServiceServicer):
    def __init__(self) -> None:
        self.calls: list[str] = []

    async def CreateTournament(self, request: Any, context: Any) -> Any:
        self.calls.append("create")
        return tournament_pb2.CreateTournamentResponse(tournament=tournament_pb2.Tournament(id="t-new"))

    async def StartTournament(self, request: Any, context: Any) -> Any:
        self.calls.append("start")
        if context.claims is None:
            raise ClientError(grpc.StatusCode.UNAUTHENTICATED, "no token")
        if context.claims.role != "operator":
            raise ClientError(grpc.StatusCode.PERMISSION_DENIED, "only an operator may start a tournament")
        raise ClientError(grpc.StatusCode.FAILED_PRECONDITION, "too few players")

    async def GetTournament(self, request: Any, context: Any) -> Any:
        self.calls.append("get")
        return tournament_pb2.GetTournamentResponse()


@pytest.fixture
async def persistence(tmp_path: Path) -> AsyncIterator[tuple[str, Store]]:
    store = await open_store(f"sqlite://{tmp_path / 'g.db'}")
    server = grpc.aio.server()
    audit_pb2_grpc.add_AuditServiceServicer_to_server(AuditServicer(store=store, relay=None), server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        yield f"127.0.0.1:{port}", store
    finally:
        await server.stop(None)
        await store.close()


async def _trail(address: str) -> AuditTrail:
    trail = AuditTrail(address, _Auth(), timeout=2.0)  # type: ignore[arg-type]
    trail.connect()
    return trail


async def test_an_operators_actions_are_recorded_with_target_and_outcome(persistence: tuple[str, Store]) -> None:
    address, store = persistence
    trail = await _trail(address)
    servicer = trail.wrap(_Tournaments(), TOURNAMENTS)
    operator = _Context(_claims("operator"))
    await servicer.CreateTournament(tournament_pb2.CreateTournamentRequest(name="Cup", game="grimmoir"), operator)
    with pytest.raises(ClientError):
        await servicer.StartTournament(tournament_pb2.StartTournamentRequest(tournament_id="t-new"), operator)
    await servicer.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id="t-new"), operator)  # a read
    page = await store.list_audit_events()
    start, create = page.events
    assert (create.action, create.actor, create.actor_name, create.role) == (
        "TournamentService.CreateTournament",
        "acc-1",
        "olga",
        "operator",
    )
    assert (create.outcome, create.target, create.detail["name"]) == ("OK", "tournament:t-new", "Cup")
    assert (start.action, start.outcome, start.target) == (
        "TournamentService.StartTournament",
        "FAILED_PRECONDITION",
        "tournament:t-new",
    )
    assert start.message == "too few players"
    await trail.close()


async def test_a_players_refused_operator_only_call_is_recorded_and_ordinary_calls_are_not(
    persistence: tuple[str, Store],
) -> None:
    address, store = persistence
    trail = await _trail(address)
    servicer = trail.wrap(_Tournaments(), TOURNAMENTS)
    player = _Context(_claims("player", sub="acc-2", name="pat"))
    with pytest.raises(ClientError):
        await servicer.StartTournament(tournament_pb2.StartTournamentRequest(tournament_id="t1"), player)
    (event,) = (await store.list_audit_events()).events
    assert (event.actor_name, event.outcome) == ("pat", "PERMISSION_DENIED")
    assert "StartTournament" in OPERATOR_ONLY and "CreateTournament" in OPERATOR_ONLY
    assert "RegisterPlayer" not in OPERATOR_ONLY  # players register themselves: logged only for operators
    with pytest.raises(ClientError):  # no caller at all: the handler's own refusal, nothing logged
        await servicer.StartTournament(tournament_pb2.StartTournamentRequest(tournament_id="t1"), _Context(None))
    assert len((await store.list_audit_events()).events) == 1
    await trail.close()


async def test_without_the_audit_log_an_operator_action_is_refused_before_it_runs() -> None:
    trail = await _trail("127.0.0.1:1")  # nothing listens there
    tournaments = _Tournaments()
    servicer = trail.wrap(tournaments, TOURNAMENTS)
    with pytest.raises(ClientError) as refused:
        await servicer.CreateTournament(
            tournament_pb2.CreateTournamentRequest(name="Cup"), _Context(_claims("operator"))
        )
    assert refused.value.code == grpc.StatusCode.UNAVAILABLE
    assert tournaments.calls == []
    await trail.close()


def test_secrets_never_reach_the_log() -> None:
    request = auth_pb2.RegisterRequest(username="newbie", password="hunter22", invite_code="abc")
    detail = redacted(request)
    assert detail == {"username": "newbie"}
    assert "hunter22" not in msgspec.json.encode(detail).decode()
