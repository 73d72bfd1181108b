"""A Grimm World campaign through the real gateway: Martha's player takes some rounds, leaves, the whole platform
is stopped and started again on the same store, she comes back with the same credentials, finds the campaign
exactly where she left it (saving is the match log and its snapshots), plays it to its end, and `gamehall verify`
passes on it. The campaign has no turn clock unless one is asked for."""

from __future__ import annotations

import json
import random
from pathlib import Path

import grpc
import pytest

from gamehall.launcher.platform import Platform
from gamehall_sdk.v1 import common_pb2, match_pb2
from tests.e2e.client import Client
from tests.e2e.conftest import TOKEN_KEY, Running
from tests.e2e.helpers import canonical, play_to_end, rerun
from tests.e2e.test_play_through_gateway import _verify
from tests.support.processes import repo_env

BEFORE_LEAVING = 40


def _start(tmp_path: Path) -> tuple[Platform, Running]:
    platform = Platform(data_dir=tmp_path, games=["grimm-world"], fixed_ports=False,
                        extra_env={"GAMEHALL_TOKEN_KEY": TOKEN_KEY, "GAMEHALL_LOG_LEVEL": "warning"})
    platform.start()
    return platform, Running(platform, platform.service("gateway").address, tmp_path)  # type: ignore[arg-type]


def test_campaign_left_platform_restarted_resumed_to_its_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in repo_env().items():
        monkeypatch.setenv(key, value)
    platform, running = _start(tmp_path)
    try:
        martha = running.player()
        request = match_pb2.CreateMatchRequest(
            game="grimm-world", config=common_pb2.MatchConfig(mode="campaign", seats=1), join_seat=0)
        match = martha.call("CreateMatch", request).match
        assert match.status == match_pb2.MATCH_STATUS_RUNNING
        assert not match.clock.HasField("per_move") and not match.clock.HasField("bank")  # the clock is off by default
        rng = random.Random("grimm-world campaign")
        for _ in range(BEFORE_LEAVING):
            legal = martha.legal(match.id)
            result = martha.submit(match.id, rng.choice(list(legal.actions)).id)
            assert not result.HasField("outcome")
        left_view = json.loads(martha.view(match.id).view_json)
        left_legal = [a.id for a in martha.legal(match.id).actions]
        token = martha.token
        martha.channel.close()  # she leaves

        platform.stop()
        platform, running = _start(tmp_path)  # the whole platform restarts on the same store

        back = Client(grpc.insecure_channel(running.address), token=token)
        resumed = back.match(match.id)
        assert resumed.status == match_pb2.MATCH_STATUS_RUNNING and resumed.version == BEFORE_LEAVING
        assert json.loads(back.view(match.id).view_json) == left_view
        assert [a.id for a in back.legal(match.id).actions] == left_legal
        assert left_view["journey"]["menu"] or left_view.get("fight")

        final = play_to_end([back], match.id, rng)
        assert final.outcome.reason in ("victory", "defeat") and len(final.outcome.scores) == 1

        replay = back.replay(match.id)
        assert replay.complete and replay.match.status == match_pb2.MATCH_STATUS_FINISHED
        local = rerun(replay)
        outcome = local.game.outcome(local.states[-1])
        assert outcome is not None and list(outcome.ranks) == list(final.outcome.ranks)
        assert canonical(local.game.view(local.states[BEFORE_LEAVING], 0)) == canonical(left_view)
        assert _verify(running, match.id)["ok"]
    finally:
        platform.stop()
