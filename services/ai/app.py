"""Assemble the ai service: the harness, a JetStream consumer per game, the turn worker (which plays on
each match's owning rules replica, routed as the gateway routes).

Every replica joins the same durable consumers per game, both named `bots-<game>`: on the match log,
filtered to the entries after which a bot is to act, and on the TURNS work queue, where a match's first
turn is announced when it starts (written with the start, before the match has a log). Turns are
shared out; a message is acked only after its turns were played (or found stale), so a worker killed
mid-think has its turn redelivered to another.
"""

from __future__ import annotations

import os
from typing import Any

import structlog
from nats.aio.msg import Msg

from gamehall.engine import all_games
from gamehall.internal.v1 import persistence_pb2_grpc
from gamehall.runtime.bus import Bus, turn_subject
from gamehall.runtime.channels import internal_channel
from gamehall.runtime.identity import ensure_service_account
from gamehall.runtime.matchlog import LOG_STREAM, bot_filter
from gamehall.runtime.rules_replicas import RulesReplicas
from gamehall.runtime.service import ServiceApp
from gamehall.runtime.settings import Settings
from gamehall_services.ai.worker import TurnWorker, handle_turn

log = structlog.get_logger("gamehall.ai")
SERVICE_USERNAME = "ai-service"
"""The account bots play as (role `bot`, which may act only for bot seats), created on first start."""
TURN_RETRY_DELAYS = (0.5, 1.0, 1.0, 1.0, 2.0, 2.0, 5.0, 10.0, 30.0, 60.0)
"""Nak delays of a turn that failed (the bus's default doubles sooner): a bot on the clock keeps trying about
every second through a short outage, such as the match log's leader election (up to 9 s), then backs off."""


def build_app(settings: Settings) -> ServiceApp:
    app = ServiceApp(settings)
    state: dict[str, Any] = {}

    async def handle(msg: Msg) -> None:
        await handle_turn(state["worker"], msg)

    @app.on_start
    async def start() -> None:
        async with internal_channel(settings.persistence_addr) as persistence:
            account = await ensure_service_account(
                persistence_pb2_grpc.PersistenceServiceStub(persistence), SERVICE_USERNAME, "bot"
            )
        linger = settings.play_stream_linger()
        rules = {game: RulesReplicas(game, spec, linger=linger) for game, spec in settings.rules_addrs.items()}
        state["rules"] = rules
        state["worker"] = TurnWorker(rules, account.id)
        bus = await Bus.connect(settings.nats_url, settings.service)
        await bus.ensure_streams(replicas=settings.jetstream_replicas)
        state["bus"] = bus
        for game in all_games():
            starts = await bus.durable(
                "GAMEHALL_TURNS", f"bots-{game.id}", turn_subject(game.id), ack_wait=settings.ai_ack_wait_seconds
            )
            moves = await bus.durable(
                LOG_STREAM, f"bots-{game.id}", bot_filter(game.id), ack_wait=settings.ai_ack_wait_seconds
            )
            heartbeat = settings.ai_ack_wait_seconds / 3
            for turns in (starts, moves):
                bus.consume(
                    turns,
                    handle,
                    heartbeat=heartbeat,
                    in_flight=settings.ai_turns_in_flight,
                    retry_delays=TURN_RETRY_DELAYS,
                )
        log.info("consuming turns", games=[g.id for g in all_games()])

    @app.on_stop
    async def stop() -> None:
        if "bus" in state:
            await state["bus"].close()
        for replicas in state.get("rules", {}).values():
            await replicas.close()

    return app


def main() -> None:
    settings = Settings() if "GAMEHALL_SERVICE" in os.environ else Settings(service="ai")
    build_app(settings).main()
