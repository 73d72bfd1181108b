"""Assemble the persistence service: open (and migrate) the store, connect the bus, run the outbox relay
and the match log's projector."""

from __future__ import annotations

import argparse
import asyncio
import os
from datetime import timedelta

import structlog

import gamehall_services.persistence.errors  # noqa: F401 - registers the store's errors
from gamehall.internal.v1 import (
    audit_pb2,
    audit_pb2_grpc,
    matchmaking_store_pb2,
    matchmaking_store_pb2_grpc,
    persistence_pb2,
    persistence_pb2_grpc,
)
from gamehall.runtime.bus import LOG_REPLAY_SUBJECT, REPLAYS_STREAM, Bus
from gamehall.runtime.logging import configure_logging
from gamehall.runtime.nats_access import LOG_REPLAYS
from gamehall.runtime.service import ServiceApp
from gamehall.runtime.settings import Settings
from gamehall.store import Store, open_store
from gamehall_services.persistence.audit_servicer import AuditServicer
from gamehall_services.persistence.mm_servicer import MatchmakingStoreServicer
from gamehall_services.persistence.projector import Projector
from gamehall_services.persistence.relay import OutboxRelay
from gamehall_services.persistence.retention import MatchRetention, TicketRetention
from gamehall_services.persistence.servicer import PersistenceServicer

SERVICE_NAME = persistence_pb2.DESCRIPTOR.services_by_name["PersistenceService"].full_name
MM_SERVICE_NAME = matchmaking_store_pb2.DESCRIPTOR.services_by_name["MatchmakingStoreService"].full_name
AUDIT_SERVICE_NAME = audit_pb2.DESCRIPTOR.services_by_name["AuditService"].full_name
log = structlog.get_logger("gamehall.persistence")


class _Lazy(PersistenceServicer):
    """The servicer, bound to the store and relay once the start hook has opened them."""

    def __init__(self) -> None:
        super().__init__(store=None, relay=None)


def build_app(settings: Settings, *, publish: bool = True) -> ServiceApp:
    app = ServiceApp(settings)
    servicer = _Lazy()
    app.add_servicer(persistence_pb2_grpc.add_PersistenceServiceServicer_to_server, servicer, SERVICE_NAME)
    mm_servicer = MatchmakingStoreServicer(store=None, relay=None)
    app.add_servicer(
        matchmaking_store_pb2_grpc.add_MatchmakingStoreServiceServicer_to_server, mm_servicer, MM_SERVICE_NAME
    )
    audit_servicer = AuditServicer(store=None, relay=None)
    app.add_servicer(audit_pb2_grpc.add_AuditServiceServicer_to_server, audit_servicer, AUDIT_SERVICE_NAME)
    held: dict[str, object] = {}

    @app.on_start
    async def open_everything() -> None:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        store = await open_store(settings.database_dsn())
        servicer.store = mm_servicer.store = audit_servicer.store = store
        held["store"] = store
        retention = TicketRetention(store, timedelta(days=settings.ticket_history_days))
        retention.start()
        held["retention"] = retention
        matches = MatchRetention(store, settings.match_retention, timedelta(days=settings.match_retention_days))
        matches.start()
        held["match_retention"] = matches
        if publish:
            bus = await Bus.connect(settings.nats_url, settings.service)
            await bus.ensure_streams(replicas=settings.jetstream_replicas)
            relay = OutboxRelay(store, bus)
            republished = await relay.drain()  # whatever a crash left between commit and publish
            if republished:
                log.info("republished pending events after restart", count=republished)
            relay.start()
            servicer.relay = mm_servicer.relay = relay
            held["bus"], held["relay"] = bus, relay
            projector = Projector(store, bus, relay.poke, linger=settings.projection_linger_ms / 1000)
            await projector.subscribe()
            projector.start()
            replays = await bus.durable(REPLAYS_STREAM, LOG_REPLAYS, LOG_REPLAY_SUBJECT)
            bus.consume(replays, projector.replay_request)
            servicer.projector = projector
            held["projector"] = projector

    @app.on_stop
    async def close_everything() -> None:
        retention = held.get("retention")
        if isinstance(retention, TicketRetention):
            await retention.stop()
        match_retention = held.get("match_retention")
        if isinstance(match_retention, MatchRetention):
            await match_retention.stop()
        projector = held.get("projector")
        if isinstance(projector, Projector):
            await projector.stop()
        relay = held.get("relay")
        if isinstance(relay, OutboxRelay):
            await relay.stop()
            try:
                await relay.drain()
            except Exception as exc:
                log.warning("final outbox drain failed", error=str(exc))
        bus = held.get("bus")
        if isinstance(bus, Bus):
            await bus.close()
        store = held.get("store")
        if isinstance(store, Store):
            await store.close()

    return app


async def _migrate(settings: Settings) -> None:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    store = await open_store(settings.database_dsn())  # open_store migrates
    try:
        log.info("schema up to date", version=await store.schema_version())
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m gamehall_services.persistence", description=__doc__)
    parser.add_argument("--migrate-only", action="store_true", help="apply database migrations and exit")
    args = parser.parse_args(argv)
    settings = Settings(service="persistence") if _unnamed() else Settings()
    if args.migrate_only:
        configure_logging(settings.service, settings.log_format, settings.log_level)
        asyncio.run(_migrate(settings))
        return
    build_app(settings).main()


def _unnamed() -> bool:
    return "GAMEHALL_SERVICE" not in os.environ
