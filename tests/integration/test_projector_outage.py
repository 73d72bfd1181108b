"""The projection never gives up (issue 36), on a real nats-server and a real PostgreSQL.

Before: the projector nak'ed a batch while the database was away and JetStream stopped delivering an entry after
20 deliveries (about 10 s), so a 25 s PostgreSQL outage left 8 to 183 acknowledged moves out of SQL for good, and
a forged close entry was retried 20 times, then dropped without a dead letter. Now an outage is waited out however
long it lasts, with the projection's health and lag saying so, and only what can never be projected goes to the
dead letter.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator

import pytest
from grpc_health.v1 import health, health_pb2

from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.runtime import metrics, patience
from gamehall.runtime.bus import DEAD_HEADER, DEADLETTER_STREAM, Bus, deadletter_subject
from gamehall.runtime.matchlog import LOG_STREAM, MatchLog
from gamehall.store import Store, open_store
from gamehall.testing.postgres import PostgresServer, local_postgres
from gamehall_services.persistence.projector import CONSUMER, HEALTH, Projector
from tests.integration.store.helpers import digest, running_match
from tests.support.nats import NatsServer

pytestmark = pytest.mark.integration
OUTAGE_SECONDS = 15.0
"""Longer than the old give-up (20 deliveries, nak'ed every 0.5 s): entries held across it were lost before."""


def _entry(match_id: str, version: int, **changes: object) -> LogEntry:
    fields: dict[str, object] = {
        "match_id": match_id,
        "game": "high-card",
        "version": version,
        "kind": LogEntry.KIND_ACTION,
        "seat": version % 2,
        "action_json": '{"id": "play(card=1)"}',
        "request_id": f"{match_id}:r{version}",
        "state_digest": digest(match_id, version),
        "unix_ms": int(time.time() * 1000),
        "status": "running",
    }
    return LogEntry(**{**fields, **changes})  # type: ignore[arg-type]


async def _versions(store: Store, match_id: str) -> list[int]:
    return [a.version for a in await store.get_actions(match_id)]


def _gauge(metric: object) -> float:
    return float(metric._value.get())  # type: ignore[attr-defined]


@pytest.fixture
async def postgres() -> AsyncIterator[PostgresServer]:
    with local_postgres(crash_safe=True) as server:
        yield server


async def test_a_postgres_outage_is_waited_out_and_every_entry_lands_once(
    nats_server: NatsServer, postgres: PostgresServer
) -> None:
    assert postgres.stop is not None and postgres.start is not None
    servicer = health.aio.HealthServicer()
    patience.bind_health(servicer)
    store = await open_store(postgres.dsn)
    bus = await Bus.connect(nats_server.url, "projector-outage")
    projector = Projector(store, bus, ack_wait=2.0, linger=0.05)
    try:
        await bus.ensure_streams()
        log = MatchLog(bus.js)
        matches = [await running_match(store) for _ in range(3)]
        seqs = {m.id: 0 for m in matches}
        for m in matches:
            seqs[m.id] = await log.append(_entry(m.id, 1), seqs[m.id])
        await projector.subscribe()
        projector.start()
        for m in matches:
            assert await projector.projected(m.id, seqs[m.id], timeout=10)
        assert await _health(servicer) == health_pb2.HealthCheckResponse.SERVING

        await asyncio.to_thread(postgres.stop)
        down_at = time.monotonic()
        for version in range(2, 8):  # moves acknowledged by the log while the database is away
            for m in matches:
                seqs[m.id] = await log.append(_entry(m.id, version), seqs[m.id])
        lags = []
        while time.monotonic() - down_at < OUTAGE_SECONDS:
            await asyncio.sleep(0.5)
            lags.append(_gauge(metrics.LOG_PROJECTION_LAG))
        assert await _health(servicer) == health_pb2.HealthCheckResponse.NOT_SERVING
        assert _gauge(metrics.CONSUMER_WAITING.labels(LOG_STREAM, CONSUMER)) > 0
        assert _gauge(metrics.LOG_PROJECTION_LAG_ENTRIES) >= 1
        assert lags[-1] > OUTAGE_SECONDS / 2 and lags[-1] > lags[0], lags  # the lag grows while it waits
        info = await bus.js.consumer_info(LOG_STREAM, CONSUMER)
        assert info.num_redelivered == 0, "a wait must hold the entries, not spend their deliveries"

        back = threading.Thread(target=postgres.start)
        back.start()
        await asyncio.to_thread(back.join)
        for m in matches:
            assert await projector.projected(m.id, seqs[m.id], timeout=60), "not projected after the outage"
            assert await _versions(store, m.id) == list(range(1, 8))  # every entry, exactly once, in order
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and await _health(servicer) != health_pb2.HealthCheckResponse.SERVING:
            await asyncio.sleep(0.1)
        assert await _health(servicer) == health_pb2.HealthCheckResponse.SERVING
        assert _gauge(metrics.CONSUMER_WAITING.labels(LOG_STREAM, CONSUMER)) == 0
        while time.monotonic() < deadline and _gauge(metrics.LOG_PROJECTION_LAG_ENTRIES):
            await asyncio.sleep(0.1)
        assert _gauge(metrics.LOG_PROJECTION_LAG_ENTRIES) == 0
        info = await bus.js.consumer_info(LOG_STREAM, CONSUMER)
        assert info.num_pending == 0 and info.num_ack_pending == 0
    finally:
        await projector.stop()
        patience.bind_health(None)
        await bus.close()
        await store.close()


async def test_a_forged_close_entry_is_dead_lettered_and_the_rest_projected(
    nats_server: NatsServer, postgres: PostgresServer
) -> None:
    store = await open_store(postgres.dsn)
    bus = await Bus.connect(nats_server.url, "projector-poison")
    projector = Projector(store, bus, ack_wait=2.0, linger=0.05)
    dead_before = metrics.EVENTS_DEAD_LETTERED.labels(LOG_STREAM, CONSUMER, "permanent")._value.get()
    try:
        await bus.ensure_streams()
        log = MatchLog(bus.js)
        forged, fine = await running_match(store), await running_match(store)
        forged_close = _entry(forged.id, 1, kind=LogEntry.KIND_CLOSE, status="finished", outcome_json="{not json")
        poison_seq = await log.append(forged_close, 0)
        fine_seq = await log.append(_entry(fine.id, 1), 0)
        await projector.subscribe()
        projector.start()
        assert await projector.projected(fine.id, fine_seq, timeout=20)
        dead = await _dead_letter(bus)
        headers = dead.headers or {}
        assert headers[f"{DEAD_HEADER}Sequence"] == str(poison_seq)
        assert int(headers[f"{DEAD_HEADER}Deliveries"]) <= 2  # bounded: found on its first delivery or so
        assert metrics.EVENTS_DEAD_LETTERED.labels(LOG_STREAM, CONSUMER, "permanent")._value.get() == dead_before + 1
        assert (await store.get_match(forged.id)).status == "running"  # nothing half-written
        info = await bus.js.consumer_info(LOG_STREAM, CONSUMER)
        assert info.num_ack_pending == 0 and info.num_pending == 0  # the poison is off the consumer, not looping
    finally:
        await projector.stop()
        await bus.close()
        await store.close()


async def _health(servicer: health.aio.HealthServicer) -> int:
    request = health_pb2.HealthCheckRequest(service=HEALTH)
    return int((await servicer.Check(request, None)).status)


async def _dead_letter(bus: Bus, timeout: float = 30.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while True:
        try:
            return await bus.js.get_msg(DEADLETTER_STREAM, subject=deadletter_subject(LOG_STREAM, CONSUMER))
        except Exception:
            if time.monotonic() > deadline:
                raise AssertionError("the forged entry was never dead-lettered") from None
            await asyncio.sleep(0.1)


async def test_an_operator_lists_shows_and_replays_a_dead_lettered_entry(
    nats_server: NatsServer, postgres: PostgresServer
) -> None:
    """`gamehall deadletter`: an entry that could not be projected (its match was not in SQL) is listed and shown;
    once the cause is fixed, `replay` has persistence project it from the log, and the dead letter is gone."""
    import json
    import uuid

    from typer.testing import CliRunner

    from gamehall.cli.main import app
    from gamehall.runtime.bus import LOG_REPLAY_SUBJECT, REPLAYS_STREAM
    from gamehall.runtime.nats_access import LOG_REPLAYS
    from tests.integration.store.helpers import DUEL

    store = await open_store(postgres.dsn)
    bus = await Bus.connect(nats_server.url, "projector-replay")
    projector = Projector(store, bus, ack_wait=2.0, linger=0.05)
    runner = CliRunner()

    async def cli(*args: str) -> str:
        result = await asyncio.to_thread(runner.invoke, app, ["deadletter", *args, "--nats-url", nats_server.url])
        assert result.exit_code == 0, result.output
        return str(result.output)

    try:
        await bus.ensure_streams()
        missing = str(uuid.uuid4())  # a match SQL does not have (yet)
        seq = await MatchLog(bus.js).append(_entry(missing, 1), 0)
        await projector.subscribe()
        projector.start()
        bus.consume(await bus.durable(REPLAYS_STREAM, LOG_REPLAYS, LOG_REPLAY_SUBJECT), projector.replay_request)
        await _dead_letter(bus)
        listed = [x for x in json.loads(await cli("list", "--json")) if x["origin_sequence"] == seq]
        assert len(listed) == 1 and listed[0]["stream"] == LOG_STREAM and "does not exist" in listed[0]["error"]
        shown = await cli("show", str(listed[0]["sequence"]))
        assert missing in shown and '"request_id"' in shown  # the entry, decoded

        await store.create_match(game="high-card", config=DUEL, match_id=missing)  # the cause, fixed
        await store.start_match(missing)
        said = await cli("replay", str(listed[0]["sequence"]))
        assert f"project match log entry {seq} again" in said
        assert await projector.projected(missing, seq, timeout=20), "the replayed entry was not projected"
        assert await _versions(store, missing) == [1]
        assert [x for x in json.loads(await cli("list", "--json")) if x["origin_sequence"] == seq] == []
    finally:
        await projector.stop()
        await bus.close()
        await store.close()
