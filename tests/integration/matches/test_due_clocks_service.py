"""ListDueClocks over gRPC on SQLite and PostgreSQL: exactly the running matches whose clock ran out,
earliest first, as the clock sweeper will poll it; clock writes (a projected move, a close) move them."""

from __future__ import annotations

import json

import grpc
import pytest

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches import clocks
from gamehall.matches.clocks import ClockSpec
from tests.integration.matches.conftest import Served, log_action
from tests.support.nats import NatsServer

CONFIG = json.dumps({"mode": "duel", "seats": 2, "options": {}, "flags": {}})
T0 = 1_900_000_000_000
PER_MOVE = ClockSpec(per_move_ms=30_000)
BANK = ClockSpec(bank_ms=60_000, increment_ms=1_000)


async def _clocked(stub: object, match_id: str, spec: ClockSpec, since: int, status: str = "running") -> None:
    await stub.CreateMatch(  # type: ignore[attr-defined]
        ppb.CreateMatchRequest(
            match_id=match_id,
            game="high-card",
            config_json=CONFIG,
            seed=7,
            status=status,
            clock_json=json.dumps(spec.to_json()),
            clock_state_json=json.dumps(clocks.initial(spec, 2, [0], since)),
        )
    )


async def _due(stub: object, now: int, limit: int = 0) -> list[str]:
    reply = await stub.ListDueClocks(ppb.ListDueClocksRequest(now_unix_ms=now, limit=limit))  # type: ignore[attr-defined]
    return [m.id for m in reply.matches]


async def test_list_due_clocks_returns_the_due_running_matches_earliest_first(
    persistence: Served, nats_server: NatsServer
) -> None:
    stub = persistence.stub
    await _clocked(stub, "per-move", PER_MOVE, T0)  # due at T0 + 30 s
    await _clocked(stub, "bank", BANK, T0 - 40_000)  # due at T0 + 20 s
    await _clocked(stub, "later", PER_MOVE, T0 + 60_000)
    await _clocked(stub, "waiting", PER_MOVE, T0, status="open")
    await _clocked(stub, "over", PER_MOVE, T0)
    await stub.CloseMatch(ppb.CloseMatchRequest(match_id="over", status="finished", outcome_json='{"ranks": [1, 2]}'))

    assert await _due(stub, T0 + 19_999) == []
    assert await _due(stub, T0 + 30_000) == ["bank", "per-move"]
    assert await _due(stub, T0 + 30_000, limit=1) == ["bank"]
    assert await _due(stub, T0 + 10**7, limit=100_000) == ["bank", "per-move", "later"]  # limit capped, not refused
    reply = await stub.ListDueClocks(ppb.ListDueClocksRequest(now_unix_ms=T0 + 30_000))
    bank = reply.matches[0]
    assert (bank.status, json.loads(bank.clock_json), len(bank.seats)) == ("running", BANK.to_json(), 2)
    assert clocks.expired(BANK, json.loads(bank.clock_state_json), T0 + 30_000) == [0]

    # the bank seat moves: its match leaves the due set until its next deadline
    state = clocks.advance(BANK, json.loads(bank.clock_state_json), 2, 0, [1], T0 + 19_000)
    await log_action(persistence, nats_server.url, "bank", 1, "r1", clock_state_json=json.dumps(state))
    assert await _due(stub, T0 + 30_000) == ["per-move"]
    assert await _due(stub, T0 + 19_000 + 60_000) == ["per-move", "bank"]  # seat 1's full bank from T0 + 19 s
    assert await _due(stub, T0 + 10**7) == ["per-move", "bank", "later"]
    nobody = json.dumps(clocks.initial(PER_MOVE, 2, [], T0))
    await log_action(persistence, nats_server.url, "later", 1, "r1", clock_state_json=nobody)
    assert await _due(stub, T0 + 10**7) == ["per-move", "bank"]  # nobody to act: no deadline


async def test_list_due_clocks_refuses_a_missing_now_and_unreadable_clock_states(persistence: Served) -> None:
    stub = persistence.stub
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ListDueClocks(ppb.ListDueClocksRequest(limit=10))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    await _clocked(stub, "bank", BANK, T0)
    broken = json.dumps({"to_act": [1], "since_ms": {"1": T0}, "remaining_ms": [5]})
    refused = ppb.CreateMatchRequest(
        match_id="broken", game="high-card", config_json=CONFIG, clock_json=json.dumps(BANK.to_json()),
        clock_state_json=broken, status="running",
    )
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.CreateMatch(refused)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert await _due(stub, T0 + 60_000) == ["bank"]  # the refused write changed nothing
