"""Typed calls to persistence's MatchmakingStoreService: where every ticket, rating and tournament lives.

The service holds the rules (matching, rating maths, pairing) and keeps no state of its own;
each method here is one persistence RPC (one transaction), with the library's values encoded
as msgpack blobs and the store's refusals turned into the service's named errors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import grpc
import msgspec

from gamehall.internal.v1 import matchmaking_store_pb2 as pb
from gamehall.internal.v1 import matchmaking_store_pb2_grpc
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matchmaking import DEFAULT_RATING, Match, Rating, Ticket
from gamehall.matchmaking.errors import UnknownTicket
from gamehall.runtime.errors import ClientError
from gamehall.runtime.upstream import translate
from gamehall_services.matchmaking.documents import PendingMatch, TicketEntry, TicketState

PAGE = 5000
CLAIM_BATCH = 500
TIMEOUT_S = 15.0

_ticket_decoder = msgspec.msgpack.Decoder(Ticket)
_match_decoder = msgspec.msgpack.Decoder(Match)
_encode = msgspec.msgpack.Encoder().encode


class Stale(Exception):
    """A compare-and-swap lost (a rating or tournament changed since it was read): re-read and retry."""


class StoredTournament(msgspec.Struct, frozen=True):
    id: str
    revision: int
    status: str
    doc: bytes
    created_at: float


class TournamentLink(msgspec.Struct, frozen=True):
    match_id: str
    round: int
    pairing_id: str
    created_at: float


class InboxResult(msgspec.Struct, frozen=True):
    match_id: str
    pairing_id: str
    round: int
    ranks: tuple[int, ...]
    reason: str


def _entry(t: pb.StoredTicket) -> TicketEntry:
    state: TicketState = t.state  # type: ignore[assignment]
    return TicketEntry(
        _ticket_decoder.decode(t.ticket),
        t.submitted_by,
        state=state,
        match_id=t.match_id,
        seats=list(t.seats),
        closed_at=t.closed_unix_ms / 1000,
    )


def _rating(r: pb.RatingRecord) -> Rating:
    return Rating(r.mu, r.sigma, r.matches)


def _tournament(t: pb.TournamentRecord) -> StoredTournament:
    return StoredTournament(t.id, t.revision, t.status, t.doc, t.created_unix_ms / 1000)


def _refusal(exc: grpc.aio.AioRpcError) -> Exception:
    """A lost compare-and-swap (ABORTED) as `Stale` for the caller to retry; anything else as the gateway
    would pass it on (`translate`: the store's refusals keep their status, an unreachable persistence
    is UNAVAILABLE with a hint to retry)."""
    if exc.code() == grpc.StatusCode.ABORTED:
        return Stale(exc.details() or "changed concurrently")
    return translate(exc)


class MatchmakingStore:
    """The store of matchmaking, reached over one channel to persistence."""

    def __init__(self, channel: grpc.aio.Channel) -> None:
        self.stub = matchmaking_store_pb2_grpc.MatchmakingStoreServiceStub(channel)

    async def _call(self, method: str, request: Any) -> Any:
        try:
            return await getattr(self.stub, method)(request, timeout=TIMEOUT_S)
        except grpc.aio.AioRpcError as exc:
            raise _refusal(exc) from exc

    # ----------------------------------------------------------------- tickets
    async def enqueue(self, entry: TicketEntry) -> TicketEntry:
        t = entry.ticket
        request = pb.EnqueueTicketRequest(
            id=t.id,
            game=t.game,
            mode=t.mode,
            ticket=_encode(t),
            players=list(t.players()),
            submitted_by=entry.submitted_by,
            enqueued_at=t.enqueued_at,
        )
        return _entry((await self._call("EnqueueTicket", request)).ticket)

    async def cancel(self, ticket_id: str, outbox: Sequence[ppb.OutboxEntry] = ()) -> TicketEntry:
        reply = await self._call("CancelTicket", pb.CancelTicketRequest(ticket_id=ticket_id, outbox=outbox))
        return _entry(reply.ticket)

    async def ticket(self, ticket_id: str) -> TicketEntry:
        try:
            reply = await self._call("GetTicket", pb.GetTicketRequest(ticket_id=ticket_id))
        except ClientError as exc:
            if exc.code == grpc.StatusCode.NOT_FOUND:
                raise UnknownTicket(f"no ticket {ticket_id!r}") from None
            raise
        return _entry(reply.ticket)

    async def queued(self, game: str, mode: str) -> list[Ticket]:
        """Every queued ticket of (game, mode) in enqueue order (read a page at a time)."""
        out: list[Ticket] = []
        after = ("", 0.0)
        while True:
            request = pb.ListQueuedTicketsRequest(
                game=game, mode=mode, after_id=after[0], after_enqueued_at=after[1], limit=PAGE
            )
            page = (await self._call("ListQueuedTickets", request)).tickets
            out += [_ticket_decoder.decode(t.ticket) for t in page]
            if len(page) < PAGE:
                return out
            after = (page[-1].id, page[-1].enqueued_at)

    async def tickets_of(self, account: str, game: str = "", closed_since: float = 0.0) -> list[TicketEntry]:
        """`account`'s open tickets and those closed since `closed_since` (seconds; 0 = any time)."""
        request = pb.ListAccountTicketsRequest(
            account=account, game=game, closed_since_unix_ms=int(closed_since * 1000), limit=1000
        )
        return [_entry(t) for t in (await self._call("ListAccountTickets", request)).tickets]

    async def claim(self, game: str, proposals: Sequence[PendingMatch]) -> set[str]:
        """Claim the proposals whose tickets are all still queued; the request ids claimed.

        Sent `CLAIM_BATCH` at a time: each batch is one transaction, small enough for one message
        and short enough not to hold SQLite's single writer for long."""
        claimed: set[str] = set()
        for start in range(0, len(proposals), CLAIM_BATCH):
            request = pb.ClaimTicketsRequest(
                game=game,
                proposals=[
                    pb.ProposedMatch(
                        request_id=p.request_id, mode=p.mode, match=_encode(p.match), ticket_ids=list(p.match.tickets)
                    )
                    for p in proposals[start : start + CLAIM_BATCH]
                ],
            )
            claimed.update((await self._call("ClaimTickets", request)).claimed_request_ids)
        return claimed

    async def pending(self, game: str) -> list[PendingMatch]:
        reply = await self._call("ListPendingMatches", pb.ListPendingMatchesRequest(game=game, limit=PAGE))
        return [
            PendingMatch(p.request_id, p.mode, _match_decoder.decode(p.match), p.claimed_unix_ms / 1000)
            for p in reply.matches
        ]

    async def settle(
        self,
        request_id: str,
        match_id: str | None,
        seats: Mapping[str, Sequence[int]],
        outbox: Sequence[ppb.OutboxEntry] = (),
    ) -> list[TicketEntry]:
        request = pb.SettleMatchRequest(
            request_id=request_id,
            match_id=match_id or "",
            seats={ticket: pb.TicketSeats(seats=list(s)) for ticket, s in seats.items()},
            outbox=outbox,
        )
        return [_entry(t) for t in (await self._call("SettleMatch", request)).tickets]

    # ----------------------------------------------------------------- ratings
    async def ratings(self, game: str, mode: str, players: Sequence[str]) -> dict[str, Rating]:
        """Ratings of `players`, the default for anyone never rated."""
        reply = await self._call("GetRatings", pb.GetRatingsRequest(game=game, mode=mode, accounts=list(players)))
        found = {r.account: _rating(r) for r in reply.ratings}
        return {p: found.get(p, DEFAULT_RATING) for p in players}

    async def leaderboard(self, game: str, mode: str, limit: int, offset: int = 0) -> list[tuple[str, Rating]]:
        request = pb.GetLeaderboardRequest(game=game, mode=mode, limit=limit, offset=offset)
        return [(r.account, _rating(r)) for r in (await self._call("GetLeaderboard", request)).ratings]

    # ----------------------------------------------------------------- tournaments
    async def create_tournament(
        self,
        *,
        tournament_id: str,
        name: str,
        game: str,
        mode: str,
        format: str,
        status: str,
        doc: bytes,
        created_by: str,
        outbox: Sequence[ppb.OutboxEntry] = (),
    ) -> StoredTournament:
        request = pb.CreateTournamentRequest(
            id=tournament_id,
            name=name,
            game=game,
            mode=mode,
            format=format,
            status=status,
            doc=doc,
            created_by=created_by,
            outbox=outbox,
        )
        return _tournament((await self._call("CreateTournament", request)).tournament)

    async def tournament(self, tournament_id: str, newer_than: int = 0) -> StoredTournament | None:
        """The tournament (NOT_FOUND if none); None when it is not newer than revision `newer_than`."""
        reply = await self._call(
            "GetTournament", pb.GetTournamentRequest(tournament_id=tournament_id, newer_than=newer_than)
        )
        return _tournament(reply.tournament) if reply.HasField("tournament") else None

    async def tournaments(
        self, statuses: Sequence[str] = (), limit: int = 1000, *, with_docs: bool = True
    ) -> list[StoredTournament]:
        """Newest first; without documents (`doc` empty) when only ids and statuses are wanted."""
        request = pb.ListTournamentsRequest(statuses=list(statuses), limit=limit, with_docs=with_docs)
        return [_tournament(t) for t in (await self._call("ListTournaments", request)).tournaments]

    async def update_tournament(
        self,
        tournament_id: str,
        expected_revision: int,
        doc: bytes,
        status: str,
        *,
        folded: Sequence[str] = (),
        outbox: Sequence[ppb.OutboxEntry] = (),
    ) -> StoredTournament:
        """Replace the document at `expected_revision`; Stale if it moved."""
        request = pb.UpdateTournamentRequest(
            tournament_id=tournament_id,
            expected_revision=expected_revision,
            doc=doc,
            status=status,
            folded_match_ids=list(folded),
            outbox=outbox,
        )
        return _tournament((await self._call("UpdateTournament", request)).tournament)

    async def link(
        self,
        tournament_id: str,
        round_no: int,
        pairing_id: str,
        match_id: str,
        outbox: Sequence[ppb.OutboxEntry] = (),
    ) -> None:
        """Record which match plays a pairing (idempotent; `outbox` goes out with the first recording)."""
        request = pb.LinkTournamentMatchRequest(
            tournament_id=tournament_id, round=round_no, pairing_id=pairing_id, match_id=match_id, outbox=outbox
        )
        await self._call("LinkTournamentMatch", request)

    async def links(self, tournament_id: str, round_no: int = 0) -> list[TournamentLink]:
        """The matches created for a round's pairings (every round when `round_no` is 0), oldest first."""
        request = pb.ListTournamentMatchesRequest(tournament_id=tournament_id, round=round_no)
        return [
            TournamentLink(m.match_id, m.round, m.pairing_id, m.created_unix_ms / 1000)
            for m in (await self._call("ListTournamentMatches", request)).matches
        ]

    async def record_result(self, match_id: str, ranks: Sequence[int], reason: str) -> str:
        """Put a finished match's outcome in its tournament's inbox; the tournament's id, or "" when the match
        plays no tournament (the id tells the caller which tournament's driver to step)."""
        request = pb.RecordTournamentResultRequest(match_id=match_id, ranks=[int(r) for r in ranks], reason=reason)
        reply = await self._call("RecordTournamentResult", request)
        return str(reply.result.tournament_id) if reply.HasField("result") else ""

    async def unfolded(self, tournament_id: str) -> list[InboxResult]:
        reply = await self._call("ListUnfoldedResults", pb.ListUnfoldedResultsRequest(tournament_id=tournament_id))
        return [InboxResult(r.match_id, r.pairing_id, r.round, tuple(r.ranks), r.reason) for r in reply.results]
