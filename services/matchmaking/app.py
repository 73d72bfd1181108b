"""Assemble the matchmaking service: queues, ratings, tournaments, their loops and the finished-match consumer.

The service keeps no state: tickets, ratings and tournaments live in persistence (reached through
`MatchmakingStoreService`, each change one transaction with its events in the outbox). Finished
matches arrive on a durable JetStream consumer shared by the replicas, acked only once applied.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Awaitable, Callable
from typing import Any

import structlog
from google.protobuf.message import DecodeError
from nats.aio.msg import Msg

import gamehall_services.matchmaking.errors  # noqa: F401 - registers the library errors
from gamehall.auth import Principals, Tokens
from gamehall.events.v1.matchmaking_pb2 import TournamentEvent
from gamehall.matchmaking import MatchPolicy
from gamehall.runtime import embedded_secrets
from gamehall.runtime.bus import SUBJECT_ROOT, Bus
from gamehall.runtime.channels import internal_channel
from gamehall.runtime.identity import account_lookup
from gamehall.runtime.service import ServiceApp, exit_on_missing_secret
from gamehall.runtime.settings import Settings
from gamehall.wire import pages
from gamehall_sdk.v1 import matchmaking_pb2, matchmaking_pb2_grpc, tournament_pb2, tournament_pb2_grpc
from gamehall_services.matchmaking.creator import MatchCreator
from gamehall_services.matchmaking.finished import FinishedMatches
from gamehall_services.matchmaking.queues import Queues
from gamehall_services.matchmaking.ratings import Ratings
from gamehall_services.matchmaking.store_client import MatchmakingStore
from gamehall_services.matchmaking.tickets_servicer import MatchmakingServicer
from gamehall_services.matchmaking.tournament_servicer import TournamentServicer
from gamehall_services.matchmaking.tournaments import Tournaments

log = structlog.get_logger("gamehall.matchmaking")
SERVICES = {
    **matchmaking_pb2.DESCRIPTOR.services_by_name,
    **tournament_pb2.DESCRIPTOR.services_by_name,
}
FINISHED = f"{SUBJECT_ROOT}.match.*.finished"
TICKET_NEWS = f"{SUBJECT_ROOT}.matchmaking.>"
TOURNAMENT_NEWS = f"{SUBJECT_ROOT}.tournament.>"
"""Every committed tournament change, as persistence's relay publishes it from the outbox (core NATS is enough:
a missed one is made good by the next change, or by the driver's safety sweep)."""
CONSUMER = "matchmaking-finished"


def build_app(settings: Settings) -> ServiceApp:
    app = ServiceApp(settings, default_timeout=None)  # the watch streams live long
    signing_key = embedded_secrets.token_key(settings).value
    tokens = Tokens(signing_key)
    pages.use_key(signing_key)  # page tokens signed with a key every replica shares
    creator = MatchCreator(settings.rules_addrs, settings.persistence_addr)
    held: dict[str, Any] = {}
    tickets_servicer = _LateMatchmaking()
    tournament_servicer = _LateTournaments()
    app.add_servicer(
        matchmaking_pb2_grpc.add_MatchmakingServiceServicer_to_server,
        tickets_servicer,
        SERVICES["MatchmakingService"].full_name,
    )
    app.add_servicer(
        tournament_pb2_grpc.add_TournamentServiceServicer_to_server,
        tournament_servicer,
        SERVICES["TournamentService"].full_name,
    )

    @app.on_start
    async def start() -> None:
        bus = await Bus.connect(settings.nats_url, settings.service)
        await bus.ensure_streams(replicas=settings.jetstream_replicas)
        await creator.connect()
        channel = internal_channel(settings.persistence_addr)
        store = MatchmakingStore(channel)
        ratings = Ratings(store)
        policy = MatchPolicy(bot_fill_after=settings.matchmaking_bot_fill_seconds)
        queues = Queues(store, ratings, creator, policy)
        book = Tournaments(store, creator)
        principals = Principals(tokens, account_lookup(creator.persistence_stub))
        tickets_servicer.bind(queues, ratings, principals)
        tournament_servicer.bind(book, ratings, principals)

        async def on_news(msg: Msg) -> None:  # any replica's matched event wakes this one's watch streams
            await queues.heard()

        held["news"] = await bus.nc.subscribe(TICKET_NEWS, cb=on_news)
        held["tournament_news"] = await bus.nc.subscribe(TOURNAMENT_NEWS, cb=tournament_news(book))
        held["channel"] = channel

        finished = FinishedMatches(book)
        sub = await bus.durable("GAMEHALL_MATCHES", CONSUMER, FINISHED, ack_wait=30.0)
        bus.consume(sub, finished.handle, batch=16, heartbeat=10.0)
        interval = settings.matchmaking_pass_seconds
        held["tasks"] = [
            asyncio.create_task(queues.run(interval)),
            asyncio.create_task(book.run()),  # on events; its safety sweep every SAFETY_SWEEP_S
        ]
        held["bus"] = bus

    @app.on_stop
    async def stop() -> None:
        for task in held.get("tasks", []):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if "bus" in held:
            await held["bus"].close()
        if "channel" in held:
            await held["channel"].close()
        await creator.close()

    return app


def tournament_news(book: Tournaments) -> Callable[[Msg], Awaitable[None]]:
    """The callback of the `TOURNAMENT_NEWS` subscription: any replica's committed change of a tournament steps it
    on this replica and pushes its standings to the watch streams open here."""

    async def on_tournament(msg: Msg) -> None:
        try:
            event = TournamentEvent.FromString(msg.data)
        except DecodeError:
            log.warning("undecodable tournament event", subject=msg.subject)
            return
        tournament_id = event.tournament_id or msg.subject.split(".")[-2]
        book.changed(tournament_id, event.revision, event.status)

    return on_tournament


class _LateMatchmaking(MatchmakingServicer):
    """The matchmaking servicer, bound to its parts by the start hook."""

    def __init__(self) -> None:
        pass

    def bind(self, queues: Queues, ratings: Ratings, principals: Principals) -> None:
        MatchmakingServicer.__init__(self, queues, ratings, principals)


class _LateTournaments(TournamentServicer):
    """The tournament servicer, bound to its parts by the start hook."""

    def __init__(self) -> None:
        pass

    def bind(self, book: Tournaments, ratings: Ratings, principals: Principals) -> None:
        TournamentServicer.__init__(self, book, ratings, principals)


def main() -> None:
    settings = Settings() if "GAMEHALL_SERVICE" in os.environ else Settings(service="matchmaking")
    with exit_on_missing_secret(settings):
        app = build_app(settings)
    app.main()
