"""A seat's play stream across a gateway kill -9 (the soak's fault): two SDK bots with the SDK's default settings
play high-card to the end although the gateway dies while one of them is deciding its move. The seat that was
deciding finds its stream gone when it acts (its action fails at once, it never waits for an answer) and reopens
from the last version it saw, where the gateway gives its owed turn back; the other seat waits the restart out
with backoff instead of giving up after a few quick failures."""

from __future__ import annotations

import asyncio
import os
import random
import uuid
from collections.abc import Iterator

import pytest

from gamehall.launcher.platform import Platform
from gamehall_sdk import Gamehall, LegalAction, LegalActions, View, play_seat, random_policy
from gamehall_sdk.v1 import match_pb2
from tests.support.processes import repo_env

pytestmark = pytest.mark.integration
GAME = "high-card"
PASSWORD = "a long passphrase 42"
KILL_AT = 2
"""The version at whose turn seat 0's policy kills the gateway (seat 0 acts at the even versions)."""


@pytest.fixture
def platform(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    saved = dict(os.environ)
    os.environ.update(repo_env())
    started = Platform(
        data_dir=tmp_path_factory.mktemp("seat-stream-restart"),
        games=[GAME],
        fixed_ports=False,
        extra_env={"GAMEHALL_AUTH_REGISTER_PER_IP": "1000/minute"},
    )
    try:
        started.start()
        yield started
    finally:
        started.stop()
        os.environ.clear()
        os.environ.update(saved)


async def _player(address: str) -> Gamehall:
    hall = Gamehall.connect(address)  # the SDK's defaults: timeout, retry policy, channel options
    await hall.register(f"restart-{uuid.uuid4().hex[:10]}", PASSWORD)
    return hall


def _killing_policy(platform: Platform, asked: list[int]) -> object:
    """Seat 0's policy: a random move, but at its turn at `KILL_AT` (the first time) the gateway is SIGKILLed and
    restarted before the move is returned, so the move goes to a stream that died meanwhile."""
    choose = random_policy(random.Random(1))

    async def policy(view: View, legal: LegalActions) -> LegalAction:
        asked.append(view.version)
        if view.version == KILL_AT and asked.count(KILL_AT) == 1:
            await asyncio.to_thread(platform.restart, "gateway", kill=True)
        return choose(view, legal)

    return policy


def test_two_bots_play_to_the_end_across_a_gateway_kill(platform: Platform) -> None:
    address = platform.service("gateway").address

    async def scenario() -> None:
        alice, bob = await _player(address), await _player(address)
        asked: list[int] = []
        try:
            match = await alice.matches.create(GAME, join_seat=0)
            await bob.matches.join(match.id)
            finals = await asyncio.wait_for(
                asyncio.gather(
                    play_seat(alice, match.id, 0, _killing_policy(platform, asked)),  # type: ignore[arg-type]
                    play_seat(bob, match.id, 1, random_policy(random.Random(2))),
                ),
                timeout=60,
            )
            assert {f.status for f in finals} == {match_pb2.MATCH_STATUS_FINISHED}
            assert asked.count(KILL_AT) >= 2, f"the owed turn at {KILL_AT} came back after the kill: {asked}"
            replay = await alice.matches.replay(match.id)
            assert [s.version for s in replay.steps] == list(range(1, 11))
        finally:
            await alice.close()
            await bob.close()

    asyncio.run(scenario())
