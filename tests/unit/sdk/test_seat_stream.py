"""A seat's play stream (SDK side, fakes, no server): once the stream has dropped, an action fails at once."""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
import pytest

from gamehall_sdk import LegalAction, Unavailable
from gamehall_sdk.seat_stream import SeatStream
from gamehall_sdk.transport import Transport
from gamehall_sdk.v1 import match_pb2
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
