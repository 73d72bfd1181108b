"""`hall.tournaments`: register for and follow tournaments; operators create and run them."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Sequence
from datetime import datetime, timedelta
from typing import Any

from gamehall_sdk.enums import enum_value
from gamehall_sdk.matches import bot_seat, new_request_id
from gamehall_sdk.transport import Transport, all_pages, make_stub
from gamehall_sdk.v1 import common_pb2, tournament_pb2_grpc
from gamehall_sdk.v1 import tournament_pb2 as pb


class Tournaments:
    """The TournamentService of the gateway; returns the protobuf messages. [operator] marks operator-only calls."""

    def __init__(self, transport: Transport, stub: Any) -> None:
        self._t = transport
        self._stub = stub

    @classmethod
    def over(cls, transport: Transport, channel: Any) -> Tournaments:
        return cls(transport, make_stub(tournament_pb2_grpc.TournamentServiceStub, channel))

    async def _tournament(self, method: Any, request: Any, reply: type[Any], idempotent: bool = False) -> pb.Tournament:
        """A tournament call; a change that lost to concurrent changes (ABORTED, nothing written) is tried again."""
        response = await self._t.unary(method, request, reply, idempotent=idempotent, retry_aborted=True)
        tournament: pb.Tournament = response.tournament
        return tournament

    async def create(
        self,
        name: str,
        game: str,
        format: str,
        *,
        mode: str = "",
        rounds: int = 0,
        seats: int = 0,
        max_players: int = 0,
        require_check_in: bool = False,
        no_show_timeout: timedelta | None = None,
        registration_open_time: datetime | None = None,
        registration_close_time: datetime | None = None,
        clock: common_pb2.ClockSpec | None = None,
        request_id: str | None = None,
    ) -> pb.Tournament:
        """[operator] Open a tournament (`format`: swiss, single-elimination, double-elimination, round-robin,
        pods, or a `TournamentFormat` value). Retried on UNAVAILABLE under one request id (made for you)."""
        request = pb.CreateTournamentRequest(
            request_id=request_id or new_request_id(),
            name=name,
            game=game,
            mode=mode,
            format=enum_value(pb.TournamentFormat, "TOURNAMENT_FORMAT", format),
            rounds=rounds,
            seats=seats,
            max_players=max_players,
            require_check_in=require_check_in,
        )
        if no_show_timeout is not None:
            request.no_show_timeout.FromTimedelta(no_show_timeout)
        if registration_open_time is not None:
            request.registration_open_time.FromDatetime(registration_open_time)
        if registration_close_time is not None:
            request.registration_close_time.FromDatetime(registration_close_time)
        if clock is not None:
            request.clock.CopyFrom(clock)
        return await self._tournament(
            self._stub.CreateTournament, request, pb.CreateTournamentResponse, idempotent=True
        )

    async def list(self, status: str | int = "") -> Sequence[pb.Tournament]:
        """Tournaments, newest first, optionally of one status (`registration`, `running`, ...); every page."""
        request = pb.ListTournamentsRequest(status=enum_value(pb.TournamentStatus, "TOURNAMENT_STATUS", status))
        found = await all_pages(self._t, self._stub.ListTournaments, request, pb.ListTournamentsResponse, "tournaments")
        return tuple(found)

    async def pairings(self, tournament_id: str, round_no: int = 0) -> Sequence[pb.TournamentPairing]:
        """The pairings of every round (or of round `round_no`), by round then table, with their matches; every page."""
        request = pb.ListPairingsRequest(tournament_id=tournament_id, round=round_no)
        found = await all_pages(self._t, self._stub.ListPairings, request, pb.ListPairingsResponse, "pairings")
        return tuple(found)

    async def get(self, tournament_id: str) -> pb.Tournament:
        """One tournament with its settings and entrants (its pairings: `pairings`)."""
        request = pb.GetTournamentRequest(tournament_id=tournament_id)
        return await self._tournament(self._stub.GetTournament, request, pb.GetTournamentResponse, idempotent=True)

    async def register(
        self, tournament_id: str, *, account_id: str = "", bot: str | int = "", request_id: str | None = None
    ) -> pb.RegisterPlayerResponse:
        """Register the caller ([operator] or `account_id`, or a `bot` entrant of that difficulty: a name or a
        `BotDifficulty` value). Retried on UNAVAILABLE under one request id (made for you)."""
        request = pb.RegisterPlayerRequest(
            tournament_id=tournament_id, account_id=account_id, request_id=request_id or new_request_id()
        )
        if bot:
            request.bot_level = bot_seat(bot).bot_level
        return await self._t.unary(self._stub.RegisterPlayer, request, pb.RegisterPlayerResponse, idempotent=True)

    async def unregister(self, tournament_id: str, player: str = "") -> pb.Tournament:
        """Withdraw a registration (default: the caller's) before the start."""
        request = pb.UnregisterPlayerRequest(tournament_id=tournament_id, player=player)
        return await self._tournament(self._stub.UnregisterPlayer, request, pb.UnregisterPlayerResponse)

    async def check_in(self, tournament_id: str, player: str = "") -> pb.Tournament:
        """Confirm a registration (default: the caller's)."""
        request = pb.CheckInRequest(tournament_id=tournament_id, player=player)
        return await self._tournament(self._stub.CheckIn, request, pb.CheckInResponse)

    async def start(self, tournament_id: str) -> pb.Tournament:
        """[operator] Seed the players and start round 1."""
        request = pb.StartTournamentRequest(tournament_id=tournament_id)
        return await self._tournament(self._stub.StartTournament, request, pb.StartTournamentResponse)

    async def standings(self, tournament_id: str) -> pb.Standings:
        """Standings with tie-breakers."""
        request = pb.GetStandingsRequest(tournament_id=tournament_id)
        reply = await self._t.unary(self._stub.GetStandings, request, pb.GetStandingsResponse, idempotent=True)
        return reply.standings

    async def watch_standings(
        self, tournament_id: str, *, timeout: float | None = None
    ) -> AsyncGenerator[pb.Standings, None]:
        """The standings now, then after each change, until the tournament ends."""
        request = pb.WatchStandingsRequest(tournament_id=tournament_id)
        stream = self._t.stream(self._stub.WatchStandings, request, pb.WatchStandingsResponse, timeout=timeout)
        async for reply in stream:
            yield reply.standings

    async def pause(self, tournament_id: str) -> pb.Tournament:
        """[operator] Stop creating matches and recording results until resumed."""
        request = pb.PauseTournamentRequest(tournament_id=tournament_id)
        return await self._tournament(self._stub.PauseTournament, request, pb.PauseTournamentResponse)

    async def resume(self, tournament_id: str) -> pb.Tournament:
        """[operator] Resume a paused tournament."""
        request = pb.ResumeTournamentRequest(tournament_id=tournament_id)
        return await self._tournament(self._stub.ResumeTournament, request, pb.ResumeTournamentResponse)

    async def drop(self, tournament_id: str, player: str = "") -> pb.Tournament:
        """Drop a player (default: the caller); a pending game of theirs is forfeited."""
        request = pb.DropPlayerRequest(tournament_id=tournament_id, player=player)
        return await self._tournament(self._stub.DropPlayer, request, pb.DropPlayerResponse)

    async def repair(self, tournament_id: str) -> pb.Tournament:
        """[operator] Re-pair the current round before any result."""
        request = pb.RepairRoundRequest(tournament_id=tournament_id)
        return await self._tournament(self._stub.RepairRound, request, pb.RepairRoundResponse)

    async def adjudicate(
        self, tournament_id: str, pairing_id: str, ranks: Sequence[int], *, request_id: str | None = None
    ) -> pb.Tournament:
        """[operator] Set or override a pairing's result (a rank per seat, 1 best). Retried on UNAVAILABLE under one
        request id (made for you)."""
        request = pb.AdjudicatePairingRequest(
            tournament_id=tournament_id,
            pairing_id=pairing_id,
            ranks=list(ranks),
            request_id=request_id or new_request_id(),
        )
        return await self._tournament(
            self._stub.AdjudicatePairing, request, pb.AdjudicatePairingResponse, idempotent=True
        )
