"""Every durable consumer sends a malformed or unprocessable event to the dead letter within a bounded
number of deliveries (issue 20, finding 2): matchmaking's finished-match consumer and the ai's turn
consumers, each with its real handler on a real nats-server (their internal calls faked).

Before the fix the finished-match handler raised on a match where one account held both seats and
the event came back about once a second, forever (persistence rates a match with its finish now, and leaves
such a match unrated: tests/unit/persistence_service/test_finish_rater.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from gamehall.engine import registry
from gamehall.events.v1 import match_pb2
from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.runtime.bus import DEAD_HEADER, DEADLETTER_STREAM, Bus, deadletter_subject, match_subject, turn_subject
from gamehall.runtime.matchlog import BOT, LOG_STREAM, bot_filter, log_subject
from gamehall_sdk.v1 import common_pb2
from gamehall_services.ai.worker import Turn, handle_turn
from gamehall_services.matchmaking.app import CONSUMER, FINISHED
from gamehall_services.matchmaking.finished import FinishedMatches
from tests.fixtures.high_card import GAME as HIGH_CARD
from tests.support.nats import NatsServer

pytestmark = pytest.mark.integration
FAST = (0.05, 0.1)
GAME = HIGH_CARD.id


@pytest.fixture(autouse=True)
def _high_card(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Only the fixture game: these handlers need no real game (and must not depend on loading them)."""
    monkeypatch.setattr(registry, "_games", {HIGH_CARD.id: HIGH_CARD})
    monkeypatch.setattr(registry, "_loaded_entry_points", True)
    yield


def _rpc_error(code: grpc.StatusCode) -> grpc.aio.AioRpcError:
    return grpc.aio.AioRpcError(code, grpc.aio.Metadata(), grpc.aio.Metadata(), details=f"{code.name} from a fake")


def _finished(match_id: str, ranks: list[int], tournament_id: str = "") -> bytes:
    event = match_pb2.MatchEvent(match_id=match_id, version=3, game=GAME)
    event.finished.outcome.CopyFrom(common_pb2.Outcome(ranks=ranks, reason="resigned"))
    event.finished.tournament_id = tournament_id
    return bytes(event.SerializeToString())


def _turn(match_id: str, game: str = HIGH_CARD.id) -> bytes:
    event = match_pb2.MatchEvent(match_id=match_id, version=1, game=game)
    event.turn_to_act.CopyFrom(match_pb2.TurnToAct(seat=1, difficulty="easy"))
    return bytes(event.SerializeToString())


class _Book:
    def __init__(self) -> None:
        self.woken = 0
        self.stepped: list[str] = []

    def result_recorded(self, tournament_id: str) -> None:
        self.woken += 1
        self.stepped.append(tournament_id)


class _Worker:
    """`gone`: the owner says the match does not exist; `away`: the owner is away until `back` is set."""

    def __init__(self) -> None:
        self.played: list[str] = []
        self.back = asyncio.Event()

    async def play(self, turn: Turn) -> str:
        self.played.append(turn.match_id)
        if turn.match_id == "away" and self.back.is_set():
            return "played"
        raise _rpc_error(grpc.StatusCode.NOT_FOUND if turn.match_id == "gone" else grpc.StatusCode.UNAVAILABLE)


async def _dead_letters(bus: Bus, stream: str, durable: str, count: int, timeout: float = 10.0) -> list[Any]:
    sub = await bus.js.pull_subscribe(deadletter_subject(stream, durable), stream=DEADLETTER_STREAM)
    found: list[Any] = []
    deadline = asyncio.get_running_loop().time() + timeout
    while len(found) < count and asyncio.get_running_loop().time() < deadline:
        try:
            found.extend(await sub.fetch(count - len(found), timeout=0.5))
        except TimeoutError:
            continue
    await sub.unsubscribe()
    return found


async def test_finished_match_consumer_dead_letters_what_it_can_never_handle(nats_server: NatsServer) -> None:
    bus = await Bus.connect(nats_server.url, "matchmaking")
    book = _Book()
    handler = FinishedMatches(book)
    try:
        await bus.ensure_streams()
        await bus.publish(match_subject("junk", "finished"), b"\xff\xfe not protobuf", "junk:f")
        await bus.publish(match_subject("nameless", "finished"), _finished("", [1, 2]), "nameless:f")
        await bus.publish(match_subject("fine", "finished"), _finished("fine", [1, 2], "t1"), "fine:f")
        sub = await bus.durable("GAMEHALL_MATCHES", CONSUMER, FINISHED, max_deliver=4)
        bus.consume(sub, handler.handle, retry_delays=FAST)
        dead = await _dead_letters(bus, "GAMEHALL_MATCHES", CONSUMER, 2)
        by_subject = {m.headers[f"{DEAD_HEADER}Subject"]: m.headers for m in dead}
        assert set(by_subject) == {match_subject(m, "finished") for m in ("junk", "nameless")}
        assert all(h[f"{DEAD_HEADER}Reason"] == "permanent" for h in by_subject.values())
        assert all(h[f"{DEAD_HEADER}Deliveries"] == "1" for h in by_subject.values())
        assert "without a match id" in by_subject[match_subject("nameless", "finished")][f"{DEAD_HEADER}Error"]
        await asyncio.sleep(0.5)  # nothing comes back: each was seen once
        assert book.woken == 1  # the tournament's match woke its driver
        info = await bus.js.consumer_info("GAMEHALL_MATCHES", CONSUMER)
        assert info.num_ack_pending == 0 and info.num_pending == 0
    finally:
        await bus.close()


async def test_turn_consumer_dead_letters_unplayable_turns_within_max_deliver(nats_server: NatsServer) -> None:
    bus = await Bus.connect(nats_server.url, "ai")
    worker = _Worker()
    durable = f"bots-{GAME}"
    try:
        await bus.ensure_streams()
        subject = turn_subject(GAME)
        await bus.publish(subject, b"\x08\x96\x01 garbage", "t:junk")
        await bus.publish(subject, _turn("m-x", game="no-such-game"), "t:game")
        await bus.publish(subject, _turn("gone"), "t:gone")
        await bus.publish(subject, _turn("away"), "t:away")  # the owner is away: waited out, never given up
        sub = await bus.durable("GAMEHALL_TURNS", durable, subject, max_deliver=3)
        bus.consume(sub, lambda msg: handle_turn(worker, msg), in_flight=4, retry_delays=FAST)  # type: ignore[arg-type]
        dead = await _dead_letters(bus, "GAMEHALL_TURNS", durable, 3)
        reasons = sorted((m.headers[f"{DEAD_HEADER}Reason"], m.headers[f"{DEAD_HEADER}Deliveries"]) for m in dead)
        assert reasons == [("permanent", "1"), ("permanent", "1"), ("permanent", "1")]
        assert worker.played.count("gone") == 1
        deadline = asyncio.get_running_loop().time() + 10
        while worker.played.count("away") <= 3 and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.1)
        assert worker.played.count("away") > 3, "past max_deliver: an outage spends no delivery"
        assert (await bus.js.stream_info("GAMEHALL_TURNS")).state.messages == 1  # still held, not dropped
        worker.back.set()
        while (await bus.js.stream_info("GAMEHALL_TURNS")).state.messages and asyncio.get_running_loop().time() < (
            deadline + 15
        ):
            await asyncio.sleep(0.1)
        assert (await bus.js.stream_info("GAMEHALL_TURNS")).state.messages == 0  # played once the owner was back
        assert len(await _dead_letters(bus, "GAMEHALL_TURNS", durable, 4, timeout=1.0)) == 3
    finally:
        await bus.close()


async def test_bot_consumer_on_the_match_log_dead_letters_entries_it_cannot_play(nats_server: NatsServer) -> None:
    bus = await Bus.connect(nats_server.url, "ai")
    worker = _Worker()
    durable = f"bots-{GAME}"
    try:
        await bus.ensure_streams()
        await bus.publish(log_subject(GAME, "junk", BOT), b"\xff not a log entry", "log:junk")
        no_turns = LogEntry(match_id="quiet", game=GAME, version=3)
        await bus.publish(log_subject(GAME, "quiet", BOT), no_turns.SerializeToString(), "log:quiet")
        sub = await bus.durable(LOG_STREAM, durable, bot_filter(GAME), max_deliver=3)
        bus.consume(sub, lambda msg: handle_turn(worker, msg), batch=1, retry_delays=FAST)  # type: ignore[arg-type]
        dead = await _dead_letters(bus, LOG_STREAM, durable, 2)
        assert sorted(m.headers[f"{DEAD_HEADER}Reason"] for m in dead) == ["permanent", "permanent"]
        assert worker.played == []
    finally:
        await bus.close()
