"""`hall.matchmaking`: queue for a game, follow the ticket to its match, read ratings."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Sequence
from typing import Any

from gamehall_sdk.matches import new_request_id
from gamehall_sdk.transport import Transport, all_pages, make_stub
from gamehall_sdk.v1 import matchmaking_pb2 as pb
from gamehall_sdk.v1 import matchmaking_pb2_grpc


class Matchmaking:
    """The MatchmakingService of the gateway; returns the protobuf messages."""

    def __init__(self, transport: Transport, stub: Any) -> None:
        self._t = transport
        self._stub = stub

    @classmethod
    def over(cls, transport: Transport, channel: Any) -> Matchmaking:
        return cls(transport, make_stub(matchmaking_pb2_grpc.MatchmakingServiceStub, channel))

    async def enqueue(
        self,
        game: str,
        *,
        mode: str = "",
        players: Sequence[str] = (),
        no_bots: bool = False,
        pool: str = "",
        request_id: str | None = None,
    ) -> pb.Ticket:
        """Queue the caller (an operator: `players`) for `game`. Retried on UNAVAILABLE under one request id (made
        for you): a retry returns the ticket the first attempt made."""
        request = pb.EnqueueTicketRequest(
            game=game,
            mode=mode,
            players=list(players),
            no_bots=no_bots,
            pool=pool,
            request_id=request_id or new_request_id(),
        )
        reply = await self._t.unary(self._stub.EnqueueTicket, request, pb.EnqueueTicketResponse, idempotent=True)
        return reply.ticket

    async def cancel(self, ticket_id: str) -> pb.Ticket:
        """Withdraw a queued ticket."""
        request = pb.CancelTicketRequest(ticket_id=ticket_id)
        reply = await self._t.unary(self._stub.CancelTicket, request, pb.CancelTicketResponse, idempotent=True)
        return reply.ticket

    async def ticket(self, ticket_id: str) -> pb.Ticket:
        """One ticket's status, and its match and seats once matched."""
        request = pb.GetTicketRequest(ticket_id=ticket_id)
        reply = await self._t.unary(self._stub.GetTicket, request, pb.GetTicketResponse, idempotent=True)
        return reply.ticket

    async def watch_tickets(self, game: str = "", *, timeout: float | None = None) -> AsyncGenerator[pb.Ticket, None]:
        """The caller's tickets now, then each change, until the consumer stops (or `timeout`)."""
        request = pb.WatchTicketsRequest(game=game)
        async for reply in self._t.stream(self._stub.WatchTickets, request, pb.WatchTicketsResponse, timeout=timeout):
            yield reply.ticket

    async def leaderboard(self, game: str, *, mode: str = "", limit: int = 100) -> list[pb.Rating]:
        """The best `limit` players of (game, mode) by conservative rating, best first (pages followed)."""
        request = pb.GetLeaderboardRequest(game=game, mode=mode, page_size=min(limit, 1000))
        return await all_pages(self._t, self._stub.GetLeaderboard, request, pb.GetLeaderboardResponse, "entries", limit)

    async def rating(self, game: str, *, mode: str = "", account_id: str = "") -> pb.Rating:
        """A player's rating (default: the caller's) in (game, mode)."""
        request = pb.GetRatingRequest(game=game, mode=mode, account_id=account_id)
        reply = await self._t.unary(self._stub.GetRating, request, pb.GetRatingResponse, idempotent=True)
        return reply.rating
