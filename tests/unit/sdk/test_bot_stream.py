"""The bot loop on a seat's play stream, across drops (fakes, no server): it reopens from the last version seen,
waits an outage out (failed reopenings and failed reads of the match alike), counts only failures in a row with
the match not moving, and gives up with the last error after `max_reconnects` of them."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest

from gamehall_sdk import LegalAction, LegalActions, SeatTurn, Unavailable, play_seat
from gamehall_sdk import bot as bot_module
from gamehall_sdk.bot import random_policy
from gamehall_sdk.v1 import common_pb2, match_pb2

PLAY = LegalAction("play-3", "Play 3", {"kind": "play", "card": 3})
RUNNING = match_pb2.Match(id="m1", status=match_pb2.MATCH_STATUS_RUNNING)
FINISHED = match_pb2.Match(id="m1", status=match_pb2.MATCH_STATUS_FINISHED)


def _down(what: str = "gateway restarting") -> Unavailable:
    return Unavailable(grpc.StatusCode.UNAVAILABLE, "UNAVAILABLE", what)


def _turn(version: int, *, mine: bool = False, over: bool = False) -> SeatTurn:
    legal = LegalActions(version, 0, (PLAY,)) if mine else None
    outcome = common_pb2.Outcome(reason="all cards played") if over else None
    return SeatTurn(version, 0, {}, (0,) if mine else (1,), outcome, legal=legal)


@dataclass
class FakeStream:
    """One opened play stream: yields its items in order (an exception item is the stream dropping there)."""

    items: list[SeatTurn | BaseException]
    act_error: BaseException | None = None
    acted: list[int] = field(default_factory=list)

    async def __aenter__(self) -> FakeStream:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def __aiter__(self) -> AsyncIterator[SeatTurn]:
        for item in self.items:
            if isinstance(item, BaseException):
                raise item
            yield item

    async def act(self, action: LegalAction, *, expected_version: int | None = None) -> None:
        self.acted.append(int(expected_version or 0))
        if self.act_error is not None:
            raise self.act_error


@dataclass
class FakeMatches:
    """`play_stream` hands out the scripted streams in order (the last one again once they run out); `get`
    answers from `reads` in order (an exception item fails that read), then `RUNNING`."""

    streams: list[FakeStream]
    reads: list[match_pb2.Match | BaseException] = field(default_factory=list)
    opened_from: list[int] = field(default_factory=list)

    def play_stream(self, match_id: str, seat: int | None = None, *, from_version: int = 0) -> FakeStream:
        self.opened_from.append(from_version)
        return self.streams.pop(0) if len(self.streams) > 1 else self.streams[0]

    async def get(self, match_id: str) -> match_pb2.Match:
        read = self.reads.pop(0) if self.reads else RUNNING
        if isinstance(read, BaseException):
            raise read
        return read


@dataclass
class FakeHall:
    matches: FakeMatches


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot_module, "RECONNECT_DELAY", 0.0)


async def _play(hall: FakeHall, max_reconnects: int = 5) -> Any:
    return await play_seat(hall, "m1", 0, random_policy(random.Random(0)), max_reconnects=max_reconnects)  # type: ignore[arg-type]


async def test_a_dropped_action_reopens_from_the_version_seen_and_plays_the_owed_turn_again() -> None:
    killed = FakeStream([_turn(1), _turn(2, mine=True)], act_error=_down())  # the action died with the gateway
    resumed = FakeStream([_turn(2, mine=True), _turn(3), _turn(4, over=True)])
    hall = FakeHall(FakeMatches([killed, resumed], reads=[FINISHED]))
    assert (await _play(hall)).status == match_pb2.MATCH_STATUS_FINISHED
    assert hall.matches.opened_from == [0, 2]
    assert killed.acted == [2] and resumed.acted == [2]


async def test_an_outage_longer_than_a_few_quick_failures_is_waited_out() -> None:
    # the stream drops, 3 reopenings fail, a 4th ends at once and the read of the match after it fails (5 failures
    # in a row while the gateway restarts), then it is back
    reopen_fails = [FakeStream([_down()]) for _ in range(3)]
    streams = [FakeStream([_turn(1), _down("Socket closed")]), *reopen_fails, FakeStream([])]
    streams.append(FakeStream([_turn(2, over=True)]))
    hall = FakeHall(FakeMatches(streams, reads=[_down(), FINISHED]))
    assert (await _play(hall)).status == match_pb2.MATCH_STATUS_FINISHED
    assert hall.matches.opened_from == [0, 1, 1, 1, 1, 1]


async def test_only_failures_in_a_row_with_the_match_not_moving_count() -> None:
    # five outages of four failures each, the match moving between them: never five failures in a row
    streams: list[FakeStream] = []
    for version in range(5):
        streams.append(FakeStream([_turn(version), _down()]))
        streams += [FakeStream([_down()]) for _ in range(3)]
    streams.append(FakeStream([_turn(5, over=True)]))
    hall = FakeHall(FakeMatches(streams, reads=[FINISHED]))
    assert (await _play(hall, max_reconnects=4)).status == match_pb2.MATCH_STATUS_FINISHED


async def test_gives_up_with_the_last_error_after_max_reconnects_failures_in_a_row() -> None:
    hall = FakeHall(FakeMatches([FakeStream([_turn(3), _down("first")]), FakeStream([_down("still down")])]))
    with pytest.raises(Unavailable, match="still down"):
        await _play(hall, max_reconnects=3)
    assert hall.matches.opened_from == [0, 3, 3, 3]


async def test_an_owed_turn_that_keeps_failing_is_not_progress() -> None:
    # the gateway gives the owed turn back each time, but the action always fails: the match does not move
    hall = FakeHall(FakeMatches([FakeStream([_turn(2, mine=True)], act_error=_down("owner away"))]))
    with pytest.raises(Unavailable, match="owner away"):
        await _play(hall, max_reconnects=3)
    assert hall.matches.opened_from == [0, 2, 2, 2]

