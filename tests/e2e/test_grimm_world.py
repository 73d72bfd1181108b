"""A Grimm World skirmish played end to end through the real gateway: Martha's player by legal-action ids, a
spectator and the seat watching, the replay re-run locally from the revealed seed, `gamehall verify` on the store,
and no view ever carrying the order of the Encounter or Action decks."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import grpc
import pytest

from gamehall_sdk.v1 import common_pb2, match_pb2
from tests.e2e.conftest import Running
from tests.e2e.helpers import Collector, canonical, play_to_end, rerun
from tests.support.processes import repo_env

OPTIONS = {"conflict": "Y702", "chapter": 7}


def test_grimm_world_skirmish_with_a_spectator(platform: Running) -> None:
    martha, carol = platform.player(), platform.player()
    request = match_pb2.CreateMatchRequest(
        game="grimm-world",
        config=common_pb2.MatchConfig(mode="skirmish", seats=1, options_json=json.dumps(OPTIONS)),
        public=True,
        join_seat=0,
    )
    match = martha.call("CreateMatch", request).match
    assert match.status == match_pb2.MATCH_STATUS_RUNNING  # a solo skirmish starts as soon as Martha sits
    spectator = Collector(carol, match.id)
    seat = Collector(martha, match.id)
    first = json.loads(carol.view(match.id).view_json)
    assert first["conflict"] == "Y702" and isinstance(first["decks"]["encounter"], int)
    with pytest.raises(grpc.RpcError) as denied:
        carol.legal(match.id)  # the spectator holds no seat and makes no choices
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED

    final = play_to_end([martha], match.id, random.Random("grimm-world"))

    replay = carol.replay(match.id)
    assert replay.complete and replay.match.status == match_pb2.MATCH_STATUS_FINISHED
    local = rerun(replay)
    game = local.game
    outcome = game.outcome(local.states[-1])
    assert outcome is not None and list(outcome.ranks) == list(final.outcome.ranks)
    assert outcome.reason in ("victory", "defeat")

    dsn = f"sqlite:///{platform.data_dir.resolve() / 'gamehall.db'}"
    done = subprocess.run(
        [sys.executable, "-m", "gamehall.cli.main", "verify", match.id, "--database-url", dsn, "--json"],
        capture_output=True, text=True, env={**os.environ, **repo_env()}, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["ok"]

    rng = random.Random(5)
    for who, collector in ((None, spectator), (0, seat)):
        messages = collector.join()
        assert messages[-1].version == final.version and messages[-1].HasField("outcome")
        for message in messages:
            state = local.states[message.version]
            view = json.loads(message.view_json)
            assert view == json.loads(canonical(game.view(state, who)))
            assert isinstance(view["decks"]["encounter"], int) and isinstance(view["decks"]["action"], int)
            assert "rng" not in view
            assert canonical(game.view(game.resample_hidden(state, who, rng), who)) == canonical(game.view(state, who))
