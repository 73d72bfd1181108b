"""A seat's play stream (SDK side, fakes, no server): once the stream has dropped, an action fails at once; a
broken write is a drop."""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
import pytest

from gamehall_sdk import InternalError, LegalAction, Unavailable
from gamehall_sdk.seat_stream import SeatStream
from gamehall_sdk.transport import Transport
from gamehall_sdk.v1 import common_pb2, match_pb2
from tests.unit.sdk.fakes import rpc_error

PLAY = LegalAction("play-3", "Play 3", {"kind": "play", "card": 3})


class DroppedCall:
    """A PlaySeat call whose connection is gone: reading it fails UNAVAILABLE (the gateway was killed)."""

    def __aiter__(self) -> DroppedCall:
        return self

    async def __anext__(self) -> match_pb2.PlaySeatResponse:
        raise rpc_error(grpc.StatusCode.UNAVAILABLE, message="Socket closed")

    def cancel(self) -> bool:
        return True


class DroppingStub:
    def PlaySeat(self, requests: Any, *, metadata: Any = None) -> DroppedCall:
        return DroppedCall()


async def test_an_action_on_a_stream_that_already_dropped_fails_at_once() -> None:
    """The policy decided while the stream died: the action fails as an action in flight would, it does not
    wait forever for an answer no stream will carry."""
    async with SeatStream(Transport(), DroppingStub(), "m1", 0) as stream:
        with pytest.raises(Unavailable):
            async for _ in stream:
                pass
        with pytest.raises(Unavailable, match="Socket closed"):
            await asyncio.wait_for(stream.act(PLAY, expected_version=2), 2)


class FailedCall(DroppedCall):
    """A PlaySeat call that ends with `error`."""

    def __init__(self, error: grpc.RpcError) -> None:
        self.error = error

    async def __anext__(self) -> match_pb2.PlaySeatResponse:
        raise self.error


class FailingStub:
    def __init__(self, error: grpc.RpcError) -> None:
        self.error = error

    def PlaySeat(self, requests: Any, *, metadata: Any = None) -> FailedCall:
        return FailedCall(self.error)


async def _failure(error: grpc.RpcError) -> BaseException:
    async with SeatStream(Transport(), FailingStub(error), "m1", 0) as stream:
        try:
            async for _ in stream:
                pass
        except Exception as exc:
            return exc
    raise AssertionError("the stream did not fail")


async def test_a_write_that_broke_the_stream_is_a_drop_not_an_internal_error() -> None:
    """gRPC's asyncio client turns a write racing the call's end (the gateway ending the stream UNAVAILABLE as an
    action goes out) into INTERNAL "Internal error from Core", with no details from the server: a drop."""
    broken = await _failure(rpc_error(grpc.StatusCode.INTERNAL, message="Internal error from Core"))
    assert isinstance(broken, Unavailable) and "Internal error from Core" in str(broken)
    bug = await _failure(rpc_error(grpc.StatusCode.INTERNAL, common_pb2.ERROR_REASON_INTERNAL, "bug", "t1"))
    assert isinstance(bug, InternalError) and bug.trace_id == "t1", "the platform's own INTERNAL stays one"
