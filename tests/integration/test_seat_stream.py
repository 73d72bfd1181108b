"""A seat's play stream (MatchService.PlaySeat, issue 39) on a local platform: two SDK bots play high-card to the
end on their streams (a move is one round trip: the update carries the legal actions, the action goes on the
same stream); refusals come back by request id with their named error and the stream goes on; a retried
request id is replayed; a stream reopened from a version resumes without losing or repeating a step."""

from __future__ import annotations

import asyncio
import os
import random
import uuid
from collections.abc import Iterator

import grpc
import pytest

from gamehall.launcher.platform import Platform
from gamehall_sdk import Gamehall, IllegalAction, SeatTurn, VersionConflict, play_seat, random_policy
from gamehall_sdk.v1 import match_pb2, match_pb2_grpc
from tests.support.processes import repo_env

pytestmark = pytest.mark.integration
GAME = "high-card"
PASSWORD = "a long passphrase 42"


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    saved = dict(os.environ)
    os.environ.update(repo_env())
    platform = Platform(
        data_dir=tmp_path_factory.mktemp("seat-stream"),
        games=[GAME],
        fixed_ports=False,
        extra_env={"GAMEHALL_AUTH_REGISTER_PER_IP": "1000/minute"},
    )
    try:
        platform.start()
        yield platform.service("gateway").address
    finally:
        platform.stop()
        os.environ.clear()
        os.environ.update(saved)


async def _player(address: str) -> Gamehall:
    hall = Gamehall.connect(address)
    await hall.register(f"stream-{uuid.uuid4().hex[:10]}", PASSWORD)
    return hall


async def _match(address: str) -> tuple[Gamehall, Gamehall, str]:
    alice, bob = await _player(address), await _player(address)
    match = await alice.matches.create(GAME, join_seat=0)
    await bob.matches.join(match.id)
    return alice, bob, match.id


async def _first_turn(stream: object) -> SeatTurn:
    async for turn in stream:  # type: ignore[attr-defined]
        return turn
    raise AssertionError("the stream ended without an update")


def test_two_bots_play_to_the_end_on_their_streams(gateway: str) -> None:
    async def scenario() -> None:
        alice, bob, match_id = await _match(gateway)
        try:
            finals = await asyncio.wait_for(
                asyncio.gather(
                    play_seat(alice, match_id, 0, random_policy(random.Random(1))),  # the stream is the default
                    play_seat(bob, match_id, 1, random_policy(random.Random(2))),
                ),
                timeout=120,
            )
            assert {f.status for f in finals} == {match_pb2.MATCH_STATUS_FINISHED}
            replay = await alice.matches.replay(match_id)
            assert [s.version for s in replay.steps] == list(range(1, 11))
        finally:
            await alice.close()
            await bob.close()

    asyncio.run(scenario())


def test_refusals_come_back_by_request_id_and_the_stream_goes_on(gateway: str) -> None:
    async def scenario() -> None:
        alice, bob, match_id = await _match(gateway)
        try:
            async with alice.matches.play_stream(match_id, 0) as stream:
                turn = await _first_turn(stream)
                assert turn.version == 0 and turn.legal is not None and turn.legal.version == 0
                missing = next(card for card in range(1, 13) if card not in turn.data["hand"])
                with pytest.raises(IllegalAction) as illegal:
                    await stream.act({"kind": "play", "card": missing})
                assert illegal.value.reason == "ILLEGAL_ACTION" and illegal.value.trace_id
                with pytest.raises(VersionConflict):
                    await stream.act(turn.legal[0], expected_version=5)
                played = await stream.act(turn.legal[0], expected_version=0, request_id="same-id")
                again = await stream.act(turn.legal[0], request_id="same-id")
                assert (played.version, again.version, played.replayed, again.replayed) == (1, 1, False, True)
                after = await _first_turn(stream)
                assert after.version == 1 and after.legal is None, "seat 0 waits for seat 1 now"
        finally:
            await alice.close()
            await bob.close()

    asyncio.run(scenario())


def test_a_reopened_stream_resumes_from_its_version(gateway: str) -> None:
    async def scenario() -> None:
        alice, bob, match_id = await _match(gateway)
        try:
            async with alice.matches.play_stream(match_id, 0) as stream:
                turn = await _first_turn(stream)
                assert turn.legal is not None
                await stream.act(turn.legal[0], expected_version=turn.version)
                seen = (await _first_turn(stream)).version
            bob_turn = await bob.matches.legal(match_id, 1)
            await bob.matches.submit(match_id, 1, bob_turn[0], expected_version=bob_turn.version)  # while away
            async with alice.matches.play_stream(match_id, 0, from_version=seen) as resumed:
                nxt = await _first_turn(resumed)
            assert nxt.version == seen + 1 and nxt.legal is not None, "the step missed, once, with the legal actions"
        finally:
            await alice.close()
            await bob.close()

    asyncio.run(scenario())


def test_a_stream_must_open_first(gateway: str) -> None:
    async def scenario() -> None:
        alice = await _player(gateway)
        try:
            stub = match_pb2_grpc.MatchServiceStub(alice.channel)
            call = stub.PlaySeat(
                iter([match_pb2.PlaySeatRequest(action=match_pb2.SeatAction(action_id="x"))]),
                metadata=alice.transport.metadata(),
            )
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                async for _ in call:
                    pass
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        finally:
            await alice.close()

    asyncio.run(scenario())


def test_a_reopened_stream_gives_back_the_turn_the_seat_still_owes(gateway: str) -> None:
    """A seat whose stream dropped after it saw its turn (its action lost with the stream, as when the gateway is
    killed) reopens from that version: the turn comes again, with the legal actions, or it would wait forever."""

    async def scenario() -> None:
        alice, bob, match_id = await _match(gateway)
        try:
            first = await alice.matches.legal(match_id, 0)
            await alice.matches.submit(match_id, 0, first[0], expected_version=first.version)
            second = await bob.matches.legal(match_id, 1)
            await bob.matches.submit(match_id, 1, second[0], expected_version=second.version)
            async with alice.matches.play_stream(match_id, 0) as stream:
                owed = await _first_turn(stream)
            assert owed.version == 2 and owed.legal is not None, "alice must act at version 2"
            async with alice.matches.play_stream(match_id, 0, from_version=owed.version) as resumed:
                again = await asyncio.wait_for(_first_turn(resumed), 4)
                assert again.version == owed.version and again.legal is not None
                assert [a.id for a in again.legal] == [a.id for a in owed.legal]
                played = await resumed.act(again.legal[0], expected_version=again.version)
                assert played.version == owed.version + 1
                nxt = await asyncio.wait_for(_first_turn(resumed), 4)
                assert nxt.version == owed.version + 1 and nxt.legal is None, "once: the next step is bob's"
        finally:
            await alice.close()
            await bob.close()

    asyncio.run(scenario())
