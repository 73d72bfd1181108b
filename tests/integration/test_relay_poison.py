"""The outbox relay against a real nats-server (issue 36): an event that can never be published (here, larger than
the server's maximum payload) is dead-lettered after a few rounds, with the metric, instead of holding back every
event committed after it; the events around it are published once each."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamehall.runtime import metrics
from gamehall.runtime.bus import DEAD_HEADER, DEADLETTER_STREAM, Bus, deadletter_subject
from gamehall.store import OutboxMessage, open_store
from gamehall_services.persistence.relay import CONSUMER, POISON_ATTEMPTS, STREAM, OutboxRelay
from tests.support.nats import NatsServer

pytestmark = pytest.mark.integration


async def test_an_event_that_can_never_be_published_is_dead_lettered(nats_server: NatsServer, tmp_path: Path) -> None:
    store = await open_store(f"sqlite://{tmp_path / 'gamehall.db'}")
    bus = await Bus.connect(nats_server.url, "relay-poison")
    relay = OutboxRelay(store, bus)
    counted = metrics.EVENTS_DEAD_LETTERED.labels(STREAM, CONSUMER, "permanent")
    before = counted._value.get()
    try:
        await bus.ensure_streams()
        subject = "gamehall.v1.match.poison.action"
        await store.enqueue(
            [
                OutboxMessage(subject=subject, msg_id="poison:1", payload=b"before"),
                OutboxMessage(subject=subject, msg_id="poison:2", payload=b"x" * (2 << 20)),  # over max_payload
                OutboxMessage(subject=subject, msg_id="poison:3", payload=b"after"),
            ]
        )
        for _ in range(POISON_ATTEMPTS - 1):
            with pytest.raises(Exception, match=r"(?i)payload"):
                await relay.drain()
        assert await relay.drain() == 1  # the third round gives the poison up
        assert await store.pending_outbox() == []
        stream = await bus.js.stream_info("GAMEHALL_MATCHES")
        assert stream.state.messages == 2  # "before" and "after", once each
        dead = await bus.js.get_msg(DEADLETTER_STREAM, subject=deadletter_subject(STREAM, CONSUMER))
        assert (dead.headers or {})[f"{DEAD_HEADER}Subject"] == subject
        assert counted._value.get() == before + 1
    finally:
        await bus.close()
        await store.close()
