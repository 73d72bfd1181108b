"""Poison events end in the dead-letter stream within a bounded number of deliveries (issue 20, finding 2).

Against a real nats-server: a permanent failure is dead-lettered on its first delivery, a failure
that keeps recurring after `max_deliver` deliveries, and a message whose every delivery went
unanswered (a crashed or hung consumer) from the server's max-deliveries advisory. Each dead letter
carries the original subject, headers and the error, and is counted once.
"""

from __future__ import annotations

import asyncio

import pytest
from nats.js import api

from gamehall.runtime import metrics
from gamehall.runtime.bus import (
    DEAD_HEADER,
    DEADLETTER_STREAM,
    Bus,
    PermanentEventError,
    deadletter_subject,
    match_subject,
    retry_delay,
)
from tests.support.nats import NatsServer

pytestmark = pytest.mark.integration


async def _dead_letter(bus: Bus, stream: str, durable: str, timeout: float = 10.0) -> api.RawStreamMsg:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        try:
            return await bus.js.get_msg(DEADLETTER_STREAM, subject=deadletter_subject(stream, durable))
        except Exception:
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"nothing dead-lettered for {stream}/{durable}") from None
            await asyncio.sleep(0.05)


def _dead_count(stream: str, durable: str, reason: str) -> float:
    return metrics.EVENTS_DEAD_LETTERED.labels(stream, durable, reason)._value.get()


async def _settled(bus: Bus, stream: str, durable: str, timeout: float = 5.0) -> api.ConsumerInfo:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        info = await bus.js.consumer_info(stream, durable)
        if info.num_ack_pending == 0 or asyncio.get_running_loop().time() > deadline:
            return info
        await asyncio.sleep(0.05)


def test_retry_delays_grow_and_cap() -> None:
    assert [retry_delay(n, (0.5, 1.0, 4.0)) for n in (1, 2, 3, 4, 9)] == [0.5, 1.0, 4.0, 4.0, 4.0]


async def test_a_permanent_failure_is_dead_lettered_once_with_its_origin(nats_server: NatsServer) -> None:
    bus = await Bus.connect(nats_server.url, "test")
    deliveries: list[int] = []

    async def refuse(msg) -> None:  # type: ignore[no-untyped-def]
        deliveries.append(msg.metadata.num_delivered)
        raise PermanentEventError("player 'acc-1' holds two seats")

    try:
        await bus.ensure_streams()
        before = _dead_count("GAMEHALL_MATCHES", "dl-permanent", "permanent")
        await bus.js.publish(
            match_subject("m1", "finished"), b"\x00poison", headers={"Nats-Msg-Id": "m1:f", "X-Trace": "t-1"}
        )
        sub = await bus.durable("GAMEHALL_MATCHES", "dl-permanent", match_subject("m1", ">"), ack_wait=5)
        bus.consume(sub, refuse)
        dead = await _dead_letter(bus, "GAMEHALL_MATCHES", "dl-permanent")
        assert dead.data == b"\x00poison"
        headers = dead.headers or {}
        assert headers[f"{DEAD_HEADER}Subject"] == match_subject("m1", "finished")
        assert headers[f"{DEAD_HEADER}Reason"] == "permanent"
        assert "holds two seats" in headers[f"{DEAD_HEADER}Error"]
        assert headers["Gamehall-Orig-X-Trace"] == "t-1"
        info = await _settled(bus, "GAMEHALL_MATCHES", "dl-permanent")
        await asyncio.sleep(0.3)  # a nak'd message would be back by now
        assert deliveries == [1] and info.num_ack_pending == 0 and info.num_redelivered == 0
        assert _dead_count("GAMEHALL_MATCHES", "dl-permanent", "permanent") == before + 1
    finally:
        await bus.close()


async def test_a_recurring_failure_stops_after_max_deliver(nats_server: NatsServer) -> None:
    bus = await Bus.connect(nats_server.url, "test")
    deliveries: list[int] = []

    async def broken(msg) -> None:  # type: ignore[no-untyped-def]
        deliveries.append(msg.metadata.num_delivered)
        raise RuntimeError("a handler bug")  # names no outage: each delivery counts

    try:
        await bus.ensure_streams()
        await bus.publish("gamehall.v1.turn.high-card", b"turn", "t:9")
        sub = await bus.durable("GAMEHALL_TURNS", "dl-retry", "gamehall.v1.turn.high-card", max_deliver=3)
        bus.consume(sub, broken, retry_delays=(0.05, 0.1))
        dead = await _dead_letter(bus, "GAMEHALL_TURNS", "dl-retry")
        assert (dead.headers or {})[f"{DEAD_HEADER}Reason"] == "exhausted"
        assert (dead.headers or {})[f"{DEAD_HEADER}Deliveries"] == "3"
        await asyncio.sleep(0.3)
        assert deliveries == [1, 2, 3]
        assert (await bus.js.stream_info("GAMEHALL_TURNS")).state.messages == 0  # termed: off the work queue
    finally:
        await bus.close()


async def test_deliveries_that_never_answer_are_dead_lettered_from_the_advisory(nats_server: NatsServer) -> None:
    bus = await Bus.connect(nats_server.url, "test")
    release = asyncio.Event()
    deliveries: list[int] = []

    async def hang(msg) -> None:  # type: ignore[no-untyped-def]
        deliveries.append(msg.metadata.num_delivered)
        await release.wait()  # a consumer stuck (or killed) on this message: no ack, no nak
        raise RuntimeError("gave up waiting")

    try:
        await bus.ensure_streams()
        await bus.publish(match_subject("m3", "finished"), b"stuck", "m3:f")
        sub = await bus.durable("GAMEHALL_MATCHES", "dl-hang", match_subject("m3", ">"), ack_wait=0.5, max_deliver=2)
        for _ in range(3):
            bus.consume(sub, hang, batch=1)
        dead = await _dead_letter(bus, "GAMEHALL_MATCHES", "dl-hang")
        assert dead.data == b"stuck"
        assert (dead.headers or {})[f"{DEAD_HEADER}Subject"] == match_subject("m3", "finished")
        assert deliveries == [1, 2]
    finally:
        release.set()
        await bus.close()


async def test_an_unanswered_turn_leaves_the_work_queue_once_dead_lettered(nats_server: NatsServer) -> None:
    bus = await Bus.connect(nats_server.url, "test")
    release = asyncio.Event()

    async def hang(msg) -> None:  # type: ignore[no-untyped-def]
        await release.wait()

    try:
        await bus.ensure_streams()
        await bus.publish("gamehall.v1.turn.dice-nim", b"turn", "t:hang")
        turns = "gamehall.v1.turn.dice-nim"
        sub = await bus.durable("GAMEHALL_TURNS", "dl-hang-turn", turns, ack_wait=0.5, max_deliver=2)
        for _ in range(3):
            bus.consume(sub, hang, batch=1)
        assert (await _dead_letter(bus, "GAMEHALL_TURNS", "dl-hang-turn")).data == b"turn"
        for _ in range(100):
            if (await bus.js.stream_info("GAMEHALL_TURNS")).state.messages == 0:
                break
            await asyncio.sleep(0.05)
        assert (await bus.js.stream_info("GAMEHALL_TURNS")).state.messages == 0
    finally:
        release.set()
        await bus.close()


async def test_a_consumer_made_with_unbounded_redelivery_gets_bounded(nats_server: NatsServer) -> None:
    bus = await Bus.connect(nats_server.url, "test")
    try:
        await bus.ensure_streams()
        legacy = api.ConsumerConfig(
            name="dl-legacy",
            durable_name="dl-legacy",
            ack_policy=api.AckPolicy.EXPLICIT,
            max_deliver=-1,
            filter_subject=match_subject("m4", ">"),
        )
        await bus.js.add_consumer("GAMEHALL_MATCHES", config=legacy)
        await bus.durable("GAMEHALL_MATCHES", "dl-legacy", match_subject("m4", ">"), max_deliver=5)
        assert (await bus.js.consumer_info("GAMEHALL_MATCHES", "dl-legacy")).config.max_deliver == 5
        with pytest.raises(ValueError):
            await bus.durable("GAMEHALL_MATCHES", "dl-legacy", match_subject("m4", ">"), max_deliver=-1)
    finally:
        await bus.close()


async def test_a_subscription_made_elsewhere_dead_letters_under_its_consumer_name(nats_server: NatsServer) -> None:
    bus = await Bus.connect(nats_server.url, "test")

    async def refuse(msg) -> None:  # type: ignore[no-untyped-def]
        raise PermanentEventError("never")

    try:
        await bus.ensure_streams()
        await bus.publish(match_subject("m5", "finished"), b"x", "m5:f")
        sub = await bus.js.pull_subscribe(match_subject("m5", ">"), durable="made-elsewhere", stream="GAMEHALL_MATCHES")
        bus.consume(sub, refuse)
        assert (await _dead_letter(bus, "GAMEHALL_MATCHES", "made-elsewhere")).data == b"x"
    finally:
        await bus.close()


async def test_a_dependency_that_is_away_is_waited_out_without_spending_deliveries(nats_server: NatsServer) -> None:
    """Issue 36: a handler whose store is away (UNAVAILABLE, a broken connection) never sends its message towards the
    dead letter, however long the outage: the message is held on its first delivery, retried with backoff, the
    consumer's waiting gauge and health say so, and it is handled once the dependency is back."""
    from grpc_health.v1 import health, health_pb2

    from gamehall.runtime import patience
    from gamehall.store.errors import Unavailable

    servicer = health.aio.HealthServicer()
    patience.bind_health(servicer)
    bus = await Bus.connect(nats_server.url, "test")
    back = asyncio.Event()
    deliveries: list[int] = []
    attempts = 0

    async def needs_the_store(msg) -> None:  # type: ignore[no-untyped-def]
        nonlocal attempts
        attempts += 1
        deliveries.append(msg.metadata.num_delivered)
        if not back.is_set():
            raise Unavailable("PostgreSQL is unavailable: connection refused")

    async def status() -> int:
        request = health_pb2.HealthCheckRequest(service=patience.health_name("dl-wait"))
        return int((await servicer.Check(request, None)).status)

    try:
        await bus.ensure_streams()
        await bus.publish("gamehall.v1.turn.high-card", b"turn", "t:wait")
        sub = await bus.durable("GAMEHALL_TURNS", "dl-wait", "gamehall.v1.turn.high-card", ack_wait=1.5, max_deliver=2)
        bus.consume(sub, needs_the_store, retry_delays=(0.05,))
        deadline = asyncio.get_running_loop().time() + 10
        while attempts < 6 and asyncio.get_running_loop().time() < deadline:  # past max_deliver and the ack wait
            await asyncio.sleep(0.1)
        assert attempts >= 6
        assert set(deliveries) == {1}, "a wait must spend no delivery (in-progress acks keep the message)"
        gauge = metrics.CONSUMER_WAITING.labels("GAMEHALL_TURNS", "dl-wait")._value.get()
        assert gauge == 1
        assert await status() == health_pb2.HealthCheckResponse.NOT_SERVING
        back.set()
        while (await bus.js.stream_info("GAMEHALL_TURNS")).state.messages and asyncio.get_running_loop().time() < (
            deadline + 15
        ):
            await asyncio.sleep(0.1)
        assert (await bus.js.stream_info("GAMEHALL_TURNS")).state.messages == 0  # handled and acked
        assert metrics.CONSUMER_WAITING.labels("GAMEHALL_TURNS", "dl-wait")._value.get() == 0
        assert await status() == health_pb2.HealthCheckResponse.SERVING
        with pytest.raises(Exception):  # noqa: B017 - nothing was dead-lettered
            await bus.js.get_msg(DEADLETTER_STREAM, subject=deadletter_subject("GAMEHALL_TURNS", "dl-wait"))
    finally:
        patience.bind_health(None)
        await bus.close()
