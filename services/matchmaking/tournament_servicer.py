"""gamehall.v1.TournamentService: operator lifecycle and controls, player registration, standings."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc

from gamehall.auth import Claims, Principals
from gamehall.runtime.errors import ClientError
from gamehall.tournaments import machine
from gamehall.wire import idempotency, pages
from gamehall.wire.public import bot_level_name, clock_from_proto, enum_name, ms_of, seconds_of
from gamehall_sdk.v1 import tournament_pb2 as pb
from gamehall_sdk.v1 import tournament_pb2_grpc
from gamehall_services.matchmaking.caller import (
    claims_of,
    denied,
    invalid,
    is_operator,
    page_owner,
    reader_of,
    require_operator,
)
from gamehall_services.matchmaking.convert import pairing_to_proto, standings_to_proto, tournament_to_proto
from gamehall_services.matchmaking.documents import TournamentDoc
from gamehall_services.matchmaking.ratings import Ratings
from gamehall_services.matchmaking.tournaments import Tournaments

WEEK_S = 7 * 24 * 3600
CLOSED = ("finished", "cancelled")


class _Once:
    """A tournament change made at most once per (caller, request id): `check` inside the change finds a recorded
    key (Replayed: nothing is written), `record` writes the key with the change, `result` reads the record back
    (ALREADY_EXISTS when the id was used for another request). Without a request id it does nothing."""

    def __init__(self, claims: Claims, request_id: str, request: Any) -> None:
        self.request_id = request_id
        self.key = idempotency.key(claims.account_id, request_id)
        self.digest = idempotency.digest(request) if self.key else ""

    def check(self, doc: TournamentDoc) -> None:
        if self.key and self.key in doc.requests:
            raise idempotency.Replayed(doc.requests[self.key])

    def record(self, doc: TournamentDoc, result: str) -> None:
        if self.key:
            doc.requests[self.key] = f"{self.digest} {result}"

    def result(self, replay: idempotency.Replayed) -> str:
        digest, _, result = replay.recorded.partition(" ")
        if digest != self.digest:
            raise idempotency.reused(self.request_id)
        return result


class TournamentServicer(tournament_pb2_grpc.TournamentServiceServicer):
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
        """With a request id, the tournament's id derives from it (and the caller): a retry finds it, and answers
        it if it was made by the same request (AIP-155)."""
        claims = await self._operator(context, "create a tournament")
        key = idempotency.key(claims.account_id, request.request_id)
        tournament_id, digest = (f"tn-{key[:24]}", idempotency.digest(request)) if key else ("", "")
        if key:
            made = await self._made_by(tournament_id, digest, request.request_id)
            if made is not None:
                return pb.CreateTournamentResponse(tournament=made)
        now = self.book.clock()
        opens = seconds_of(request.registration_open_time) if request.HasField("registration_open_time") else now
        closes = (
            seconds_of(request.registration_close_time)
            if request.HasField("registration_close_time")
            else opens + WEEK_S
        )
        clock = {
            k: v
            for k, v in zip(("per_move_ms", "bank_ms", "increment_ms"), clock_from_proto(request.clock), strict=True)
            if v
        }
        no_show = ms_of(request.no_show_timeout) / 1000
        try:
            doc, revision = await self._create(request, opens, closes, clock, no_show, claims, tournament_id, digest)
        except ClientError as exc:
            if not key or exc.code != grpc.StatusCode.ALREADY_EXISTS:
                raise
            made = await self._made_by(tournament_id, digest, request.request_id)  # a concurrent retry made it
            if made is None:
                raise
            return pb.CreateTournamentResponse(tournament=made)
        return pb.CreateTournamentResponse(tournament=await self._proto(doc, revision))

    async def _made_by(self, tournament_id: str, digest: str, request_id: str) -> pb.Tournament | None:
        """The tournament a request id made (None: not made yet); ALREADY_EXISTS if another request made it."""
        try:
            doc, revision = await self.book.get(tournament_id)
        except ClientError as exc:
            if exc.code == grpc.StatusCode.NOT_FOUND:
                return None
            raise
        if doc.request_digest != digest:
            raise idempotency.reused(request_id)
        return await self._proto(doc, revision)

    async def _create(
        self,
        request: pb.CreateTournamentRequest,
        opens: float,
        closes: float,
        clock: dict[str, int],
        no_show: float,
        claims: Claims,
        tournament_id: str,
        digest: str,
    ) -> tuple[TournamentDoc, int]:
        return await self.book.create(
            name=request.name,
            game=request.game,
            mode=request.mode,
            format=enum_name(pb.TournamentFormat, "TOURNAMENT_FORMAT", request.format) or "swiss",
            rounds=request.rounds,
            seats=request.seats,
            opens=opens,
            closes=closes,
            max_players=request.max_players,
            check_in=request.require_check_in,
            no_show_s=no_show or 120.0,
            clock=clock,
            created_by=claims.account_id,
            tournament_id=tournament_id,
            request_digest=digest,
        )

    async def ListTournaments(self, request: pb.ListTournamentsRequest, context: Any) -> pb.ListTournamentsResponse:
        claims = await reader_of(context, self.principals)
        status = enum_name(pb.TournamentStatus, "TOURNAMENT_STATUS", request.status)
        size = pages.page_size(request.page_size, pages.TOURNAMENTS)
        found = await self.book.all([status] if status else [])
        filters = {"status": status, "caller": page_owner(claims)}  # a token is its caller's
        page, token = pages.offset_page(found, size, request.page_token, "tournaments", filters)
        return pb.ListTournamentsResponse(
            tournaments=[tournament_to_proto(doc, revision) for doc, revision in page], next_page_token=token
        )

    async def GetTournament(self, request: pb.GetTournamentRequest, context: Any) -> pb.GetTournamentResponse:
        await reader_of(context, self.principals)
        doc, revision = await self.book.get(request.tournament_id)
        return pb.GetTournamentResponse(tournament=await self._proto(doc, revision))

    async def ListPairings(self, request: pb.ListPairingsRequest, context: Any) -> pb.ListPairingsResponse:
        claims = await reader_of(context, self.principals)
        doc, _ = await self.book.get(request.tournament_id)
        size = pages.page_size(request.page_size, pages.PAIRINGS)
        wanted = [p for p in doc.tournament.pairings if not request.round or p.round == request.round]
        wanted.sort(key=lambda p: (p.round, p.table))
        filters = {"tournament": request.tournament_id, "round": request.round, "caller": page_owner(claims)}
        page, token = pages.offset_page(wanted, size, request.page_token, "pairings", filters)
        links = await self.book.match_ids(request.tournament_id, request.round) if page else {}
        return pb.ListPairingsResponse(pairings=[pairing_to_proto(p, links) for p in page], next_page_token=token)

    async def RegisterPlayer(self, request: pb.RegisterPlayerRequest, context: Any) -> pb.RegisterPlayerResponse:
        """Idempotent per request id: the key is recorded in the document with the registration (one CAS)."""
        claims = await claims_of(context, self.principals)
        once = _Once(claims, request.request_id, request)
        bot = request.bot or bot_level_name(request.bot_level)
        try:
            return await self._register(request, claims, bot, once)
        except idempotency.Replayed as replay:
            doc, revision = await self.book.get(request.tournament_id)
            return pb.RegisterPlayerResponse(tournament=await self._proto(doc, revision), player=once.result(replay))

    async def _register(
        self, request: pb.RegisterPlayerRequest, claims: Claims, bot: str, once: _Once
    ) -> pb.RegisterPlayerResponse:
        if bot:
            require_operator(claims, "register a bot entrant")
            add_bot = self.book.add_bot(bot)

            def add_entrant(doc: TournamentDoc) -> None:
                once.check(doc)
                add_bot(doc)
                once.record(doc, f"bot-{bot}-{doc.bot_count}")

            doc, revision = await self.book.change(request.tournament_id, "registered", add_entrant)
            player = f"bot-{bot}-{doc.bot_count}"
        else:
            if request.username and request.account_id:
                raise invalid("give account_id or username, not both")
            if request.username:  # an operator adds a player by name (issue 38: the console)
                require_operator(claims, "register another player")
                player, name = await self.book.creator.account_named(request.username)
            else:
                player = self._player(claims, request.account_id)
                name = claims.name if player == claims.account_id else await self.book.creator.require_account(player)
            if claims.role == "bot":
                raise invalid("bot identities do not register")
            config = (await self.book.get(request.tournament_id))[0].tournament.config
            rating = (await self.ratings.rating(config.game, config.mode, player)).ordinal

            def add(doc: TournamentDoc) -> None:
                once.check(doc)
                doc.tournament = machine.register(doc.tournament, player, rating, self.book.clock(), name)
                once.record(doc, player)

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
        await reader_of(context, self.principals)
        doc, revision = await self.book.get(request.tournament_id)
        return pb.GetStandingsResponse(standings=standings_to_proto(doc, revision))

    async def WatchStandings(
        self, request: pb.WatchStandingsRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.WatchStandingsResponse]:
        """The standings now, then after every change; ends when the tournament closes.

        Pushed, not polled: the stream listens for the tournament's changes (made through this replica, or heard
        from any replica's tournament event) and reads the standings again only when one arrives; a read that
        finds the revision unchanged (an event it already sent) sends nothing. It listens before its first read,
        so a change between the two is not lost; a lost notification is made good by the next one."""
        await reader_of(context, self.principals)
        last = 0
        with self.book.listening(request.tournament_id) as changed:
            while True:
                changed.clear()
                found = await self.book.get_if_newer(request.tournament_id, last)
                if found is not None:
                    doc, last = found
                    yield pb.WatchStandingsResponse(standings=standings_to_proto(doc, last))
                    if doc.tournament.status in CLOSED:
                        return
                await changed.wait()

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
        """Idempotent per request id: the key is recorded in the document with the result (one CAS)."""
        claims = await self._operator(context, "adjudicate a pairing")
        once = _Once(claims, request.request_id, request)
        ranks = [int(r) for r in request.ranks]

        def adjudicate(doc: TournamentDoc) -> None:
            once.check(doc)
            doc.tournament = machine.adjudicate(doc.tournament, request.pairing_id, ranks)
            once.record(doc, request.pairing_id)

        try:
            doc, revision = await self.book.change(request.tournament_id, "adjudicated", adjudicate)
        except idempotency.Replayed as replay:
            once.result(replay)
            doc, revision = await self.book.get(request.tournament_id)
        return pb.AdjudicatePairingResponse(tournament=await self._proto(doc, revision))

    async def _proto(self, doc: TournamentDoc, revision: int) -> pb.Tournament:
        return tournament_to_proto(doc, revision)

    async def _apply(self, tournament_id: str, kind: str, transition: Any, *args: Any) -> tuple[TournamentDoc, int]:
        """One library transition as one stored change."""

        def apply(doc: TournamentDoc) -> None:
            doc.tournament = transition(doc.tournament, *args)

        return await self.book.change(tournament_id, kind, apply)
