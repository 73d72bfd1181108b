"""Assemble the ai service: the harness, a JetStream consumer per game, the turn worker.

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

from gamehall.auth import Tokens
from gamehall.engine import all_games
from gamehall.internal.v1 import persistence_pb2_grpc
from gamehall.runtime import embedded_secrets
from gamehall.runtime.bus import Bus, turn_subject
from gamehall.runtime.channels import internal_channel
from gamehall.runtime.identity import ensure_service_account
from gamehall.runtime.matchlog import LOG_STREAM, bot_filter
from gamehall.runtime.service import ServiceApp, exit_on_missing_secret
from gamehall.runtime.settings import Settings
from gamehall_sdk.v1 import match_pb2_grpc
from gamehall_services.ai.identity import SERVICE_USERNAME, BotIdentity
from gamehall_services.ai.worker import TurnWorker, handle_turn

log = structlog.get_logger("gamehall.ai")
WORKERS_PER_GAME = 16
"""Turns of one game handled at once by a replica (thinking runs in threads)."""


def build_app(settings: Settings) -> ServiceApp:
    app = ServiceApp(settings)
    tokens = Tokens(embedded_secrets.token_key(settings).value)
    state: dict[str, Any] = {}

    async def handle(msg: Msg) -> None:
        await handle_turn(state["worker"], msg)

    @app.on_start
    async def start() -> None:
        async with internal_channel(settings.persistence_addr) as persistence:
            account = await ensure_service_account(
                persistence_pb2_grpc.PersistenceServiceStub(persistence), SERVICE_USERNAME, "bot"
            )
        channel = internal_channel(settings.gateway_addr)
        identity = BotIdentity(tokens, account)
        state["channel"] = channel
        state["worker"] = TurnWorker(match_pb2_grpc.MatchServiceStub(channel), identity)
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
            bus.consume(starts, handle, batch=1, heartbeat=settings.ai_ack_wait_seconds / 3)
            for _ in range(WORKERS_PER_GAME):
                bus.consume(moves, handle, batch=1, heartbeat=settings.ai_ack_wait_seconds / 3)
        log.info("consuming turns", games=[g.id for g in all_games()])

    @app.on_stop
    async def stop() -> None:
        if "bus" in state:
            await state["bus"].close()
        if "channel" in state:
            await state["channel"].close()

    return app


def main() -> None:
    settings = Settings() if "GAMEHALL_SERVICE" in os.environ else Settings(service="ai")
    with exit_on_missing_secret(settings):
        app = build_app(settings)
    app.main()
