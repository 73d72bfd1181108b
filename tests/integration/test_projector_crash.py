"""The projector after a crash: entries a dead persistence had fetched but not committed are projected once
they are redelivered, even though the new instance acked later entries meanwhile (found by the soak at
tournament scale: with cumulative acks, the later ack acknowledged them and they were never projected)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from nats.js import api

from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.runtime.bus import Bus
from gamehall.runtime.matchlog import ALL_ENTRIES, LOG_STREAM, MatchLog
from gamehall.store import Store, open_store
from gamehall_services.persistence.projector import CONSUMER, Projector
from tests.integration.store.helpers import digest, running_match
from tests.support.nats import NatsServer

ACK_WAIT = 1.0


async def _append(log: MatchLog, match_id: str, versions: range, seq: int) -> int:
    for version in versions:
        entry = LogEntry(
            match_id=match_id,
            game="high-card",
            version=version,
            kind=LogEntry.KIND_ACTION,
            seat=version % 2,
            action_json='{"id": "play(card=1)"}',
            request_id=f"r{version}",
            state_digest=digest(match_id, version),
            unix_ms=int(time.time() * 1000),
            status="running",
        )
        seq = await log.append(entry, seq)
    return seq


async def _versions(store: Store, match_id: str) -> list[int]:
    return [a.version for a in await store.get_actions(match_id)]


async def test_entries_a_crashed_projector_held_are_projected_after_a_later_ack(
    nats_server: NatsServer, tmp_path: Path
) -> None:
    store = await open_store(f"sqlite://{tmp_path / 'gamehall.db'}")
    first, second = await Bus.connect(nats_server.url, "first"), await Bus.connect(nats_server.url, "second")
    try:
        await first.ensure_streams()
        a, b = await running_match(store), await running_match(store)
        log = MatchLog(first.js)
        await _append(log, a.id, range(1, 4), 0)
        dying = Projector(store, first, ack_wait=ACK_WAIT)
        await dying.subscribe()
        held = await dying._sub.fetch(10, timeout=2)  # type: ignore[attr-defined]
        assert len(held) == 3  # delivered to the first instance, which dies before committing them
        await first.close()

        await _append(MatchLog(second.js), b.id, range(1, 3), 0)
        fresh = Projector(store, second, ack_wait=ACK_WAIT)
        await fresh.subscribe()
        fresh.start()
        try:
            deadline = time.monotonic() + 10 * ACK_WAIT
            while time.monotonic() < deadline and (await _versions(store, a.id)) != [1, 2, 3]:
                await asyncio.sleep(0.1)
            assert await _versions(store, b.id) == [1, 2]
            assert await _versions(store, a.id) == [1, 2, 3], "the held entries were acknowledged, never projected"
            info = await second.js.consumer_info(LOG_STREAM, CONSUMER)
            assert info.num_pending == 0 and info.num_ack_pending == 0
        finally:
            await fresh.stop()
    finally:
        await second.close()
        await store.close()


async def test_a_cumulative_ack_consumer_of_an_earlier_release_is_made_anew(
    nats_server: NatsServer, tmp_path: Path
) -> None:
    store = await open_store(f"sqlite://{tmp_path / 'gamehall.db'}")
    bus = await Bus.connect(nats_server.url, "persistence")
    try:
        await bus.ensure_streams()
        match = await running_match(store)
        await _append(MatchLog(bus.js), match.id, range(1, 3), 0)
        old = api.ConsumerConfig(
            name=CONSUMER, durable_name=CONSUMER, ack_policy=api.AckPolicy.ALL, filter_subject=ALL_ENTRIES
        )
        await bus.js.add_consumer(LOG_STREAM, config=old)
        projector = Projector(store, bus)
        await projector.subscribe()
        info = await bus.js.consumer_info(LOG_STREAM, CONSUMER)
        assert info.config.ack_policy == api.AckPolicy.EXPLICIT
        projector.start()
        try:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and (await _versions(store, match.id)) != [1, 2]:
                await asyncio.sleep(0.1)
            assert await _versions(store, match.id) == [1, 2]
        finally:
            await projector.stop()
    finally:
        await bus.close()
        await store.close()
