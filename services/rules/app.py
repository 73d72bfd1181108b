"""Assemble a rules host: the harness, the stateless RulesService of the chosen game, and the
LiveMatchService through which this replica owns the live matches the gateways route to it, with
their clocks as its timers and its lease among the game's replicas (who owns which clock)."""

from __future__ import annotations

import argparse
import asyncio
import os
from typing import Any

import structlog

from gamehall.engine import get_game
from gamehall.internal.v1 import live_pb2, live_pb2_grpc, persistence_pb2_grpc, rules_pb2, rules_pb2_grpc
from gamehall.matches.members import Members, Membership
from gamehall.matches.owner import MatchOwner
from gamehall.matches.owner_clocks import OwnerClocks
from gamehall.matches.watched import Watched
from gamehall.runtime.advertised import advertised
from gamehall.runtime.bus import Bus, members_subject, watching_subject
from gamehall.runtime.channels import internal_channel
from gamehall.runtime.matchlog import MatchLog
from gamehall.runtime.service import ServiceApp
from gamehall.runtime.settings import Settings
from gamehall_services.rules.live_servicer import LiveMatchServicer
from gamehall_services.rules.ports import NatsViews, WaitingLog, metered, persistence_store
from gamehall_services.rules.servicer import RulesServicer

SERVICE_NAME = rules_pb2.DESCRIPTOR.services_by_name["RulesService"].full_name
LIVE_SERVICE_NAME = live_pb2.DESCRIPTOR.services_by_name["LiveMatchService"].full_name
log = structlog.get_logger("gamehall.rules")


def parse_args(argv: list[str] | None = None) -> Settings:
    parser = argparse.ArgumentParser(prog="python -m gamehall_services.rules", description=__doc__)
    parser.add_argument("--game", default=os.environ.get("GAMEHALL_GAME", ""), help="id of the game to serve")
    args = parser.parse_args(argv)
    if not args.game:
        parser.error("--game (or GAMEHALL_GAME) is required")
    overrides = {"game": args.game}
    if "GAMEHALL_SERVICE" not in os.environ:
        overrides["service"] = f"rules-{args.game}"
    return Settings(**overrides)


def build_app(settings: Settings) -> ServiceApp:
    game = get_game(settings.game)
    app = ServiceApp(settings)
    rules = RulesServicer(game)
    app.add_servicer(rules_pb2_grpc.add_RulesServiceServicer_to_server, rules, SERVICE_NAME)
    held: dict[str, Any] = {}
    watched = Watched()
    views = NatsViews(lambda: held["bus"].nc if "bus" in held else None, watched.audiences)
    store, log_port = persistence_store(lambda: held["persistence"]), WaitingLog(lambda: held.get("log"))
    idle_ms = int(settings.match_idle_seconds * 1000)
    live = metered(MatchOwner(game, store, log_port, views, idle_ms=idle_ms))
    clocks = OwnerClocks(live)
    app.add_servicer(
        live_pb2_grpc.add_LiveMatchServiceServicer_to_server,
        LiveMatchServicer(live, app.name, app.draining, settings.play_stream_linger()),
        LIVE_SERVICE_NAME,
    )

    @app.on_start
    async def connect() -> None:
        channel = internal_channel(settings.persistence_addr)
        held["channel"] = channel
        held["persistence"] = persistence_pb2_grpc.PersistenceServiceStub(channel)
        members = Members(advertised(settings, app.port))
        clocks.owns = members.owns
        held["membership"] = Membership(members, publish_lease, clocks.rearm)
        held["bus_task"] = asyncio.create_task(connect_bus())

    async def publish_lease(payload: bytes) -> None:
        bus = held.get("bus")
        if bus is not None:
            await bus.nc.publish(members_subject(game.id), payload)

    async def connect_bus() -> None:
        """NATS in the background: the host serves the stateless rules at once; moves need the match log."""
        while True:
            try:
                bus = await asyncio.wait_for(Bus.connect(settings.nats_url, settings.service), 10)
                await bus.ensure_streams(replicas=settings.jetstream_replicas)
                held["bus"], held["log"] = bus, MatchLog(bus.js)

                async def on_lease(msg: Any) -> None:
                    watched.note(msg.data)

                await bus.nc.subscribe(watching_subject(game.id), cb=on_lease)

                async def on_member(msg: Any) -> None:
                    held["membership"].heard(msg.data)

                await bus.nc.subscribe(members_subject(game.id), cb=on_member)
                held["membership"].start()
                return
            except Exception as exc:
                log.warning("no NATS connection yet; moves wait for the match log", error=str(exc) or repr(exc))
                await asyncio.sleep(1)

    @app.on_stop
    async def disconnect() -> None:
        held["bus_task"].cancel()
        clocks.close()
        if "membership" in held:
            await held["membership"].stop()
        if "bus" in held:
            await held["bus"].close()
        if "channel" in held:
            await held["channel"].close()

    return app

