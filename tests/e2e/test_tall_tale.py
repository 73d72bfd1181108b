"""A co-op Grimslingers Tall Tale through the real gateway: two accounts and a bot seat play some adventure
turns, everyone leaves, the whole platform is stopped and started again on the same store, both players come
back with their credentials, find the campaign exactly where they left it (saving is the match log and its
snapshots), and play it to its end with the bot; `gamehall verify` re-runs the stored log from its seed."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import grpc
import pytest

from gamehall.launcher.platform import Platform
from gamehall_sdk.v1 import common_pb2, match_pb2
from tests.e2e.client import Client
from tests.e2e.conftest import TOKEN_KEY, Running
from tests.e2e.test_play_through_gateway import _verify
from tests.support.processes import repo_env

BEFORE_LEAVING = 30
MAX_ACTIONS = 4000
OPTIONS = {"difficulty": "easy"}


def _start(tmp_path: Path) -> tuple[Platform, Running]:
    platform = Platform(
        data_dir=tmp_path,
        games=["grimslingers"],
        fixed_ports=False,
        extra_env={"GAMEHALL_TOKEN_KEY": TOKEN_KEY, "GAMEHALL_LOG_LEVEL": "warning"},
    )
    platform.start()
    return platform, Running(platform, platform.service("gateway").address, tmp_path)  # type: ignore[arg-type]


def _play(
    players: list[Client], match_id: str, rng: random.Random, actions: int
) -> match_pb2.SubmitActionResponse | None:
    """The humans play random legal actions by id; while only the bot seat may act, they wait for it."""
    played = 0
    idle_since = time.monotonic()
    while played < actions:
        moved = False
        for player in players:
            legal = player.legal(match_id)
            choices = [a for a in legal.actions if a.id != "resign"]
            if not choices:
                continue
            try:
                result = player.submit(match_id, rng.choice(choices).id)
            except grpc.RpcError as exc:
                # the bot seat moved between our look and our move (group answers are simultaneous)
                if exc.code() not in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ABORTED):
                    raise
                continue
            played += 1
            moved = True
            if result.HasField("outcome"):
                return result
            if played >= actions:
                return None
        if moved:
            idle_since = time.monotonic()
            continue
        match = players[0].match(match_id)
        if match.status == match_pb2.MATCH_STATUS_FINISHED:
            return None
        assert time.monotonic() - idle_since < 60, "the bot seat never moved"
        time.sleep(0.05)  # the bot's turn (or a group decision only it can answer)
    return None


def _retrying(call):  # type: ignore[no-untyped-def]
    """Right after the restart the rules host may still be reconnecting to the match log: UNAVAILABLE
    says 'retry shortly', so retry for a while."""
    deadline = time.monotonic() + 30
    while True:
        try:
            return call()
        except grpc.RpcError as exc:
            if exc.code() != grpc.StatusCode.UNAVAILABLE or time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def _wait_for_humans(players: list[Client], match_id: str, bot_seat: int = 2) -> None:
    """Wait until only human seats are to act: the bot seat has answered whatever it had, so the match stays
    put. (A human able to act is not enough: in a phase the seats play at once, the bot may still be thinking.)"""
    deadline = time.monotonic() + 60
    while True:
        to_act = set(players[0].view(match_id).to_act)
        if to_act and bot_seat not in to_act:
            return
        assert time.monotonic() < deadline, f"the bot seat never moved (to act: {sorted(to_act)})"
        time.sleep(0.05)


def test_coop_tall_tale_two_accounts_and_a_bot_saved_restarted_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key, value in repo_env().items():
        monkeypatch.setenv(key, value)
    platform, running = _start(tmp_path)
    try:
        alice, bob = running.player(), running.player()
        request = match_pb2.CreateMatchRequest(
            game="grimslingers",
            config=common_pb2.MatchConfig(mode="tall-tale", seats=3, options_json=json.dumps(OPTIONS)),
            seats=[
                match_pb2.SeatSpec(open=True),
                match_pb2.SeatSpec(open=True),
                match_pb2.SeatSpec(bot="random"),
            ],
            join_seat=0,
        )
        match = alice.call("CreateMatch", request).match
        bob.join(match.id, 1)
        rng = random.Random("tall tale")
        assert _play([alice, bob], match.id, rng, BEFORE_LEAVING) is None
        _wait_for_humans([alice, bob], match.id)  # nothing left for the bot: the match stays put while we look
        seen = {who: c.view(match.id) for who, c in (("alice", alice), ("bob", bob))}
        version = seen["alice"].version
        assert seen["bob"].version == version
        left = {who: json.loads(v.view_json) for who, v in seen.items()}
        left_legal = {who: [a.id for a in c.legal(match.id).actions] for who, c in (("alice", alice), ("bob", bob))}
        tokens = {"alice": alice.token, "bob": bob.token}
        assert left["alice"]["mode"] == "tall-tale"
        alice.channel.close()
        bob.channel.close()  # both leave

        platform.stop()
        platform, running = _start(tmp_path)  # the whole platform restarts on the same store

        back = {who: Client(grpc.insecure_channel(running.address), token=tokens[who]) for who in tokens}
        resumed = back["alice"].match(match.id)
        assert resumed.status == match_pb2.MATCH_STATUS_RUNNING and resumed.version == version
        for who, client in back.items():  # exactly where they left it
            assert json.loads(_retrying(lambda c=client: c.view(match.id)).view_json) == left[who]  # type: ignore[misc]
            assert [a.id for a in client.legal(match.id).actions] == left_legal[who]

        final = _play([back["alice"], back["bob"]], match.id, rng, MAX_ACTIONS)
        finished = back["alice"].match(match.id)
        assert finished.status == match_pb2.MATCH_STATUS_FINISHED
        ranks = list(finished.outcome.ranks)
        assert len(ranks) == 3 and len(set(ranks)) == 1  # co-op: one shared result, the bot's seat included
        if final is not None:
            assert list(final.outcome.ranks) == ranks
        # a whole campaign's per-step views run to megabytes (4.8 MB once, over gRPC's 4 MB message limit):
        # GetReplay pages them, and the pages join into every step in order
        first = back["alice"].call("GetReplay", match_pb2.GetReplayRequest(match_id=match.id))
        assert first.next_page_token, "a whole Tall Tale fits one replay page"
        replay = back["alice"].replay(match.id)
        assert replay.complete and [s.version for s in replay.steps] == list(range(1, finished.version + 1))
        assert _verify(running, match.id)["ok"]
    finally:
        platform.stop()
