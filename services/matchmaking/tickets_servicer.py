"""gamehall.v1.MatchmakingService: tickets, their watch stream, ratings and leaderboards."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import grpc

from gamehall.auth import AccountFacts, Principals
from gamehall.engine import get_game
from gamehall.matchmaking.errors import UnknownTicket
from gamehall.runtime.errors import ClientError
from gamehall.wire import idempotency, pages
from gamehall_sdk.v1 import matchmaking_pb2 as pb
from gamehall_sdk.v1 import matchmaking_pb2_grpc
from gamehall_services.matchmaking.caller import (
    claims_of,
    invalid,
    is_operator,
    page_owner,
    reader_of,
    require_operator,
)
from gamehall_services.matchmaking.convert import rating_to_proto, ticket_to_proto
from gamehall_services.matchmaking.documents import TicketEntry
from gamehall_services.matchmaking.queues import Queues
from gamehall_services.matchmaking.ratings import Ratings

WATCH_POLL_S = 2.0
RECENT_CLOSED_S = 3600.0
"""A watch starts with the caller's open tickets and those closed in the last hour (e.g. matched
between the enqueue and the watch call)."""


class MatchmakingServicer(matchmaking_pb2_grpc.MatchmakingServiceServicer):
    def __init__(self, queues: Queues, ratings: Ratings, principals: Principals) -> None:
        self.queues = queues
        self.ratings = ratings
        self.principals = principals

    async def EnqueueTicket(self, request: pb.EnqueueTicketRequest, context: Any) -> pb.EnqueueTicketResponse:
        claims = await claims_of(context, self.principals)
        players = list(request.players) or [claims.account_id]
        if players != [claims.account_id]:
            require_operator(claims, "queue other players or a party")
            for player in players:
                await self.queues.creator.require_account(player)
        if claims.role == "bot":
            raise invalid("bot identities do not queue")
        key = idempotency.key(claims.account_id, request.request_id)
        ticket_id = f"tk-{key[:32]}" if key else ""
        if key:  # AIP-155: the ticket's id derives from the request id, so a retry finds the ticket it made
            made = await self._made_by(ticket_id, request, players, claims.account_id)
            if made is not None:
                return pb.EnqueueTicketResponse(ticket=ticket_to_proto(made))
        try:
            entry = await self.queues.enqueue(
                request.game,
                request.mode,
                players,
                claims.account_id,
                allow_bots=not request.no_bots,
                pool=request.pool,
                ticket_id=ticket_id,
            )
        except ClientError as exc:
            made = None
            if key and exc.code == grpc.StatusCode.ALREADY_EXISTS:  # a concurrent retry made it
                made = await self._made_by(ticket_id, request, players, claims.account_id)
            if made is None:
                raise
            entry = made
        return pb.EnqueueTicketResponse(ticket=ticket_to_proto(entry))

    async def _made_by(
        self, ticket_id: str, request: pb.EnqueueTicketRequest, players: list[str], caller: str
    ) -> TicketEntry | None:
        """The ticket a request id made, as it is now (None: not made yet); ALREADY_EXISTS when the id made a
        ticket for another request (another game, mode, pool, party or bot choice)."""
        try:
            entry = await self.queues.get(ticket_id)
        except UnknownTicket:
            return None
        ticket = entry.ticket
        asked = (request.game, request.mode or ticket.mode, players, not request.no_bots, request.pool, caller)
        made = (
            ticket.game,
            ticket.mode,
            list(ticket.players()),
            ticket.constraints.allow_bots,
            ticket.constraints.pool,
            entry.submitted_by,
        )
        if asked != made:
            raise idempotency.reused(request.request_id)
        return entry

    async def CancelTicket(self, request: pb.CancelTicketRequest, context: Any) -> pb.CancelTicketResponse:
        claims = await claims_of(context, self.principals)
        entry = await self.queues.cancel(request.ticket_id, lambda e: _may_see(e, claims.account_id, claims.role))
        return pb.CancelTicketResponse(ticket=ticket_to_proto(entry))

    async def GetTicket(self, request: pb.GetTicketRequest, context: Any) -> pb.GetTicketResponse:
        claims = await claims_of(context, self.principals)
        entry = await self.queues.get(request.ticket_id)
        if not _may_see(entry, claims.account_id, claims.role):  # as if it did not exist, as CancelTicket answers
            raise UnknownTicket(f"no ticket {request.ticket_id!r}")
        return pb.GetTicketResponse(ticket=ticket_to_proto(entry))

    async def WatchTickets(
        self, request: pb.WatchTicketsRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.WatchTicketsResponse]:
        """Each of the caller's tickets when first seen (open, or closed within `RECENT_CLOSED_S`) and
        whenever its state changes.

        Woken by this replica's own changes and by matched events from any replica, and looks
        again every `WATCH_POLL_S` regardless (a cancel through another replica has no event)."""
        claims = await claims_of(context, self.principals)
        since = self.queues.clock() - RECENT_CLOSED_S
        sent: dict[str, str] = {}
        while True:
            for entry in reversed(await self.queues.tickets_of(claims.account_id, request.game, since)):
                state = "queued" if entry.state == "matching" else entry.state
                if sent.get(entry.ticket.id) != state:
                    sent[entry.ticket.id] = state
                    yield pb.WatchTicketsResponse(ticket=ticket_to_proto(entry))
            async with self.queues.ticket_news:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.queues.ticket_news.wait(), WATCH_POLL_S)

    async def GetLeaderboard(self, request: pb.GetLeaderboardRequest, context: Any) -> pb.GetLeaderboardResponse:
        """A page of the leaderboard, each entry with its player's username (issue 38: shown by name); anonymous
        visitors may read it (through the gateway only)."""
        claims = await reader_of(context, self.principals)
        mode = _mode(request.game, request.mode)
        size = pages.page_size(request.page_size, pages.LEADERBOARD)
        filters = {"game": request.game, "mode": mode, "caller": page_owner(claims)}  # a token is its caller's
        start = pages.offset_of(request.page_token, "leaderboard", filters)
        rows = await self.ratings.leaderboard(request.game, mode, start + size + 1)
        more = len(rows) > start + size
        entries = [rating_to_proto(request.game, mode, r.player, r.rating, r.rank) for r in rows[start : start + size]]
        facts = await asyncio.gather(*(self.principals.account(e.account_id) for e in entries), return_exceptions=True)
        for entry, found in zip(entries, facts, strict=True):
            if isinstance(found, AccountFacts):
                entry.username = found.username
        return pb.GetLeaderboardResponse(
            entries=entries,
            next_page_token=pages.encode_token(start + size, "leaderboard", filters) if more else "",
        )

    async def GetRating(self, request: pb.GetRatingRequest, context: Any) -> pb.GetRatingResponse:
        claims = await claims_of(context, self.principals)
        mode = _mode(request.game, request.mode)
        player = request.account_id or claims.account_id
        rating = await self.ratings.rating(request.game, mode, player)
        return pb.GetRatingResponse(rating=rating_to_proto(request.game, mode, player, rating))


def _may_see(entry: TicketEntry, account_id: str, role: str) -> bool:
    return role == "operator" or entry.submitted_by == account_id or account_id in entry.ticket.players()


def _mode(game: str, mode: str) -> str:
    engine = get_game(game)
    if not mode:
        return engine.modes[0].id
    if all(m.id != mode for m in engine.modes):
        raise invalid(f"{game} has no mode {mode!r}")
    return mode


__all__ = ["MatchmakingServicer", "is_operator"]
