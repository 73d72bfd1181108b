"""One account holds at most 64 open watch streams per gateway, of every kind together (issue 20, finding 7)."""

from __future__ import annotations

import asyncio

import grpc
import pytest

from gamehall_sdk.v1 import match_pb2, match_pb2_grpc, matchmaking_pb2_grpc
from gamehall_sdk.v1 import matchmaking_pb2 as mpb
from tests.e2e.conftest import Running

LIMIT = 64


async def _opened(stream: grpc.aio.UnaryStreamCall) -> grpc.aio.UnaryStreamCall:
    await stream.read()  # the first message: the stream holds its slot
    return stream


async def _refused(stream: grpc.aio.UnaryStreamCall) -> grpc.StatusCode:
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stream.read()
    return refused.value.code()  # type: ignore[no-any-return]


def test_a_65th_watch_stream_is_refused_until_one_closes(platform: Running) -> None:
    alice, bob = platform.player(), platform.player()
    match = alice.create("high-card", join_seat=0, public=True)
    bob.join(match.id)
    watcher = platform.player()

    async def run() -> None:
        async with grpc.aio.insecure_channel(platform.address) as channel:
            matches = match_pb2_grpc.MatchServiceStub(channel)
            tickets = matchmaking_pb2_grpc.MatchmakingServiceStub(channel)
            watch = match_pb2.WatchMatchRequest(match_id=match.id)
            md = watcher.metadata
            streams = [await _opened(matches.WatchMatch(watch, metadata=md)) for _ in range(LIMIT)]
            assert await _refused(matches.WatchMatch(watch, metadata=md)) == grpc.StatusCode.RESOURCE_EXHAUSTED
            ticket_watch = tickets.WatchTickets(mpb.WatchTicketsRequest(), metadata=md)
            assert await _refused(ticket_watch) == grpc.StatusCode.RESOURCE_EXHAUSTED  # one budget for every kind
            other = await _opened(matches.WatchMatch(watch, metadata=alice.metadata))  # another account is unaffected
            streams[0].cancel()
            await asyncio.sleep(0.5)  # the gateway sees the cancel and frees the slot
            streams[0] = await _opened(matches.WatchMatch(watch, metadata=md))
            for stream in [*streams, other]:
                stream.cancel()

    asyncio.run(run())
