"""ListClockedMatches over gRPC on SQLite and PostgreSQL: exactly a game's running matches with a deadline, each
with it, earliest first and paged, as a rules replica reads them to arm its timers; clock writes through the other
RPCs move them."""

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


async def _clocked_list(stub: object, limit: int = 0, after: tuple[int, str] = (0, "")) -> list[tuple[str, int]]:
    request = ppb.ListClockedMatchesRequest(
        game="high-card", after_deadline_unix_ms=after[0], after_match_id=after[1], limit=limit
    )
    reply = await stub.ListClockedMatches(request)  # type: ignore[attr-defined]
    return [(m.match_id, m.deadline_unix_ms) for m in reply.matches]


async def _ids(stub: object, limit: int = 0) -> list[str]:
    return [m for m, _ in await _clocked_list(stub, limit)]


async def test_list_clocked_matches_returns_the_running_ones_with_their_deadlines_earliest_first(
    persistence: Served, nats_server: NatsServer
) -> None:
    stub = persistence.stub
    await _clocked(stub, "per-move", PER_MOVE, T0)  # due at T0 + 30 s
    await _clocked(stub, "bank", BANK, T0 - 40_000)  # due at T0 + 20 s
    await _clocked(stub, "later", PER_MOVE, T0 + 60_000)
    await _clocked(stub, "waiting", PER_MOVE, T0, status="open")
    await _clocked(stub, "over", PER_MOVE, T0, status="open")
    await stub.CloseMatch(ppb.CloseMatchRequest(match_id="over", status="aborted"))

    assert await _clocked_list(stub) == [("bank", T0 + 20_000), ("per-move", T0 + 30_000), ("later", T0 + 90_000)]
    assert await _ids(stub, limit=1) == ["bank"]
    assert await _clocked_list(stub, after=(T0 + 20_000, "bank")) == [("per-move", T0 + 30_000), ("later", T0 + 90_000)]
    assert await _ids(stub, limit=100_000) == ["bank", "per-move", "later"]  # limit capped, not refused

    # the bank seat moves: its match moves to its next deadline
    state = clocks.advance(BANK, clocks.initial(BANK, 2, [0], T0 - 40_000), 2, 0, [1], T0 + 19_000)
    await log_action(persistence, nats_server.url, "bank", 1, "r1", clock_state_json=json.dumps(state))
    assert await _clocked_list(stub) == [
        ("per-move", T0 + 30_000),
        ("bank", T0 + 19_000 + 60_000),  # seat 1's full bank from T0 + 19 s
        ("later", T0 + 90_000),
    ]
    nobody = json.dumps(clocks.initial(PER_MOVE, 2, [], T0))
    await log_action(persistence, nats_server.url, "later", 1, "r1", clock_state_json=nobody)
    assert await _ids(stub) == ["per-move", "bank"]  # nobody to act: no deadline


async def test_list_clocked_matches_refuses_a_missing_game_and_unreadable_clock_states(persistence: Served) -> None:
    stub = persistence.stub
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ListClockedMatches(ppb.ListClockedMatchesRequest(limit=10))
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
    assert await _clocked_list(stub) == [("bank", T0 + 60_000)]  # the refused write changed nothing
