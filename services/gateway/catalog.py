"""CatalogService: every hosted game as its rules host describes it (cached after the first answer)."""

from __future__ import annotations

import asyncio
from typing import Any

from gamehall.internal.v1 import rules_pb2
from gamehall.v1 import common_pb2, gateway_pb2, gateway_pb2_grpc
from gamehall_services.gateway.auth import Authenticator
from gamehall_services.gateway.upstream import Upstream, call


class CatalogServicer(gateway_pb2_grpc.CatalogServiceServicer):
    def __init__(self, upstream: Upstream, auth: Authenticator) -> None:
        self.upstream = upstream
        self.auth = auth
        self._cache: dict[str, common_pb2.GameDescriptor] = {}

    async def describe(self, game: str) -> common_pb2.GameDescriptor:
        if game not in self._cache:
            described = await call(self.upstream.rules(game).DescribeGame(rules_pb2.DescribeGameRequest()))
            self._cache[game] = described.game
        return self._cache[game]

    async def ListGames(self, request: Any, context: Any) -> gateway_pb2.ListGamesResponse:
        await self.auth.claims(context)
        games = await asyncio.gather(*(self.describe(g) for g in self.upstream.games))
        return gateway_pb2.ListGamesResponse(games=list(games))
