"""Play calls multiplexed on one stream (gamehall.runtime.play_stream), over real sockets and the real harness: many
calls share a message (under load, calls a moment apart too: the linger), each keeps a unary call's answer, error
details and deadline, a lost stream fails its calls UNAVAILABLE (and the next call opens a new one), a stopping
replica answers what it read and ends the stream; the reads a move needs go on the stream too, from the first."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest
from prometheus_client import REGISTRY

from gamehall.engine import IllegalAction
from gamehall.internal.v1 import live_pb2, live_pb2_grpc
from gamehall.runtime import play_stream, service
from gamehall.runtime.channels import KEEPALIVE_MS
from gamehall.runtime.errors import ClientError, internal_failure, read_failure
from gamehall.runtime.interceptor import CarriedCalls
from gamehall.runtime.play_stream import PlayStream, error_of, rpc_error, stream_lost
from gamehall.runtime.service import ServiceApp
from gamehall.runtime.settings import Settings
from gamehall_sdk.v1 import common_pb2, match_pb2

SERVICE = "play-stream-test"
SERVICE_PATH = "/gamehall.internal.v1.LiveMatchService"
PLAY = f"{SERVICE_PATH}/Play"


class Replica(live_pb2_grpc.LiveMatchServiceServicer):
    """Play by the match id: `ok-<n>` answers version n, `illegal` and `boom` fail, `hold` waits for `release`;
    GetView and ListLegalActions answer version n of `ok-<n>` and NOT_FOUND otherwise."""

    def __init__(
        self,
        draining: asyncio.Event | None = None,
        *,
        streams_to_cut: int = 0,
    ) -> None:
        self.carried = CarriedCalls(SERVICE, PLAY)
        self.draining = draining
        self.release = asyncio.Event()
        self.held = 0
        self.streams_to_cut = streams_to_cut
        """This many streams are cut (UNAVAILABLE) once their first message is read, as a lost connection would."""
        self.reads = play_stream.Reads(
            self.view,
            CarriedCalls(SERVICE, f"{SERVICE_PATH}/GetView"),
            self.legal,
            CarriedCalls(SERVICE, f"{SERVICE_PATH}/ListLegalActions"),
        )

    @staticmethod
    def _version(match_id: str) -> int:
        kind, _, n = match_id.partition("-")
        if kind != "ok":
            raise ClientError(grpc.StatusCode.NOT_FOUND, f"no match {match_id}")
        return int(n or 0)

    async def view(self, request: live_pb2.GetViewRequest) -> live_pb2.GetViewResponse:
        return live_pb2.GetViewResponse(view=match_pb2.WatchMatchResponse(version=self._version(request.match_id)))

    async def legal(self, request: live_pb2.ListLegalActionsRequest) -> live_pb2.ListLegalActionsResponse:
        version = self._version(request.match_id)
        return live_pb2.ListLegalActionsResponse(result=match_pb2.ListLegalActionsResponse(version=version))

    async def play(self, request: live_pb2.PlayRequest) -> live_pb2.PlayResponse:
        kind, _, n = request.match_id.partition("-")
        if kind == "illegal":
            raise IllegalAction("that card is not in your hand")
        if kind == "boom":
            raise RuntimeError("secret internal detail")
        if kind == "hold":
            self.held += 1
            await self.release.wait()
        return live_pb2.PlayResponse(result=match_pb2.SubmitActionResponse(version=int(n or 0)))

    def PlayStream(self, requests: Any, context: Any) -> Any:
        if self.streams_to_cut:
            self.streams_to_cut -= 1
            return self._cut(requests, context)
        return play_stream.serve(requests, self.play, self.carried, self.draining, reads=self.reads)

    async def _cut(self, requests: Any, context: Any) -> AsyncIterator[live_pb2.PlayStreamResponse]:
        async for _ in requests:
            await context.abort(grpc.StatusCode.UNAVAILABLE, "connection reset")
        yield live_pb2.PlayStreamResponse()  # never reached: makes this an async generator


async def _serve(app: ServiceApp, replica: Replica) -> int:
    add = live_pb2_grpc.add_LiveMatchServiceServicer_to_server
    app.add_servicer(add, replica, "gamehall.internal.v1.LiveMatchService")
    return await app.start(metrics=False)


@contextlib.asynccontextmanager
async def _connected(
    replica: Replica | None = None, *, linger: float = play_stream.LINGER_SECONDS, grace: float = 2.0
) -> AsyncIterator[tuple[ServiceApp, Replica, PlayStream]]:
    """A served replica (a stopping one drains its streams) and a caller's play stream to it over a real socket."""
    app = ServiceApp(Settings(service=SERVICE, grpc_port=0, grace_seconds=grace), diagnostics=False)
    replica = replica if replica is not None else Replica(app.draining)
    port = await _serve(app, replica)
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
    plays = PlayStream(live_pb2_grpc.LiveMatchServiceStub(channel), linger=linger)
    try:
        yield app, replica, plays
    finally:
        await plays.close()
        await channel.close()
        await app.stop()


@pytest.fixture
async def served() -> AsyncIterator[tuple[ServiceApp, Replica, PlayStream]]:
    async with _connected() as connected:
        yield connected


def _request(match_id: str) -> live_pb2.PlayRequest:
    return live_pb2.PlayRequest(match_id=match_id, request_id="r", action_id="a")


def _calls_per_message() -> tuple[float, float]:
    name = "gamehall_play_stream_calls_per_message"
    return REGISTRY.get_sample_value(f"{name}_count") or 0.0, REGISTRY.get_sample_value(f"{name}_sum") or 0.0


async def test_concurrent_calls_share_messages_and_each_gets_its_own_answer(
    served: tuple[ServiceApp, Replica, PlayStream],
) -> None:
    _, _, plays = served
    messages_before, calls_before = _calls_per_message()
    answers = await asyncio.gather(*(plays.play(_request(f"ok-{n}"), 5) for n in range(50)))
    assert [a.result.version for a in answers] == list(range(50))
    messages, calls = _calls_per_message()
    assert calls - calls_before == 50
    assert messages - messages_before < 50, "the calls queued together went in fewer messages than calls"


async def test_an_error_keeps_its_code_message_and_details(served: tuple[ServiceApp, Replica, PlayStream]) -> None:
    _, _, plays = served
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await plays.play(_request("illegal"), 5)
    assert refused.value.code() is grpc.StatusCode.FAILED_PRECONDITION
    assert refused.value.details() == "that card is not in your hand"
    failure = read_failure(refused.value)
    assert failure is not None and failure.reason == common_pb2.ERROR_REASON_ILLEGAL_ACTION
    with pytest.raises(grpc.aio.AioRpcError) as broken:
        await plays.play(_request("boom"), 5)
    assert broken.value.code() is grpc.StatusCode.INTERNAL
    assert "secret" not in (broken.value.details() or "") and "trace id" in (broken.value.details() or "")
    assert (await plays.play(_request("ok-7"), 5)).result.version == 7, "the stream outlives its calls' errors"


async def test_a_call_past_its_deadline_is_deadline_exceeded_and_the_stream_goes_on(
    served: tuple[ServiceApp, Replica, PlayStream],
) -> None:
    _, _, plays = served
    with pytest.raises(grpc.aio.AioRpcError) as late:
        await plays.play(_request("hold"), 0.2)
    assert late.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED
    assert read_failure(late.value) is None, "no answer from the replica: the caller's failover may try the next"
    assert (await plays.play(_request("ok-3"), 5)).result.version == 3


async def test_a_lost_stream_fails_its_calls_unavailable_once_retried_and_the_next_call_opens_another() -> None:
    app = ServiceApp(Settings(service=SERVICE, grpc_port=0, grace_seconds=0.1), diagnostics=False)
    port = await _serve(app, Replica())
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
    plays = PlayStream(live_pb2_grpc.LiveMatchServiceStub(channel))
    try:
        assert (await plays.play(_request("ok-1"), 5)).result.version == 1
        held = asyncio.create_task(plays.play(_request("hold"), 10))
        await asyncio.sleep(0.2)
        await app.stop()  # the call in flight outlasts the grace: it is cut off
        with pytest.raises(grpc.aio.AioRpcError) as lost:
            await asyncio.wait_for(held, 5)
        assert lost.value.code() is grpc.StatusCode.UNAVAILABLE
        assert read_failure(lost.value) is None, "no answer from the replica: the caller's failover may try the next"
        again = ServiceApp(Settings(service=SERVICE, grpc_port=port, grace_seconds=0.1), diagnostics=False)
        await _serve(again, Replica())
        try:
            await asyncio.wait_for(channel.channel_ready(), 10)  # past the channel's reconnect backoff
            assert (await plays.play(_request("ok-2"), 5)).result.version == 2
        finally:
            await again.stop()
    finally:
        await plays.close()
        await channel.close()


async def test_a_stopping_replica_answers_the_calls_it_read_then_ends_the_stream(
    served: tuple[ServiceApp, Replica, PlayStream],
) -> None:
    app, replica, plays = served
    held = asyncio.create_task(plays.play(_request("hold-9"), 10))
    while replica.held == 0:
        await asyncio.sleep(0.01)
    stopping = asyncio.create_task(app.stop())
    await asyncio.sleep(0.2)
    replica.release.set()
    assert (await asyncio.wait_for(held, 5)).result.version == 9, "a call the replica read is answered"
    await asyncio.wait_for(stopping, 1.0)  # the stream ended with its last answer, not at the 2 s grace's end
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await plays.play(_request("ok-1"), 5)
    assert refused.value.code() is grpc.StatusCode.UNAVAILABLE, "a stopped replica takes no new call"


async def test_a_call_whose_stream_is_cut_goes_once_more_on_a_new_stream() -> None:
    async with _connected(Replica(streams_to_cut=1)) as (_, _, plays):
        assert (await plays.play(_request("ok-6"), 5)).result.version == 6, "the retry on a new stream answered it"


async def test_an_idle_stream_outlives_the_channels_keepalive_pings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness's servers accept the platform channels' pings on an idle stream (gRPC's default answers them
    with GOAWAY "too many pings"), shown at a twentieth of the real intervals."""
    assert service.MIN_PING_INTERVAL_MS < KEEPALIVE_MS
    scale = 20
    monkeypatch.setattr(service, "MIN_PING_INTERVAL_MS", service.MIN_PING_INTERVAL_MS // scale)
    app = ServiceApp(Settings(service=SERVICE, grpc_port=0), diagnostics=False)
    port = await _serve(app, Replica())
    options = [("grpc.keepalive_time_ms", KEEPALIVE_MS // scale), ("grpc.keepalive_timeout_ms", KEEPALIVE_MS // scale)]
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=options)
    plays = PlayStream(live_pb2_grpc.LiveMatchServiceStub(channel))
    try:
        assert (await plays.play(_request("ok-1"), 5)).result.version == 1
        await asyncio.sleep(5 * KEEPALIVE_MS / scale / 1000)  # five pings with no data between
        opened = plays._open
        assert (await plays.play(_request("ok-2"), 5)).result.version == 2
        assert plays._open is opened, "the same stream carried it: the server did not close the connection"
    finally:
        await plays.close()
        await channel.close()
        await app.stop()


async def test_a_call_is_answered_even_when_its_bookkeeping_fails(
    served: tuple[ServiceApp, Replica, PlayStream], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, replica, plays = served

    async def broken(work: Any, trace_id: str, timeout: float | None) -> Any:
        raise BrokenPipeError("the log's pipe is gone")

    monkeypatch.setattr(replica.carried, "run", broken)
    with pytest.raises(grpc.aio.AioRpcError) as failed:
        await plays.play(_request("ok-1"), 5)
    assert failed.value.code() is grpc.StatusCode.INTERNAL, "answered at once, not left to its deadline"


async def test_a_linger_holds_a_message_only_while_traffic_is_dense() -> None:
    now = [100.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    linger = play_stream.Linger(0.001, clock=lambda: now[0], sleep=sleep)
    await linger.before_send()
    assert slept == [], "the first message goes at once"
    now[0] += 0.004
    await linger.before_send()
    assert slept == [0.001], "a message 4 ms after the last waits for company"
    now[0] += 0.001 * play_stream.BUSY_FACTOR + 0.001
    await linger.before_send()
    assert slept == [0.001], "a message after a quiet spell goes at once"
    never = play_stream.Linger(0.0, clock=lambda: now[0], sleep=sleep)
    await never.before_send()
    await never.before_send()
    assert slept == [0.001], "a linger of 0 never waits"
    with pytest.raises(ValueError):
        play_stream.Linger(-0.001)


async def test_calls_that_come_a_moment_apart_under_load_share_a_message() -> None:
    """Without the linger each of these calls, a few milliseconds apart, would go in a message of its own."""
    async with _connected(linger=0.2) as (_, _, plays):
        await plays.play(_request("ok-1"), 5)  # traffic: the next message lingers
        messages_before, calls_before = _calls_per_message()
        first = asyncio.create_task(plays.play(_request("ok-2"), 5))
        await asyncio.sleep(0.01)
        second = asyncio.create_task(plays.play(_request("ok-3"), 5))
        assert [(await first).result.version, (await second).result.version] == [2, 3]
        messages, calls = _calls_per_message()
        assert (messages - messages_before, calls - calls_before) == (1, 2)


async def test_reads_go_on_the_stream_from_the_first(served: tuple[ServiceApp, Replica, PlayStream]) -> None:
    _, _, plays = served
    first = await plays.call("GetView", live_pb2.GetViewRequest(match_id="ok-3"), 5)
    assert first.view.version == 3
    views, legal = await asyncio.gather(
        asyncio.gather(*(plays.call("GetView", live_pb2.GetViewRequest(match_id=f"ok-{n}"), 5) for n in range(20))),
        plays.call("ListLegalActions", live_pb2.ListLegalActionsRequest(match_id="ok-8"), 5),
    )
    assert [v.view.version for v in views] == list(range(20)) and legal.result.version == 8
    with pytest.raises(grpc.aio.AioRpcError) as missing:
        await plays.call("GetView", live_pb2.GetViewRequest(match_id="gone"), 5)
    assert missing.value.code() is grpc.StatusCode.NOT_FOUND and missing.value.details() == "no match gone"
    assert (await plays.play(_request("ok-2"), 5)).result.version == 2  # and plays beside them


async def test_a_read_a_server_does_not_answer_is_unimplemented_and_its_plays_go_on() -> None:
    """A server of plays only (a bench's floor owner) answers a read UNIMPLEMENTED, call by call."""
    replica = Replica()
    replica.reads = None  # type: ignore[assignment]
    async with _connected(replica) as (_, _, plays):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await plays.call("GetView", live_pb2.GetViewRequest(match_id="ok-1"), 5)
        assert refused.value.code() is grpc.StatusCode.UNIMPLEMENTED
        assert (await plays.play(_request("ok-2"), 5)).result.version == 2




def test_an_internal_no_server_described_is_a_lost_stream_and_a_replica_s_own_is_its_answer() -> None:
    """grpc.aio reports a write racing the end of a killed replica's stream as INTERNAL "Internal error from Core",
    without details: its calls fail over (UNAVAILABLE). A replica's own INTERNAL, and a refusal, stay what they are."""
    core = rpc_error(grpc.StatusCode.INTERNAL, "Internal error from Core")
    replica_bug = error_of(internal_failure("trace-1").status().SerializeToString())
    assert stream_lost(core) and stream_lost(rpc_error(grpc.StatusCode.UNAVAILABLE, "gone")) and stream_lost(None)
    assert not stream_lost(replica_bug) and not stream_lost(rpc_error(grpc.StatusCode.PERMISSION_DENIED, "no"))
