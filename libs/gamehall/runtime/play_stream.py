"""Play calls multiplexed on one long-lived gRPC stream per caller and rules replica (`LiveMatchService/PlayStream`).

A unary call costs grpc.aio a call object, a task and an HTTP/2 stream at each end; most of a move's CPU in the
gateway and the rules replica was that, not the move. Here each caller (gateway, ai) keeps one stream per replica:
calls are written as they come, and whatever queued while the previous message was on the wire goes in the next
one (the replica answers the same way). Under load a message carries many calls, so a call costs a fraction of a
unary one; one call alone costs about half of one.

Under load each side lingers a moment before sending (`Linger`): calls, and answers, that arrive a millisecond
apart would otherwise each go in a message of their own, and a message costs grpc.aio a write on one side and a
read on the other, about as much as the move's own work in the gateway. A call that comes alone is never held.

The stream also carries the reads a caller makes of a match's owner (GetView, ListLegalActions): every call a
caller makes of the owner's play and its reads goes on it (there is no unary fallback: no release without the
stream or its reads ever shipped).

A call keeps a unary call's contract: its deadline travels with it and the replica holds it to it; its answer or
its error (status, message and AIP-193 details) comes back as a unary call's would, so failover, translation and
clients see no difference. A call whose stream ends goes once more on a new one, then fails UNAVAILABLE, which the
caller's failover retries on the match's next replica (Play is idempotent on its request id).
"""

from __future__ import annotations

import asyncio
import itertools
import math
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import grpc
import structlog
from google.rpc import status_pb2

from gamehall.internal.v1 import live_pb2, live_pb2_grpc
from gamehall.runtime import errors, metrics
from gamehall.runtime.errors import STATUS_TRAILER
from gamehall.runtime.interceptor import CarriedCalls

log = structlog.get_logger("gamehall.play_stream")

LINGER_SECONDS = 0.001
"""How long a side waits for more calls (answers) to share a message, when traffic is dense (`Linger`): in the
move-cost load (100 matches, about 1,000 moves/s over one stream) messages carried 1.03 calls each without it,
3.5 with it, and the platform spent about a quarter less CPU per move (setting `GAMEHALL_PLAY_STREAM_LINGER_MS`,
whose README row has the measurements)."""
BUSY_FACTOR = 10
"""Traffic is dense when the side's previous message went out less than this many lingers ago."""
CALL_FIELDS = {"Play": "request", "GetView": "get_view", "ListLegalActions": "list_legal_actions"}
"""The methods a play stream carries, and the field of `PlayCall` each goes in."""
ANSWER_FIELDS = {"request": "response", "get_view": "view", "list_legal_actions": "legal"}
"""The field of `PlayAnswer` that carries the answer of each kind of call."""
MAX_CALLS_PER_MESSAGE = 256
MAX_BYTES_PER_MESSAGE = 1 << 20
"""A message is closed at this many calls or bytes (far under any receive limit), the rest goes in the next."""


LOST = frozenset(
    {grpc.StatusCode.OK, grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED, grpc.StatusCode.UNKNOWN, None}
)
"""How a stream ends when the replica went away or stopped (or ended it, draining): its calls in flight fail
UNAVAILABLE, and fail over."""


def stream_lost(error: BaseException | None) -> bool:
    """Whether the stream ended because the replica went away, not because it refused it. Beside the codes of
    `LOST`, an INTERNAL that no gamehall server described: grpc.aio itself reports a write that raced the end of
    a two-way call as INTERNAL "Internal error from Core", in place of the UNAVAILABLE of a killed replica (about
    1 call in 300 on a kill); a replica's own INTERNAL always carries its error details."""
    if not isinstance(error, grpc.aio.AioRpcError):
        return True
    code = error.code()
    return code in LOST or (code is grpc.StatusCode.INTERNAL and errors.read_failure(error) is None)


_FINISHING: set[asyncio.Task[None]] = set()
"""Calls of ended streams still running (held here: the loop keeps only weak references to tasks)."""


class StreamLost(grpc.aio.AioRpcError):
    """UNAVAILABLE: the stream a call went on ended before its answer (the replica went away or stopped)."""


def rpc_error(
    code: grpc.StatusCode, message: str, status: bytes = b"", kind: type[grpc.aio.AioRpcError] = grpc.aio.AioRpcError
) -> grpc.aio.AioRpcError:
    """The error a unary call would have raised: `status` is its grpc-status-details-bin trailer, if any."""
    trailers = grpc.aio.Metadata((STATUS_TRAILER, status)) if status else grpc.aio.Metadata()
    return kind(code, grpc.aio.Metadata(), trailers, details=message)


def error_of(status_bytes: bytes) -> grpc.aio.AioRpcError:
    """The error of an answer that carries a google.rpc.Status."""
    status = status_pb2.Status.FromString(status_bytes)
    return rpc_error(errors.status_code(status.code), status.message, status_bytes)


class Linger:
    """Nagle's trade for one direction of a stream: before a message goes out, wait `seconds` for more to put in
    it, but only when the previous message went out less than `BUSY_FACTOR` lingers ago. So under load a message
    carries several calls, while a lone call (a player thinking between moves) goes at once; 0 never waits."""

    def __init__(
        self,
        seconds: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if seconds < 0:
            raise ValueError("a linger cannot be negative")
        self.seconds = seconds
        self._clock = clock
        self._sleep = sleep
        self._sent = -math.inf

    async def before_send(self) -> None:
        """Wait if traffic is dense; then count the message that follows as sent now."""
        if self.seconds and self._clock() - self._sent < self.seconds * BUSY_FACTOR:
            await self._sleep(self.seconds)
        self._sent = self._clock()


class PlayStream:
    """The caller's end: calls to one replica over one stream, opened on first use and again after it ends."""

    def __init__(self, stub: live_pb2_grpc.LiveMatchServiceStub, linger: float = LINGER_SECONDS) -> None:
        self._stub = stub
        self._linger = linger
        self._open: _Open | None = None
        self._ids = itertools.count(1)

    async def play(self, request: live_pb2.PlayRequest, timeout: float) -> live_pb2.PlayResponse:
        """Play's answer, or the AioRpcError a unary call would raise (DEADLINE_EXCEEDED after `timeout` s)."""
        answer: live_pb2.PlayResponse = await self.call("Play", request, timeout)
        return answer

    async def call(self, method: str, request: Any, timeout: float) -> Any:
        """`method`'s answer (one of `CALL_FIELDS`), or the AioRpcError a unary call would raise.

        A call whose stream is lost goes once more on a new stream (as gRPC retries a unary call that a closed
        connection never carried); a retry is safe either way, reads being reads and Play idempotent on its
        request id."""
        kind = CALL_FIELDS[method]
        deadline = asyncio.get_running_loop().time() + timeout
        for attempt in (1, 2):
            try:
                async with asyncio.timeout_at(deadline):
                    return await self._send(self._stream(), kind, request, deadline)
            except StreamLost:
                if attempt == 2:
                    raise
            except TimeoutError:
                raise rpc_error(grpc.StatusCode.DEADLINE_EXCEEDED, "Deadline Exceeded") from None
        raise AssertionError("unreachable")

    def _stream(self) -> _Open:
        """The open stream, or a new one in place of one that ended."""
        stream = self._open
        if stream is None or stream.ended:
            stream = self._open = _Open(self._stub, Linger(self._linger))
        return stream

    async def _send(self, stream: _Open, kind: str, request: Any, deadline: float) -> Any:
        left = deadline - asyncio.get_running_loop().time()
        call = live_pb2.PlayCall(
            id=next(self._ids),
            timeout_ms=max(1, int(left * 1000)),
            trace_id=structlog.contextvars.get_contextvars().get("trace_id", ""),
        )
        getattr(call, kind).CopyFrom(request)
        try:
            return await stream.send(call)
        finally:
            stream.forget(call.id)

    async def close(self) -> None:
        if self._open is not None:
            await self._open.close()
            self._open = None


class _Open:
    """One open stream: a writer sending what queued, a reader settling the answers."""

    def __init__(self, stub: live_pb2_grpc.LiveMatchServiceStub, linger: Linger) -> None:
        self.call = stub.PlayStream()
        self.ended = False
        self._linger = linger
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._queue: deque[live_pb2.PlayCall] = deque()
        self._queued = asyncio.Event()
        self._writer = asyncio.create_task(self._write())
        self._reader = asyncio.create_task(self._read())

    def send(self, call: live_pb2.PlayCall) -> asyncio.Future[Any]:
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[call.id] = answer
        self._queue.append(call)
        self._queued.set()
        return answer

    def forget(self, call_id: int) -> None:
        """The caller stopped waiting (answered, timed out, cancelled): a call not yet sent is not sent."""
        self._pending.pop(call_id, None)

    async def _write(self) -> None:
        try:
            while True:
                await self._queued.wait()
                await self._linger.before_send()
                self._queued.clear()
                while self._queue:
                    message, size = live_pb2.PlayStreamRequest(), 0
                    while self._queue and len(message.calls) < MAX_CALLS_PER_MESSAGE and size < MAX_BYTES_PER_MESSAGE:
                        call = self._queue.popleft()
                        if call.id in self._pending:  # its caller still waits for it
                            message.calls.append(call)
                            size += call.ByteSize()
                    if message.calls:
                        await self.call.write(message)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._end(exc)

    async def _read(self) -> None:
        error: BaseException | None = None
        try:
            async for message in self.call:
                for answer in message.answers:
                    waiting = self._pending.pop(answer.id, None)
                    if waiting is None or waiting.done():
                        continue
                    which = answer.WhichOneof("outcome")
                    if which == "error":
                        waiting.set_exception(error_of(answer.error))
                    elif which is not None:
                        waiting.set_result(getattr(answer, which))
                    else:
                        waiting.set_exception(rpc_error(grpc.StatusCode.INTERNAL, "the replica sent an empty answer"))
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            error = exc
        self._end(error)

    def _end(self, error: BaseException | None) -> None:
        """The stream is over: every call still waiting fails as a unary call would on a lost connection."""
        if self.ended:
            return
        self.ended = True
        self._writer.cancel()
        self.call.cancel()
        failure: BaseException
        if isinstance(error, grpc.aio.AioRpcError) and not stream_lost(error):
            failure = error  # the replica refused the stream itself (say, PERMISSION_DENIED): its calls get that
        else:
            reason = error.details() if isinstance(error, grpc.aio.AioRpcError) else str(error or "closed by its end")
            ended = f"the replica's play stream ended: {reason}"
            failure = rpc_error(grpc.StatusCode.UNAVAILABLE, ended, kind=StreamLost)
        if self._pending:
            log.info("play stream ended", error=str(failure), in_flight=len(self._pending))
        for waiting in self._pending.values():
            if not waiting.done():
                waiting.set_exception(failure)
        self._pending.clear()
        self._queue.clear()

    async def close(self) -> None:
        self._end(None)
        for task in (self._writer, self._reader):
            task.cancel()
        await asyncio.gather(self._writer, self._reader, return_exceptions=True)


@dataclass(frozen=True)
class Reads:
    """The reads a replica answers on its play streams, each run, metered and logged as its unary method."""

    get_view: Callable[[live_pb2.GetViewRequest], Awaitable[live_pb2.GetViewResponse]]
    get_view_calls: CarriedCalls
    list_legal_actions: Callable[[live_pb2.ListLegalActionsRequest], Awaitable[live_pb2.ListLegalActionsResponse]]
    list_legal_actions_calls: CarriedCalls


Route = tuple[Callable[[Any], Awaitable[Any]], CarriedCalls]


async def serve(
    requests: AsyncIterator[live_pb2.PlayStreamRequest],
    play: Callable[[live_pb2.PlayRequest], Awaitable[live_pb2.PlayResponse]],
    carried: CarriedCalls,
    draining: asyncio.Event | None = None,
    linger: float = LINGER_SECONDS,
    reads: Reads | None = None,
) -> AsyncIterator[live_pb2.PlayStreamResponse]:
    """The replica's end: run each call as its own task, as its unary method would run (a Play metered, logged and
    mapped by `carried`; with `reads`, the reads too),
    and send the answers that are ready together (lingering under load, as the caller's end does: `Linger`).
    The stream ends once every call read was answered,
    after the caller closed its side or when `draining` is set (the replica is stopping: the caller's calls not
    read yet fail UNAVAILABLE on its side and go to the match's next replica)."""
    answers: asyncio.Queue[live_pb2.PlayAnswer | None] = asyncio.Queue()
    running: set[asyncio.Task[None]] = set()
    reading = True
    routes: dict[str, Route] = {"request": (play, carried)}
    if reads is not None:
        routes["get_view"] = (reads.get_view, reads.get_view_calls)
        routes["list_legal_actions"] = (reads.list_legal_actions, reads.list_legal_actions_calls)

    async def answer(call: live_pb2.PlayCall) -> None:
        kind = call.WhichOneof("read") or "request"
        route = routes.get(kind)
        try:
            if route is None:  # a read this server does not answer (one serving plays only, as a bench's)
                result: Any = errors.Failure(grpc.StatusCode.UNIMPLEMENTED, f"{kind} is not answered on this stream")
            else:
                work, calls = route
                request = getattr(call, kind)
                result = await calls.run(lambda: work(request), call.trace_id, call.timeout_ms / 1000 or None)
        except Exception as exc:  # the bookkeeping itself failed (say, its log line): still, every call is answered
            log.error("play call's bookkeeping failed", exc_info=exc)
            result = errors.internal_failure(call.trace_id)
        reply = live_pb2.PlayAnswer(id=call.id)
        if isinstance(result, errors.Failure):
            reply.error = result.status().SerializeToString()
        else:
            getattr(reply, ANSWER_FIELDS[kind]).CopyFrom(result)
        answers.put_nowait(reply)

    async def read() -> None:
        nonlocal reading
        try:
            async for message in requests:
                metrics.PLAY_STREAM_CALLS.observe(len(message.calls))
                for call in message.calls:
                    task = asyncio.create_task(answer(call))
                    running.add(task)
                    task.add_done_callback(running.discard)
        except asyncio.CancelledError:
            if draining is None or not draining.is_set():
                raise
        except Exception:
            answers.put_nowait(None)
            raise
        reading = False
        while running:
            await asyncio.wait(set(running))
        answers.put_nowait(None)

    reader = asyncio.create_task(read())
    lingering = Linger(linger)
    stop_reading = None
    if draining is not None:
        stop_reading = asyncio.create_task(_when(draining, lambda: reading and reader.cancel()))
    try:
        while True:
            first = await answers.get()
            if first is None:
                break
            await lingering.before_send()
            message = live_pb2.PlayStreamResponse(answers=[first])
            last = False
            while not answers.empty() and len(message.answers) < MAX_CALLS_PER_MESSAGE:
                more = answers.get_nowait()
                if more is None:
                    last = True
                    break
                message.answers.append(more)
            yield message
            if last:
                break
        await reader
    finally:
        if stop_reading is not None:
            stop_reading.cancel()
        reader.cancel()
        # Calls still running finish on their own deadlines (their answers have nowhere to go): cut off mid-move,
        # a call could leave the log ahead of the replica's copy, which a unary call's client rarely causes.
        for task in running:
            _FINISHING.add(task)
            task.add_done_callback(_FINISHING.discard)


async def _when(event: asyncio.Event, then: Callable[[], object]) -> None:
    await event.wait()
    then()


__all__ = ["CALL_FIELDS", "MAX_CALLS_PER_MESSAGE", "PlayStream", "Reads", "error_of", "rpc_error", "serve"]
