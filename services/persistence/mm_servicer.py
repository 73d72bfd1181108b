"""MatchmakingStoreService over `gamehall.store`: each RPC is one store operation (one transaction).

Like PersistenceService it only validates shapes and converts; the store's named errors become
statuses through the shared error table (errors.py).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from gamehall.internal.v1 import matchmaking_store_pb2 as pb
from gamehall.internal.v1 import matchmaking_store_pb2_grpc
from gamehall.store import NewPending, NewTicket, NewTournament
from gamehall.store.errors import InvalidArgument, NotFound
from gamehall_services.persistence.mm_records import (
    link_to_proto,
    pending_to_proto,
    rating_to_proto,
    result_to_proto,
    ticket_to_proto,
    tournament_to_proto,
)
from gamehall_services.persistence.records import outbox_from_proto
from gamehall_services.persistence.writer import StoreWriter

DEFAULT_PAGE = 1000


class MatchmakingStoreServicer(StoreWriter, matchmaking_store_pb2_grpc.MatchmakingStoreServiceServicer):
    # ----------------------------------------------------------------- tickets
    async def EnqueueTicket(self, request: pb.EnqueueTicketRequest, context: Any) -> pb.EnqueueTicketResponse:
        ticket = await self.store.enqueue_ticket(
            NewTicket(
                id=request.id,
                game=request.game,
                mode=request.mode,
                ticket=request.ticket,
                players=tuple(request.players),
                submitted_by=request.submitted_by,
                enqueued_at=request.enqueued_at,
            )
        )
        return pb.EnqueueTicketResponse(ticket=ticket_to_proto(ticket))

    async def CancelTicket(self, request: pb.CancelTicketRequest, context: Any) -> pb.CancelTicketResponse:
        ticket = await self.store.cancel_ticket(request.ticket_id, outbox_from_proto(request.outbox))
        self._published(request.outbox)
        return pb.CancelTicketResponse(ticket=ticket_to_proto(ticket))

    async def GetTicket(self, request: pb.GetTicketRequest, context: Any) -> pb.GetTicketResponse:
        return pb.GetTicketResponse(ticket=ticket_to_proto(await self.store.get_ticket(request.ticket_id)))

    async def ListQueuedTickets(
        self, request: pb.ListQueuedTicketsRequest, context: Any
    ) -> pb.ListQueuedTicketsResponse:
        after = (request.after_enqueued_at, request.after_id) if request.after_id else None
        rows = await self.store.queued_tickets(
            request.game, request.mode, after=after, limit=request.limit or DEFAULT_PAGE
        )
        return pb.ListQueuedTicketsResponse(tickets=[ticket_to_proto(t) for t in rows])

    async def ListAccountTickets(
        self, request: pb.ListAccountTicketsRequest, context: Any
    ) -> pb.ListAccountTicketsResponse:
        if not request.account:
            raise InvalidArgument("give an account")
        since = (
            datetime.fromtimestamp(request.closed_since_unix_ms / 1000, UTC) if request.closed_since_unix_ms else None
        )
        rows = await self.store.tickets_of(
            request.account, game=request.game, closed_since=since, limit=request.limit or 100
        )
        return pb.ListAccountTicketsResponse(tickets=[ticket_to_proto(t) for t in rows])

    async def ClaimTickets(self, request: pb.ClaimTicketsRequest, context: Any) -> pb.ClaimTicketsResponse:
        proposals = [
            NewPending(request_id=p.request_id, mode=p.mode, match=p.match, tickets=tuple(p.ticket_ids))
            for p in request.proposals
        ]
        if any(not p.request_id for p in proposals):
            raise InvalidArgument("every proposed match needs a request id")
        claimed = await self.store.claim_tickets(request.game, proposals)
        return pb.ClaimTicketsResponse(claimed_request_ids=claimed)

    async def ListPendingMatches(
        self, request: pb.ListPendingMatchesRequest, context: Any
    ) -> pb.ListPendingMatchesResponse:
        rows = await self.store.pending_matches(request.game, limit=request.limit or DEFAULT_PAGE)
        return pb.ListPendingMatchesResponse(matches=[pending_to_proto(p) for p in rows])

    async def SettleMatch(self, request: pb.SettleMatchRequest, context: Any) -> pb.SettleMatchResponse:
        seats = {ticket: list(s.seats) for ticket, s in request.seats.items()}
        rows = await self.store.settle_match(
            request.request_id, request.match_id or None, seats, outbox_from_proto(request.outbox)
        )
        self._published(request.outbox)
        return pb.SettleMatchResponse(tickets=[ticket_to_proto(t) for t in rows])

    # ----------------------------------------------------------------- ratings
    async def GetRatings(self, request: pb.GetRatingsRequest, context: Any) -> pb.GetRatingsResponse:
        found = await self.store.ratings(request.game, request.mode, list(request.accounts))
        return pb.GetRatingsResponse(ratings=[rating_to_proto(r) for r in found.values()])

    async def GetLeaderboard(self, request: pb.GetLeaderboardRequest, context: Any) -> pb.GetLeaderboardResponse:
        rows = await self.store.leaderboard(
            request.game,
            request.mode,
            limit=request.limit or 100,
            offset=request.offset,
            min_matches=request.min_matches,
        )
        return pb.GetLeaderboardResponse(ratings=[rating_to_proto(r) for r in rows])

    # ----------------------------------------------------------------- tournaments
    async def CreateTournament(self, request: pb.CreateTournamentRequest, context: Any) -> pb.CreateTournamentResponse:
        row = await self.store.create_tournament(
            NewTournament(
                id=request.id,
                name=request.name,
                game=request.game,
                mode=request.mode,
                format=request.format,
                status=request.status,
                doc=request.doc,
                created_by=request.created_by,
            ),
            outbox_from_proto(request.outbox),
        )
        self._published(request.outbox)
        return pb.CreateTournamentResponse(tournament=tournament_to_proto(row))

    async def GetTournament(self, request: pb.GetTournamentRequest, context: Any) -> pb.GetTournamentResponse:
        if not request.tournament_id:
            raise NotFound("no tournament ''")
        row = await self.store.get_tournament(request.tournament_id, newer_than=request.newer_than)
        if row is None:
            return pb.GetTournamentResponse()
        return pb.GetTournamentResponse(tournament=tournament_to_proto(row))

    async def ListTournaments(self, request: pb.ListTournamentsRequest, context: Any) -> pb.ListTournamentsResponse:
        rows = await self.store.list_tournaments(
            statuses=list(request.statuses), limit=request.limit or 100, with_docs=request.with_docs
        )
        return pb.ListTournamentsResponse(tournaments=[tournament_to_proto(r) for r in rows])

    async def UpdateTournament(self, request: pb.UpdateTournamentRequest, context: Any) -> pb.UpdateTournamentResponse:
        row = await self.store.update_tournament(
            request.tournament_id,
            request.expected_revision,
            request.doc,
            request.status,
            folded=list(request.folded_match_ids),
            outbox=outbox_from_proto(request.outbox),
        )
        self._published(request.outbox)
        return pb.UpdateTournamentResponse(tournament=tournament_to_proto(row))

    async def LinkTournamentMatch(
        self, request: pb.LinkTournamentMatchRequest, context: Any
    ) -> pb.LinkTournamentMatchResponse:
        if not request.match_id or not request.pairing_id or request.round < 1:
            raise InvalidArgument("a link needs a match id, a pairing id and a round")
        link = await self.store.link_tournament_match(
            request.tournament_id,
            request.round,
            request.pairing_id,
            request.match_id,
            outbox_from_proto(request.outbox),
        )
        self._published(request.outbox)
        return pb.LinkTournamentMatchResponse(link=link_to_proto(link))

    async def ListTournamentMatches(
        self, request: pb.ListTournamentMatchesRequest, context: Any
    ) -> pb.ListTournamentMatchesResponse:
        rows = await self.store.tournament_matches(request.tournament_id, request.round)
        return pb.ListTournamentMatchesResponse(matches=[link_to_proto(m) for m in rows])

    async def RecordTournamentResult(
        self, request: pb.RecordTournamentResultRequest, context: Any
    ) -> pb.RecordTournamentResultResponse:
        result = await self.store.record_tournament_result(request.match_id, list(request.ranks), request.reason)
        if result is None:
            return pb.RecordTournamentResultResponse()
        return pb.RecordTournamentResultResponse(result=result_to_proto(result))

    async def ListUnfoldedResults(
        self, request: pb.ListUnfoldedResultsRequest, context: Any
    ) -> pb.ListUnfoldedResultsResponse:
        rows = await self.store.unfolded_results(request.tournament_id, limit=request.limit or 10_000)
        return pb.ListUnfoldedResultsResponse(results=[result_to_proto(r) for r in rows])
