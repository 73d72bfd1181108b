"""gamehall.v1.TournamentService: operator lifecycle and controls, player registration, standings."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import grpc

from gamehall.auth import Claims, Principals
from gamehall.tournaments import machine
from gamehall.v1 import matchmaking_pb2 as pb
from gamehall.v1 import matchmaking_pb2_grpc
from gamehall_services.matchmaking.caller import claims_of, denied, invalid, is_operator, require_operator
from gamehall_services.matchmaking.convert import standings_to_proto, tournament_to_proto
from gamehall_services.matchmaking.documents import TournamentDoc
from gamehall_services.matchmaking.ratings import Ratings
from gamehall_services.matchmaking.tournaments import Tournaments

WEEK_S = 7 * 24 * 3600
WATCH_POLL_S = 0.25
CLOSED = ("finished", "cancelled")


class TournamentServicer(matchmaking_pb2_grpc.TournamentServiceServicer):
    def __init__(self, tournaments: Tournaments, ratings: Ratings, principals: Principals) -> None:
        self.book = tournaments
        self.ratings = ratings
        self.principals = principals

    async def _operator(self, context: Any, what: str) -> Claims:
        claims = await claims_of(context, self.principals)
        require_operator(claims, what)
        return claims

    def _player(self, claims: Claims, wanted: str) -> str:
        """The player an operation is about: the caller, or anyone for an operator."""
        if wanted and wanted != claims.account_id and not is_operator(claims):
            raise denied("only an operator may act for another player")
        return wanted or claims.account_id

    async def CreateTournament(self, request: pb.CreateTournamentRequest, context: Any) -> pb.CreateTournamentResponse:
        claims = await self._operator(context, "create a tournament")
        now = self.book.clock()
        opens = float(request.registration_opens_unix or now)
        clock = {
            k: v
            for k, v in (
                ("per_move_ms", request.clock.per_move_ms),
                ("bank_ms", request.clock.bank_ms),
                ("increment_ms", request.clock.increment_ms),
            )
            if v
        }
        doc, revision = await self.book.create(
            name=request.name,
            game=request.game,
            mode=request.mode,
            format=request.format or "swiss",
            rounds=request.rounds,
            seats=request.seats,
            opens=opens,
            closes=float(request.registration_closes_unix or opens + WEEK_S),
            max_players=request.max_players,
            check_in=request.require_check_in,
            no_show_s=float(request.no_show_seconds or 120),
            clock=clock,
            created_by=claims.account_id,
        )
        return pb.CreateTournamentResponse(tournament=await self._proto(doc, revision))

    async def ListTournaments(self, request: pb.ListTournamentsRequest, context: Any) -> pb.ListTournamentsResponse:
        await claims_of(context, self.principals)
        rows = [
            await self._proto(doc, revision)
            for doc, revision in await self.book.all([request.status] if request.status else [])
        ]
        return pb.ListTournamentsResponse(tournaments=rows)

    async def GetTournament(self, request: pb.GetTournamentRequest, context: Any) -> pb.GetTournamentResponse:
        await claims_of(context, self.principals)
        doc, revision = await self.book.get(request.tournament_id)
        return pb.GetTournamentResponse(tournament=await self._proto(doc, revision))

    async def RegisterPlayer(self, request: pb.RegisterPlayerRequest, context: Any) -> pb.RegisterPlayerResponse:
        claims = await claims_of(context, self.principals)
        if request.bot:
            require_operator(claims, "register a bot entrant")
            doc, revision = await self.book.change(request.tournament_id, "registered", self.book.add_bot(request.bot))
            player = f"bot-{request.bot}-{doc.bot_count}"
        else:
            player = self._player(claims, request.account_id)
            if player != claims.account_id:
                await self.book.creator.require_account(player)
            if claims.role == "bot":
                raise invalid("bot identities do not register")
            config = (await self.book.get(request.tournament_id))[0].tournament.config
            rating = (await self.ratings.rating(config.game, config.mode, player)).ordinal

            def add(doc: TournamentDoc) -> None:
                doc.tournament = machine.register(doc.tournament, player, rating, self.book.clock())

            doc, revision = await self.book.change(request.tournament_id, "registered", add)
        return pb.RegisterPlayerResponse(tournament=await self._proto(doc, revision), player=player)

    async def UnregisterPlayer(self, request: pb.UnregisterPlayerRequest, context: Any) -> pb.UnregisterPlayerResponse:
        player = self._player(await claims_of(context, self.principals), request.player)
        doc, revision = await self._apply(request.tournament_id, "unregistered", machine.unregister, player)
        return pb.UnregisterPlayerResponse(tournament=await self._proto(doc, revision))

    async def CheckIn(self, request: pb.CheckInRequest, context: Any) -> pb.CheckInResponse:
        player = self._player(await claims_of(context, self.principals), request.player)
        doc, revision = await self._apply(request.tournament_id, "checked-in", machine.check_in, player)
        return pb.CheckInResponse(tournament=await self._proto(doc, revision))

    async def StartTournament(self, request: pb.StartTournamentRequest, context: Any) -> pb.StartTournamentResponse:
        await self._operator(context, "start a tournament")
        doc, revision = await self._apply(request.tournament_id, "started", machine.start, self.book.clock())
        return pb.StartTournamentResponse(tournament=await self._proto(doc, revision))

    async def GetStandings(self, request: pb.GetStandingsRequest, context: Any) -> pb.GetStandingsResponse:
        await claims_of(context, self.principals)
        doc, revision = await self.book.get(request.tournament_id)
        return pb.GetStandingsResponse(standings=standings_to_proto(doc, revision))

    async def WatchStandings(
        self, request: pb.WatchStandingsRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.WatchStandingsResponse]:
        """The standings now, then after every stored change; ends when the tournament closes."""
        await claims_of(context, self.principals)
        last = 0
        while True:
            found = await self.book.get_if_newer(request.tournament_id, last)
            if found is not None:
                doc, last = found
                yield pb.WatchStandingsResponse(standings=standings_to_proto(doc, last))
                if doc.tournament.status in CLOSED:
                    return
            await asyncio.sleep(WATCH_POLL_S)

    async def PauseTournament(self, request: pb.PauseTournamentRequest, context: Any) -> pb.PauseTournamentResponse:
        await self._operator(context, "pause a tournament")
        doc, revision = await self._apply(request.tournament_id, "paused", machine.pause)
        return pb.PauseTournamentResponse(tournament=await self._proto(doc, revision))

    async def ResumeTournament(self, request: pb.ResumeTournamentRequest, context: Any) -> pb.ResumeTournamentResponse:
        await self._operator(context, "resume a tournament")
        doc, revision = await self._apply(request.tournament_id, "resumed", machine.resume)
        return pb.ResumeTournamentResponse(tournament=await self._proto(doc, revision))

    async def DropPlayer(self, request: pb.DropPlayerRequest, context: Any) -> pb.DropPlayerResponse:
        player = self._player(await claims_of(context, self.principals), request.player)
        doc, revision = await self._apply(request.tournament_id, "dropped", machine.drop, player)
        return pb.DropPlayerResponse(tournament=await self._proto(doc, revision))

    async def RepairRound(self, request: pb.RepairRoundRequest, context: Any) -> pb.RepairRoundResponse:
        await self._operator(context, "re-pair a round")
        doc, revision = await self._apply(request.tournament_id, "repaired", machine.repair)
        return pb.RepairRoundResponse(tournament=await self._proto(doc, revision))

    async def AdjudicatePairing(
        self, request: pb.AdjudicatePairingRequest, context: Any
    ) -> pb.AdjudicatePairingResponse:
        await self._operator(context, "adjudicate a pairing")
        ranks = [int(r) for r in request.ranks]
        doc, revision = await self._apply(
            request.tournament_id, "adjudicated", machine.adjudicate, request.pairing_id, ranks
        )
        return pb.AdjudicatePairingResponse(tournament=await self._proto(doc, revision))

    async def _proto(self, doc: TournamentDoc, revision: int) -> pb.Tournament:
        return tournament_to_proto(doc, revision, await self.book.match_ids(doc.tournament.id))

    async def _apply(self, tournament_id: str, kind: str, transition: Any, *args: Any) -> tuple[TournamentDoc, int]:
        """One library transition as one stored change."""

        def apply(doc: TournamentDoc) -> None:
            doc.tournament = transition(doc.tournament, *args)

        return await self.book.change(tournament_id, kind, apply)
