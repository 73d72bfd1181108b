"""The JetStream helper against a real nats-server (started by the `nats_server` fixture)."""

from __future__ import annotations

import asyncio
from collections.abc import Sized

import pytest
from nats.js import api

from gamehall.runtime.bus import STREAMS, Bus, match_subject
from tests.support.nats import NatsServer

pytestmark = pytest.mark.integration


async def _collect_until(received: Sized, count: int, timeout: float = 10.0) -> None:
    async def wait() -> None:
        while len(received) < count:
            await asyncio.sleep(0.02)

    await asyncio.wait_for(wait(), timeout)


async def _settled(bus: Bus, stream: str, durable: str, timeout: float = 5.0) -> api.ConsumerInfo:
    """The consumer's server-side state once no delivered message awaits its ack (or at `timeout`)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        info = await bus.js.consumer_info(stream, durable)
        if info.num_ack_pending == 0 or asyncio.get_running_loop().time() > deadline:
            return info
        await asyncio.sleep(0.05)


async def test_streams_are_created_idempotently(nats_server: NatsServer) -> None:
    bus = await Bus.connect(nats_server.url, "test")
    try:
        await bus.ensure_streams()
        await bus.ensure_streams()
        names = {s.config.name for s in await bus.js.streams_info()}
        assert {s.name for s in STREAMS} <= names
    finally:
        await bus.close()


async def test_publish_with_the_same_msg_id_is_stored_once(nats_server: NatsServer) -> None:
    bus = await Bus.connect(nats_server.url, "test")
    try:
        await bus.ensure_streams()
        subject = match_subject("m1", "action")
        first = await bus.publish(subject, b"v1", "m1:1")
        again = await bus.publish(subject, b"v1", "m1:1")
        other = await bus.publish(subject, b"v2", "m1:2")
        assert not first.duplicate and again.duplicate and not other.duplicate
        info = await bus.js.stream_info("GAMEHALL_MATCHES")
        assert info.state.messages == 2
    finally:
        await bus.close()


async def test_durable_consumer_resumes_after_server_restart(nats_server: NatsServer) -> None:
    publisher = await Bus.connect(nats_server.url, "publisher")
    consumer = await Bus.connect(nats_server.url, "consumer")
    received: list[bytes] = []

    async def handle(msg) -> None:  # type: ignore[no-untyped-def]
        received.append(msg.data)

    try:
        await publisher.ensure_streams()
        for i in range(3):
            await publisher.publish(match_subject("m2", "action"), f"a{i}".encode(), f"m2:{i}")
        sub = await consumer.durable("GAMEHALL_MATCHES", "test-reader", "gamehall.v1.match.m2.>", ack_wait=2)
        consumer.consume(sub, handle)
        await _collect_until(received, 3)

        nats_server.restart()  # both clients reconnect on their own; the durable consumer survives
        for _ in range(200):
            if publisher.nc.is_connected:
                break
            await asyncio.sleep(0.05)
        for i in range(3, 5):
            await publisher.publish(match_subject("m2", "action"), f"a{i}".encode(), f"m2:{i}")
        await _collect_until(received, 5)
        # The server's own account, not a short wait inside the 2 s ack window: every delivery was
        # acked (nothing would come back after ack_wait) and none was a redelivery, restart or not.
        info = await _settled(consumer, "GAMEHALL_MATCHES", "test-reader")
        assert info.num_ack_pending == 0, "delivered messages were never acked: they would be redelivered"
        assert info.num_redelivered == 0 and info.delivered.consumer_seq == 5
        assert received == [b"a0", b"a1", b"a2", b"a3", b"a4"]
    finally:
        await consumer.close()
        await publisher.close()


async def test_failed_handler_gets_the_message_again(nats_server: NatsServer) -> None:
    bus = await Bus.connect(nats_server.url, "test")
    attempts: list[bytes] = []

    async def flaky(msg) -> None:  # type: ignore[no-untyped-def]
        attempts.append(msg.data)
        if len(attempts) == 1:
            raise RuntimeError("transient")

    try:
        await bus.ensure_streams()
        await bus.publish("gamehall.v1.turn.high-card", b"turn", "t:1")
        sub = await bus.durable("GAMEHALL_TURNS", "bots-high-card", "gamehall.v1.turn.high-card")
        bus.consume(sub, flaky, retry_delays=(0.1,))
        await _collect_until(attempts, 2)
        assert attempts == [b"turn", b"turn"]
        await _settled(bus, "GAMEHALL_TURNS", "bots-high-card")
        info = await bus.js.stream_info("GAMEHALL_TURNS")
        assert info.state.messages == 0  # acked on the second try: the work queue removed it
    finally:
        await bus.close()


async def test_in_flight_consumer_runs_slow_handlers_side_by_side_and_acks_each(nats_server: NatsServer) -> None:
    """`in_flight`: handlers overlap up to the limit (never beyond it), each message is acked on its own, and a
    failing one is retried without holding the others."""
    bus = await Bus.connect(nats_server.url, "test")
    running, peak, done, failed_once = 0, 0, [], set()

    async def slow(msg) -> None:  # type: ignore[no-untyped-def]
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        try:
            await asyncio.sleep(0.3)
            if msg.data == b"t3" and msg.data not in failed_once:
                failed_once.add(msg.data)
                raise RuntimeError("transient")
            done.append(msg.data)
        finally:
            running -= 1

    try:
        await bus.ensure_streams()
        for i in range(12):
            await bus.publish("gamehall.v1.turn.high-card", f"t{i}".encode(), f"t:{i}")
        sub = await bus.durable("GAMEHALL_TURNS", "bots-high-card", "gamehall.v1.turn.high-card", ack_wait=5)
        bus.consume(sub, slow, in_flight=4, retry_delays=(0.1,))
        await _collect_until(done, 12)
        assert sorted(done) == sorted(f"t{i}".encode() for i in range(12))
        assert peak == 4, f"handlers overlapped, up to the limit and never beyond it: {peak}"
        info = await _settled(bus, "GAMEHALL_TURNS", "bots-high-card")
        assert info.num_ack_pending == 0 and info.num_pending == 0
    finally:
        await bus.close()


async def test_a_consumer_reports_what_it_has_not_received_yet(nats_server: NatsServer) -> None:
    """`gamehall_jetstream_consumer_pending` (the chart's GamehallJetStreamConsumerLag) follows the consumer:
    ten messages waiting, one handled at a time, the gauge counts down to 0 as they are received."""
    from gamehall.runtime import metrics

    bus = await Bus.connect(nats_server.url, "test")
    seen: list[float] = []
    release = asyncio.Event()

    async def handle(msg) -> None:  # type: ignore[no-untyped-def]
        seen.append(metrics.JETSTREAM_PENDING.labels("GAMEHALL_MATCHES", "pending-reader")._value.get())
        await release.wait()

    try:
        await bus.ensure_streams()
        for i in range(10):
            await bus.publish(match_subject("m9", "action"), f"a{i}".encode(), f"m9:{i}")
        sub = await bus.durable("GAMEHALL_MATCHES", "pending-reader", "gamehall.v1.match.m9.>", ack_wait=5)
        bus.consume(sub, handle, batch=1)
        await _collect_until(seen, 1)
        assert seen == [9]  # the first of ten is in hand: nine not yet received
        release.set()
        await _collect_until(seen, 10)
        assert seen == [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    finally:
        release.set()
        await bus.close()
