"""CatalogService: every hosted game as its rules host describes it (cached after the first answer)."""

from __future__ import annotations

import asyncio
from typing import Any

from gamehall.internal.v1 import rules_pb2
from gamehall.wire import pages
from gamehall_sdk.v1 import catalog_pb2, catalog_pb2_grpc, common_pb2
from gamehall_services.gateway.auth import Authenticator
from gamehall_services.gateway.upstream import Upstream


class CatalogServicer(catalog_pb2_grpc.CatalogServiceServicer):
    def __init__(self, upstream: Upstream, auth: Authenticator) -> None:
        self.upstream = upstream
        self.auth = auth
        self._cache: dict[tuple[str, bool], common_pb2.GameDescriptor] = {}

    async def describe(self, game: str, *, schema: bool = True) -> common_pb2.GameDescriptor:
        """The game's descriptor; `schema=False` leaves the view schema out (a smaller answer, for defaults). Both are
        answered at once: the schema comes from the game's view types, nothing is derived on this path."""
        key = (game, schema)
        if key not in self._cache:
            request = rules_pb2.DescribeGameRequest(skip_view_schema=not schema)
            described = await self.upstream.replicas(game).on_any("DescribeGame", request)
            self._cache[key] = described.game
        return self._cache[key]

    async def ListGames(self, request: catalog_pb2.ListGamesRequest, context: Any) -> catalog_pb2.ListGamesResponse:
        """A page of the hosted games by id (only the page's games are described); anonymous visitors may list them."""
        _, caller = await self.auth.reader(context)
        size = pages.page_size(request.page_size, pages.GAMES)
        mine = {"caller": caller}  # a token is its caller's (an anonymous visitor's: its address's)
        ids, token = pages.offset_page(sorted(self.upstream.games), size, request.page_token, "games", mine)
        games = await asyncio.gather(*(self.describe(g) for g in ids))
        return catalog_pb2.ListGamesResponse(games=list(games), next_page_token=token)
