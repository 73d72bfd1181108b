"""Full matches of every registered game through the real gateway: two players by legal-action ids,
a spectator and both seats watching, the replay re-run locally, `gamehall verify` on the store,
and no view or event ever showing a seat (or the spectator) what the engine declares secret to it."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from gamehall.engine import get_game
from gamehall_sdk.v1 import match_pb2
from tests.e2e.conftest import Running, game_ids
from tests.e2e.helpers import Collector, canonical, play_to_end, projected, rerun
from tests.support.processes import repo_env


def _verify(platform: Running, match_id: str) -> dict[str, object]:
    projected(platform.stack.nats_url)
    dsn = f"sqlite:///{platform.data_dir.resolve() / 'gamehall.db'}"
    done = subprocess.run(
        [sys.executable, "-m", "gamehall.cli.main", "verify", match_id, "--database-url", dsn, "--json"],
        capture_output=True,
        text=True,
        env={**__import__("os").environ, **repo_env()},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report: dict[str, object] = json.loads(done.stdout)
    return report


def _two_player_games() -> list[str]:
    """Games whose default mode seats two or more (a solo game is played end to end in its own e2e test)."""
    return [g for g in game_ids() if get_game(g).modes[0].seats[0] >= 2]


@pytest.mark.parametrize("game", _two_player_games())
def test_full_match_watch_replay_verify_and_secrets(platform: Running, game: str) -> None:
    alice, bob, carol = platform.player(), platform.player(), platform.player()
    match = alice.create(game, join_seat=0, public=True)
    assert match.status == match_pb2.MATCH_STATUS_OPEN and match.seed == 0 and len(match.seed_commitment) == 64
    spectator = Collector(carol, match.id)
    joined = bob.join(match.id)
    assert joined.seat == 1 and joined.match.status == match_pb2.MATCH_STATUS_RUNNING
    seats = {0: Collector(alice, match.id), 1: Collector(bob, match.id)}

    final = play_to_end([alice, bob], match.id, random.Random(game))

    replay = carol.replay(match.id)
    assert replay.complete and replay.match.status == match_pb2.MATCH_STATUS_FINISHED
    assert replay.match.seed != 0 and len(replay.steps) == final.version
    local = rerun(replay)
    game_impl = local.game
    outcome = game_impl.outcome(local.states[-1])
    assert outcome is not None and list(outcome.ranks) == list(final.outcome.ranks)
    for step, state in zip(replay.steps, local.states[1:], strict=True):
        shown = json.loads(step.view_json)
        assert shown["spectator"] == json.loads(canonical(game_impl.view(state, None)))

    report = _verify(platform, match.id)
    assert report["ok"] and report["commitment_ok"] and report["actions"] == final.version

    rng = random.Random(7)
    watchers: dict[int | None, Collector] = {None: spectator, **seats}
    for seat, collector in watchers.items():
        messages = collector.join()
        versions = [m.version for m in messages]
        assert versions == sorted(set(versions)), f"seat {seat}: versions repeat or go back: {versions}"
        assert versions[-1] == final.version and messages[-1].HasField("outcome")
        for message in messages:
            state = local.states[message.version]
            expected = game_impl.view(state, seat)
            assert json.loads(message.view_json) == json.loads(canonical(expected)), f"seat {seat} v{message.version}"
            # The view sent is the same whatever the secrets of others are: nothing hidden leaked.
            resampled = game_impl.resample_hidden(state, seat, rng)
            assert canonical(game_impl.view(resampled, seat)) == canonical(expected)
            for event in message.events:
                assert not event.audience or (seat is not None and seat in event.audience)
            if message.version > 0 and message is not messages[0]:
                visible = [e for e in local.events[message.version] if e.visible_to(seat)]
                assert [(e.kind, json.loads(e.data_json)) for e in message.events] == [
                    (e.kind, json.loads(canonical(dict(e.data)))) for e in visible
                ]
