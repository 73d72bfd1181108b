"""A seat's play stream (MatchService.PlaySeat): one bidirectional stream per seat, so a move is one round trip.

    async with hall.matches.play_stream(match_id, seat) as stream:
        async for turn in stream:                 # the seat's view after every step
            if turn.legal:                        # the seat must act at turn.version
                await stream.act(turn.legal[0], expected_version=turn.version)

`act` sends the action on the stream and waits for its answer (matched by request id); a refusal raises the
same named error the unary SubmitAction would (VersionConflict, IllegalAction, ...) and the stream goes on.
Reopen with `from_version` (the last version seen) to resume without losing or repeating a step, except the
turn the seat still owes: when the match is still at that version and the seat must act at it, that version comes
again (the action sent on the dropped stream may never have arrived).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections.abc import AsyncIterator, Mapping
from types import TracebackType
from typing import Any

import grpc

from gamehall_sdk.errors import GamehallError, MatchOver, Unavailable, from_rpc_error, from_status_bytes
from gamehall_sdk.models import GameEvent, LegalAction, LegalActions, SeatTurn, Submitted, decode, outcome_of
from gamehall_sdk.transport import Transport
from gamehall_sdk.v1 import match_pb2

ActionLike = LegalAction | str | Mapping[str, Any]


class SeatStream:
    """An open play stream of one seat (use as an async context manager, then iterate it)."""

    def __init__(
        self, transport: Transport, stub: Any, match_id: str, seat: int | None, from_version: int = 0
    ) -> None:
        self._t = transport
        self._stub = stub
        self.match_id = match_id
        self.seat = seat
        self.from_version = from_version
        self._outgoing: asyncio.Queue[match_pb2.PlaySeatRequest | None] = asyncio.Queue()
        self._turns: asyncio.Queue[SeatTurn | BaseException | None] = asyncio.Queue()
        self._pending: dict[str, asyncio.Future[match_pb2.SeatActionResult]] = {}
        self._call: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._ended: BaseException | None = None
        """Why the stream can take no more actions (it failed, ended with the match, or was closed)."""

    async def __aenter__(self) -> SeatStream:
        opening = match_pb2.OpenSeatStream(match_id=self.match_id, from_version=self.from_version)
        if self.seat is not None:
            opening.seat = self.seat
        await self._outgoing.put(match_pb2.PlaySeatRequest(open=opening))
        self._call = self._stub.PlaySeat(self._requests(), metadata=self._t.metadata())
        self._reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """End the stream (pending actions fail with Unavailable-like errors from the cancelled call)."""
        await self._outgoing.put(None)
        if self._call is not None:
            self._call.cancel()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        self._fail_pending(asyncio.CancelledError("the play stream was closed"))

    async def _requests(self) -> AsyncIterator[match_pb2.PlaySeatRequest]:
        while True:
            message = await self._outgoing.get()
            if message is None:
                return
            yield message

    async def _read(self) -> None:
        try:
            async for response in self._call:
                if response.HasField("update"):
                    await self._turns.put(_turn(response.update))
                else:
                    waiting = self._pending.pop(response.result.request_id, None)
                    if waiting is not None and not waiting.done():
                        waiting.set_result(response.result)
            await self._turns.put(None)
            # the stream ends with the match: an action still in flight was not played
            over = MatchOver(grpc.StatusCode.FAILED_PRECONDITION, "MATCH_OVER", "the match ended before the action")
            self._fail_pending(over)
        except grpc.RpcError as exc:
            failure = _stream_error(exc)
            failure.__cause__ = exc
            await self._turns.put(failure)
            self._fail_pending(failure)

    def _fail_pending(self, failure: BaseException) -> None:
        """Fail every action awaiting its answer, and every later one (`act` checks `_ended`): no answer comes."""
        if self._ended is None:
            self._ended = failure
        for waiting in self._pending.values():
            if not waiting.done():
                waiting.set_exception(failure)
        self._pending.clear()

    def __aiter__(self) -> AsyncIterator[SeatTurn]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[SeatTurn]:
        while True:
            item = await self._turns.get()
            if item is None:
                return
            if isinstance(item, BaseException):
                raise item
            yield item

    async def act(
        self, action: ActionLike, *, expected_version: int | None = None, request_id: str | None = None
    ) -> Submitted:
        """Play `action` on the stream and wait for its answer; a refusal raises its named error."""
        if self._ended is not None:  # no answer would ever come: fail now, as an action in flight did
            raise self._ended
        request_id = request_id or uuid.uuid4().hex
        sent = match_pb2.SeatAction(request_id=request_id)
        if isinstance(action, LegalAction):
            sent.action_id = action.id
        elif isinstance(action, str):
            sent.action_id = action
        else:
            sent.action_json = json.dumps(dict(action))
        if expected_version is not None:
            sent.expected_version = expected_version
        answer: asyncio.Future[match_pb2.SeatActionResult] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = answer
        await self._outgoing.put(match_pb2.PlaySeatRequest(action=sent))
        result = await answer
        if result.error:
            raise from_status_bytes(result.error)
        played = result.played
        return Submitted(
            version=played.version,
            action=LegalAction.from_proto(played.action),
            to_act=tuple(played.to_act),
            outcome=outcome_of(played),
            replayed=played.replayed,
            request_id=request_id,
        )


def _stream_error(exc: grpc.RpcError) -> GamehallError:
    """The named error of a play stream that failed. An INTERNAL status without the platform's error details (every
    INTERNAL of the platform carries its reason and trace id) is the transport's: gRPC's asyncio client reports a
    write that failed because the call was ending meanwhile (an action sent as the gateway ended the stream with
    UNAVAILABLE, or died) as INTERNAL "Internal error from Core", the server's status lost. That is the stream
    dropping: Unavailable, so that the seat reopens its stream instead of abandoning its match."""
    failure = from_rpc_error(exc)
    if failure.code is not grpc.StatusCode.INTERNAL or failure.reason:
        return failure
    return Unavailable(grpc.StatusCode.UNAVAILABLE, "UNAVAILABLE", f"the play stream broke: {failure.message}")


def _turn(update: match_pb2.SeatUpdate) -> SeatTurn:
    step = update.step
    legal = None
    if update.HasField("legal"):
        legal = LegalActions(
            version=update.legal.version,
            seat=update.legal.seat,
            actions=tuple(LegalAction.from_proto(a) for a in update.legal.actions),
        )
    return SeatTurn(
        version=step.version,
        seat=step.seat if step.HasField("seat") else None,
        data=decode(step.view_json),
        to_act=tuple(step.to_act),
        outcome=outcome_of(step),
        events=tuple(GameEvent(e.kind, decode(e.data_json), tuple(e.audience)) for e in step.events),
        legal=legal,
    )
