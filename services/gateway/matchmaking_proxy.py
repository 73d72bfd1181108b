"""The public MatchmakingService and TournamentService: authenticate, rate-limit, forward to matchmaking.

The gateway keeps no matchmaking logic: each call is checked here (bearer token, per-account
rate) and forwarded unchanged, with the caller's token, to the matchmaking service, which
serves the same `gamehall.v1` services on its internal port and verifies the token again.
Upstream statuses reach the client as they are (see upstream.translate).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc
from google.protobuf.descriptor import ServiceDescriptor

from gamehall.runtime.channels import internal_channel
from gamehall.runtime.upstream import translate
from gamehall_sdk.v1 import matchmaking_pb2, matchmaking_pb2_grpc, tournament_pb2, tournament_pb2_grpc
from gamehall_services.gateway.auth import Authenticator
from gamehall_services.gateway.limits import RateLimiter, WatchSlots
from gamehall_services.gateway.upstream import call

SERVICES = {
    **matchmaking_pb2.DESCRIPTOR.services_by_name,
    **tournament_pb2.DESCRIPTOR.services_by_name,
}


class Forwarder:
    """One channel to the matchmaking service, and the checks every forwarded call passes."""

    def __init__(self, address: str, auth: Authenticator, limiter: RateLimiter, slots: WatchSlots) -> None:
        self.address = address
        self.auth = auth
        self.limiter = limiter
        self.slots = slots
        self.channel: grpc.aio.Channel | None = None
        self.stubs: dict[str, Any] = {}

    def connect(self) -> None:
        self.channel = internal_channel(self.address)
        self.stubs = {
            "MatchmakingService": matchmaking_pb2_grpc.MatchmakingServiceStub(self.channel),
            "TournamentService": tournament_pb2_grpc.TournamentServiceStub(self.channel),
        }

    async def close(self) -> None:
        if self.channel is not None:
            await self.channel.close()

    async def checked(self, context: grpc.aio.ServicerContext) -> tuple[str, tuple[tuple[str, str], ...]]:
        """(the caller's account id, its token to forward), after checking it, its account and its rate."""
        claims = await self.auth.claims(context)
        self.limiter.take(claims.account_id)
        for key, value in context.invocation_metadata() or ():
            if key == "authorization":
                return claims.account_id, ((key, str(value)),)
        return claims.account_id, ()

    async def read_checked(self, context: grpc.aio.ServicerContext) -> tuple[str, tuple[tuple[str, str], ...]]:
        """As `checked`, for a public read: without a token, the anonymous visitor, limited per client address (the
        call goes on without a token; matchmaking serves these reads to it)."""
        _, key = await self.auth.reader(context)
        self.limiter.take(key)
        for name, value in context.invocation_metadata() or ():
            if name == "authorization":
                return key, ((name, str(value)),)
        return key, ()


PUBLIC_READS = frozenset(
    {"ListTournaments", "GetTournament", "ListPairings", "GetStandings", "WatchStandings", "GetLeaderboard"}
)
"""Tournament and leaderboard reads anyone may make without a token (issue 38: public pages), counted per address."""


def _unary(forwarder: Forwarder, service: str, method: str) -> Callable[..., Any]:
    check = forwarder.read_checked if method in PUBLIC_READS else forwarder.checked

    async def handler(self: Any, request: Any, context: grpc.aio.ServicerContext) -> Any:
        _, metadata = await check(context)
        return await call(getattr(forwarder.stubs[service], method)(request, metadata=metadata))

    return handler


def _stream(forwarder: Forwarder, service: str, method: str) -> Callable[..., Any]:
    check = forwarder.read_checked if method in PUBLIC_READS else forwarder.checked

    async def handler(self: Any, request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        account, metadata = await check(context)
        with forwarder.slots.hold(account):
            upstream = getattr(forwarder.stubs[service], method)(request, metadata=metadata)
            try:
                async for message in upstream:
                    yield message
            except grpc.aio.AioRpcError as exc:
                raise translate(exc) from exc
            finally:
                upstream.cancel()

    return handler


def forwarding_servicer(forwarder: Forwarder, service: ServiceDescriptor, base: type) -> Any:
    """An instance of `base` (a generated servicer) whose every method forwards to matchmaking."""
    methods = {
        m.name: (_stream if m.server_streaming else _unary)(forwarder, service.name, m.name) for m in service.methods
    }
    return type(f"Forwarding{service.name}", (base,), methods)()


def add_matchmaking_services(app: Any, forwarder: Forwarder) -> None:
    """Serve both public services on the gateway's `ServiceApp`."""
    pairs = (
        (
            "MatchmakingService",
            matchmaking_pb2_grpc.MatchmakingServiceServicer,
            matchmaking_pb2_grpc.add_MatchmakingServiceServicer_to_server,
        ),
        (
            "TournamentService",
            tournament_pb2_grpc.TournamentServiceServicer,
            tournament_pb2_grpc.add_TournamentServiceServicer_to_server,
        ),
    )
    for name, base, add in pairs:
        descriptor = SERVICES[name]
        app.add_servicer(add, forwarding_servicer(forwarder, descriptor, base), descriptor.full_name)
