"""Idempotency keys are (seat, request id) through the whole move path (issue 20, finding 9): the rules owner's
memory, the match log, the projection and its request-id lookup, with a real nats-server and persistence.

Two seats choosing the same request id both move (neither can squat on the other's id); a retry by the same seat
returns the first answer, from the owner's memory and, on another replica that loaded the match afterwards,
from the projection's seat-scoped lookup (the path beyond JetStream's duplicate window)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from gamehall.engine import get_game
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches import Caller
from gamehall.matches.owner import MatchOwner
from gamehall.runtime.bus import Bus
from gamehall.runtime.matchlog import MatchLog
from gamehall_services.rules.ports import WaitingLog, persistence_store
from tests.integration.matches.conftest import Served
from tests.support.nats import NatsServer

GAME = get_game("grimmoir")
SHARED = "move-1"
"""The guessable id both players pick (the README's old `{match}-{version}-{seat}` scheme is like it)."""


async def _replica(persistence: Served, log: MatchLog) -> MatchOwner:
    return MatchOwner(GAME, persistence_store(lambda: persistence.stub), WaitingLog(lambda: log))


async def _first_legal(replica: MatchOwner, match_id: str, seat: int) -> str:
    held = await replica.held(match_id)
    return str(held.live.describe(held.live.legal(seat)[0])[0])


async def _projected(persistence: Served, match_id: str, version: int) -> None:
    for _ in range(200):
        loaded = await persistence.stub.GetMatch(ppb.GetMatchRequest(match_id=match_id))
        if loaded.match.version >= version:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"match {match_id} not projected to version {version}")


async def test_two_seats_may_use_one_request_id_and_each_retry_returns_its_first_answer(
    persistence: Served, nats_server: NatsServer
) -> None:
    bus = await Bus.connect(nats_server.url, "rules-grimmoir")
    try:
        await bus.ensure_streams()
        log = MatchLog(bus.js)
        config = GAME.configure()
        accounts = [
            (
                await persistence.stub.CreateAccount(ppb.CreateAccountRequest(username=f"p{s}", password_hash="h"))
            ).account
            for s in range(config.seats)
        ]
        created = await persistence.stub.CreateMatch(
            ppb.CreateMatchRequest(
                game=GAME.id,
                config_json=json.dumps(config.to_json()),
                seed=11,
                status="running",
                seats=[ppb.SeatRecord(seat=s, kind="human", account_id=a.id) for s, a in enumerate(accounts)],
            )
        )
        match_id = created.match.id
        owner = await _replica(persistence, log)
        answers: dict[int, Any] = {}
        for _ in range(2):  # each seat, as it comes to act, submits under the shared id
            held = await owner.held(match_id)
            seat = next(s for s in held.live.to_act if s not in answers)
            action = await _first_legal(owner, match_id, seat)
            answers[seat] = await owner.play(match_id, Caller(accounts[seat].id), None, SHARED, None, action_id=action)
        assert sorted(a.version for a in answers.values()) == [1, 2]
        assert not any(a.replayed for a in answers.values())

        for seat, first in answers.items():  # retries on the owner: from its memory
            again = await owner.play(match_id, Caller(accounts[seat].id), None, SHARED, None, action_id="anything")
            assert again.replayed and again.version == first.version and again.action == first.action

        await _projected(persistence, match_id, 2)
        other = await _replica(persistence, log)  # a replica that takes over: the keys come from the projection
        for seat, first in answers.items():
            again = await other.play(match_id, Caller(accounts[seat].id), None, SHARED, None, action_id="anything")
            assert again.replayed and again.version == first.version and again.action == first.action
        assert (await other.held(match_id)).live.version == 2  # nothing was judged again

        loaded = await persistence.stub.LoadMatchState(
            ppb.LoadMatchStateRequest(match_id=match_id, request_id=SHARED, request_seat=1, with_request_ids=True)
        )
        assert loaded.prior.seat == 1 and loaded.prior.request_id == SHARED
        assert sorted((k.seat, k.request_id) for k in loaded.logged_requests) == [(0, SHARED), (1, SHARED)]
    finally:
        await bus.close()
