"""The Python SDK against the real platform: two bots play a match to the end concurrently, errors
come back named, and matchmaking is followed through the ticket stream."""

from __future__ import annotations

import asyncio
import contextlib
import random
import uuid

import pytest

from gamehall.sdk import (
    Gamehall,
    IllegalAction,
    InvalidRequest,
    NotFound,
    Unauthenticated,
    VersionConflict,
    play_seat,
    random_policy,
)
from gamehall.v1 import match_pb2
from gamehall.v1 import matchmaking_pb2 as mm
from tests.e2e.client import PASSWORD
from tests.e2e.conftest import Running

GAME = "high-card"


def _name() -> str:
    return f"sdk-{uuid.uuid4().hex[:10]}"


async def _player(platform: Running) -> Gamehall:
    hall = Gamehall.connect(platform.address)
    await hall.register(_name(), PASSWORD)
    return hall


async def test_two_sdk_bots_play_a_match_to_the_end(platform: Running) -> None:
    alice, bob = await _player(platform), await _player(platform)
    try:
        assert alice.account is not None and (await alice.whoami()).id == alice.account.id
        match = await alice.matches.create(GAME, join_seat=0)
        assert match.status == match_pb2.MATCH_STATUS_OPEN
        joined = await bob.matches.join(match.id)
        assert joined.seat == 1 and joined.match.status == match_pb2.MATCH_STATUS_RUNNING

        finals = await asyncio.wait_for(
            asyncio.gather(
                play_seat(alice, match.id, 0, random_policy(random.Random(1))),
                play_seat(bob, match.id, 1, random_policy(random.Random(2))),
            ),
            timeout=120,
        )

        for final in finals:
            assert final.status == match_pb2.MATCH_STATUS_FINISHED
            assert sorted(final.outcome.ranks) in ([1, 2], [1, 1]) and final.outcome.reason == "all cards played"
        replay = await alice.matches.replay(match.id)
        assert replay.complete and len(replay.steps) == finals[0].version == 10  # 5 rounds, both seats
        assert [s.version for s in replay.steps] == list(range(1, 11))
        assert sorted(s.seat for s in replay.steps) == [0] * 5 + [1] * 5
        assert all(s.action.id.startswith("play") or "card" in s.action.action_json for s in replay.steps)
        view = await alice.matches.view(match.id, 0)
        assert view.finished and view.version == 10 and view.data["hand"] == []
        assert len(view.data["revealed"][0]) == 5
    finally:
        await alice.close()
        await bob.close()


async def test_errors_come_back_named(platform: Running) -> None:
    alice, bob = await _player(platform), await _player(platform)
    anonymous = Gamehall.connect(platform.address)
    try:
        with pytest.raises(Unauthenticated) as unauthenticated:
            await anonymous.matches.list()
        assert unauthenticated.value.message and unauthenticated.value.__cause__ is not None
        with pytest.raises(Unauthenticated):
            await anonymous.whoami()

        match = await alice.matches.create(GAME, join_seat=0)
        await bob.matches.join(match.id)
        hand = (await alice.matches.view(match.id, 0)).data["hand"]
        missing = next(card for card in range(1, 13) if card not in hand)
        with pytest.raises(IllegalAction) as illegal:
            await alice.matches.submit(match.id, 0, {"kind": "play", "card": missing})
        assert f"card {missing}" in illegal.value.message

        legal = await alice.matches.legal(match.id, 0)
        assert legal.version == 0 and {a.kind for a in legal} == {"play", "resign"}
        with pytest.raises(VersionConflict):
            await alice.matches.submit(match.id, 0, legal[0], expected_version=legal.version + 1)
        with pytest.raises(InvalidRequest):
            await alice.matches.submit(match.id, 0, {"kind": "no-such-kind"})
        with pytest.raises(NotFound):
            await alice.matches.get("no-such-match")

        played = await alice.matches.submit(match.id, 0, legal[0], expected_version=0, request_id="same-id")
        again = await alice.matches.submit(match.id, 0, legal[0], request_id="same-id")
        assert played.version == again.version == 1 and again.replayed and not played.replayed
    finally:
        await asyncio.gather(alice.close(), bob.close(), anonymous.close())


async def _matched_through_the_stream(hall: Gamehall, ticket_id: str) -> mm.Ticket:
    async with contextlib.aclosing(hall.matchmaking.watch_tickets(GAME, timeout=90)) as tickets:
        async for ticket in tickets:
            if ticket.id == ticket_id and ticket.status == mm.TICKET_STATUS_MATCHED:
                return ticket
    raise AssertionError("the ticket stream ended before the ticket was matched")


async def test_matchmaking_through_watch_tickets(platform: Running) -> None:
    alice, bob = await _player(platform), await _player(platform)
    try:
        pool = f"sdk-{uuid.uuid4().hex}"  # only these two tickets meet
        first = await alice.matchmaking.enqueue(GAME, no_bots=True, pool=pool)
        assert first.status == mm.TICKET_STATUS_QUEUED
        watching = asyncio.create_task(_matched_through_the_stream(alice, first.id))
        second = await bob.matchmaking.enqueue(GAME, no_bots=True, pool=pool)
        seen = await asyncio.wait_for(watching, timeout=90)
        theirs = await asyncio.wait_for(_matched_through_the_stream(bob, second.id), timeout=90)

        assert seen.match_id and seen.match_id == theirs.match_id
        assert (await alice.matchmaking.ticket(first.id)).status == mm.TICKET_STATUS_MATCHED
        seats = {seen.seats[0], theirs.seats[0]}
        assert seats == {0, 1}
        await asyncio.gather(
            alice.matches.join(seen.match_id, seen.seats[0]), bob.matches.join(theirs.match_id, theirs.seats[0])
        )
        match = await alice.matches.get(seen.match_id)
        assert match.status == match_pb2.MATCH_STATUS_RUNNING and match.game == GAME
        assert {s.account_id for s in match.seats} == {alice.account.id, bob.account.id}  # type: ignore[union-attr]
        rating = await alice.matchmaking.rating(GAME)
        assert alice.account is not None and rating.account_id == alice.account.id
    finally:
        await alice.close()
        await bob.close()
