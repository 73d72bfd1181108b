"""`hall.matches`: create, join, read and play matches, watch them live, fetch their replays."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncGenerator, Mapping, Sequence
from typing import Any

from gamehall_sdk.models import GameEvent, LegalAction, LegalActions, MatchUpdate, Submitted, View, decode, outcome_of
from gamehall_sdk.seat_stream import SeatStream
from gamehall_sdk.transport import Transport, make_stub
from gamehall_sdk.v1 import common_pb2, match_pb2, match_pb2_grpc

ActionLike = LegalAction | str | Mapping[str, Any]
"""What `submit` plays: a `LegalAction`, a legal-action id, or the action's JSON form {"kind": ...}."""


def open_seat() -> match_pb2.SeatSpec:
    """A seat anyone may join."""
    return match_pb2.SeatSpec(open=True)


def reserved_seat(account_id: str) -> match_pb2.SeatSpec:
    """A seat only `account_id` may join."""
    return match_pb2.SeatSpec(reserved_for=account_id)


def bot_seat(difficulty: str | int = "normal") -> match_pb2.SeatSpec:
    """A seat the platform's bot of this difficulty plays: a name (random, easy, normal, hard, expert) or a
    `gamehall.v1.BotDifficulty` value (`common_pb2.BOT_DIFFICULTY_EASY`)."""
    if isinstance(difficulty, str):
        return match_pb2.SeatSpec(bot_level=common_pb2.BotDifficulty.Value(f"BOT_DIFFICULTY_{difficulty.upper()}"))
    return match_pb2.SeatSpec(bot_level=common_pb2.BotDifficulty.Value(common_pb2.BotDifficulty.Name(difficulty)))


def new_request_id() -> str:
    """A fresh idempotency key."""
    return uuid.uuid4().hex


class Matches:
    """The MatchService of the gateway, with decoded views and typed legal actions."""

    def __init__(self, transport: Transport, stub: Any) -> None:
        self._t = transport
        self._stub = stub

    @classmethod
    def over(cls, transport: Transport, channel: Any) -> Matches:
        return cls(transport, make_stub(match_pb2_grpc.MatchServiceStub, channel))

    async def create(
        self,
        game: str,
        *,
        mode: str = "",
        seats: int = 0,
        options: Mapping[str, Any] | None = None,
        flags: Mapping[str, Any] | None = None,
        seat_specs: Sequence[match_pb2.SeatSpec] = (),
        clock: common_pb2.ClockSpec | None = None,
        public: bool = False,
        join_seat: int | None = None,
        request_id: str | None = None,
    ) -> match_pb2.Match:
        """Create a match (mode/seats default to the game's); retried safely under one request id."""
        config = common_pb2.MatchConfig(
            mode=mode,
            seats=seats,
            options_json=json.dumps(dict(options)) if options else "",
            flags_json=json.dumps(dict(flags)) if flags else "",
        )
        request = match_pb2.CreateMatchRequest(
            game=game, config=config, seats=list(seat_specs), public=public, request_id=request_id or new_request_id()
        )
        if clock is not None:
            request.clock.CopyFrom(clock)
        if join_seat is not None:
            request.join_seat = join_seat
        reply = await self._t.unary(self._stub.CreateMatch, request, match_pb2.CreateMatchResponse, idempotent=True)
        return reply.match

    async def list(
        self,
        *,
        game: str = "",
        status: int = match_pb2.MATCH_STATUS_UNSPECIFIED,
        mine: bool = False,
        page_size: int = 0,
        page_token: str = "",
    ) -> match_pb2.ListMatchesResponse:
        """One page of the matches visible to the caller (`next_page_token` fetches the next)."""
        request = match_pb2.ListMatchesRequest(
            game=game,
            status=status,  # type: ignore[arg-type]
            mine=mine,
            page_size=page_size,
            page_token=page_token,
        )
        return await self._t.unary(self._stub.ListMatches, request, match_pb2.ListMatchesResponse, idempotent=True)

    async def get(self, match_id: str) -> match_pb2.Match:
        """One match's public record."""
        request = match_pb2.GetMatchRequest(match_id=match_id)
        reply = await self._t.unary(self._stub.GetMatch, request, match_pb2.GetMatchResponse, idempotent=True)
        return reply.match

    async def join(
        self, match_id: str, seat: int | None = None, *, request_id: str | None = None
    ) -> match_pb2.JoinMatchResponse:
        """Take `seat` (or the first open or reserved one); the reply says which. Retried on UNAVAILABLE under one
        request id (fresh unless given): a retry gets the seat the first try took, never a second join."""
        request = match_pb2.JoinMatchRequest(match_id=match_id, request_id=request_id or new_request_id())
        if seat is not None:
            request.seat = seat
        return await self._t.unary(self._stub.JoinMatch, request, match_pb2.JoinMatchResponse, idempotent=True)

    async def leave(self, match_id: str, *, request_id: str | None = None) -> match_pb2.Match:
        """Resign the caller's seat (or free it while the match is open). Retried on UNAVAILABLE under one request
        id (fresh unless given): a retry gets the first answer, not an error, and leaves nothing twice; retried on
        ABORTED too (the match kept changing: nothing was written)."""
        request = match_pb2.LeaveMatchRequest(match_id=match_id, request_id=request_id or new_request_id())
        reply = await self._t.unary(
            self._stub.LeaveMatch, request, match_pb2.LeaveMatchResponse, idempotent=True, retry_aborted=True
        )
        return reply.match

    async def view(self, match_id: str, seat: int | None = None) -> View:
        """The view of `seat` (default: the caller's first seat, or the spectator's), decoded."""
        request = match_pb2.GetViewRequest(match_id=match_id)
        if seat is not None:
            request.seat = seat
        reply = await self._t.unary(self._stub.GetView, request, match_pb2.GetViewResponse, idempotent=True)
        return View(
            version=reply.version,
            seat=reply.seat if reply.HasField("seat") else None,
            data=decode(reply.view_json),
            to_act=tuple(reply.to_act),
            outcome=outcome_of(reply),
        )

    async def legal(self, match_id: str, seat: int | None = None) -> LegalActions:
        """The legal actions of `seat` now, with the version they are legal at."""
        request = match_pb2.ListLegalActionsRequest(match_id=match_id)
        if seat is not None:
            request.seat = seat
        reply = await self._t.unary(
            self._stub.ListLegalActions, request, match_pb2.ListLegalActionsResponse, idempotent=True
        )
        actions = tuple(LegalAction.from_proto(a) for a in reply.actions)
        return LegalActions(version=reply.version, seat=reply.seat, actions=actions)

    async def submit(
        self,
        match_id: str,
        seat: int | None,
        action: ActionLike,
        *,
        expected_version: int | None = None,
        request_id: str | None = None,
    ) -> Submitted:
        """Play `action` for `seat`; the request id (fresh unless given) makes retries play it once.

        With `expected_version`, the server refuses (VersionConflict) if the match has moved on.
        """
        request = match_pb2.SubmitActionRequest(match_id=match_id, request_id=request_id or new_request_id())
        if isinstance(action, LegalAction):
            request.action_id = action.id
        elif isinstance(action, str):
            request.action_id = action
        else:
            request.action_json = json.dumps(dict(action))
        if seat is not None:
            request.seat = seat
        if expected_version is not None:
            request.expected_version = expected_version
        reply = await self._t.unary(self._stub.SubmitAction, request, match_pb2.SubmitActionResponse, idempotent=True)
        return Submitted(
            version=reply.version,
            action=LegalAction.from_proto(reply.action),
            to_act=tuple(reply.to_act),
            outcome=outcome_of(reply),
            replayed=reply.replayed,
            request_id=request.request_id,
        )

    async def watch(
        self, match_id: str, seat: int | None = None, *, from_version: int = 0, timeout: float | None = None
    ) -> AsyncGenerator[MatchUpdate, None]:
        """The current view, then one update per change, until the match ends (the stream closes then).

        With `from_version`, resume after that version instead (no current-view message first).
        """
        request = match_pb2.WatchMatchRequest(match_id=match_id, from_version=from_version)
        if seat is not None:
            request.seat = seat
        async for message in self._t.stream(
            self._stub.WatchMatch, request, match_pb2.WatchMatchResponse, timeout=timeout
        ):
            yield MatchUpdate(
                version=message.version,
                seat=message.seat if message.HasField("seat") else None,
                data=decode(message.view_json),
                to_act=tuple(message.to_act),
                outcome=outcome_of(message),
                events=tuple(GameEvent(e.kind, decode(e.data_json), tuple(e.audience)) for e in message.events),
            )

    def play_stream(self, match_id: str, seat: int | None = None, *, from_version: int = 0) -> SeatStream:
        """The seat's play stream (`async with ... as stream:`): updates with legal actions pushed, actions sent on
        the same stream (a move is one round trip). `from_version` resumes after that version (or
        with it again, when the seat still owes its action at it)."""
        return SeatStream(self._t, self._stub, match_id, seat, from_version)

    async def replay(self, match_id: str, *, page_size: int = 0) -> match_pb2.GetReplayResponse:
        """The match's whole history (complete once finished; the caller's seat view while running): every page
        of GetReplay followed and joined into one response (the initial view, the match as of the last page,
        every step in order, no next_page_token). `page_size` 0 is the server's default."""
        joined = match_pb2.GetReplayResponse()
        async for page in self.replay_pages(match_id, page_size=page_size):
            if not joined.initial_view_json:
                joined.initial_view_json = page.initial_view_json
            joined.match.CopyFrom(page.match)
            joined.complete = page.complete
            joined.steps.extend(page.steps)
        return joined

    async def replay_pages(
        self, match_id: str, *, page_size: int = 0
    ) -> AsyncGenerator[match_pb2.GetReplayResponse, None]:
        """GetReplay's pages in order (AIP-158), for a client that shows or stores a long replay as it arrives."""
        request = match_pb2.GetReplayRequest(match_id=match_id, page_size=page_size)
        while True:
            page = await self._t.unary(self._stub.GetReplay, request, match_pb2.GetReplayResponse, idempotent=True)
            yield page
            if not page.next_page_token:
                return
            request.page_token = page.next_page_token
