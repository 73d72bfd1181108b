"""kill -9 persistence, the rules host that owns the matches, nats-server and the gateway while
clients submit concurrently: after restart, no acknowledged action is lost or applied twice, every
acknowledged request is in the projection exactly once with contiguous versions, and the match log
has been fully projected (nothing pending, each finished match's entries purged)."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import grpc
import nats
import pytest

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.internal.v1 import persistence_pb2_grpc
from gamehall.launcher.platform import Platform
from gamehall.runtime.matchlog import LOG_STREAM, MatchLog
from gamehall_services.persistence.projector import CONSUMER as PROJECTOR
from tests.e2e.client import Client
from tests.e2e.conftest import AUTH_UNLIMITED, TOKEN_KEY, Running
from tests.e2e.test_play_through_gateway import _verify
from tests.support.processes import repo_env

MATCHES = 5
THINK_SECONDS = 0.4
"""Each player's pause after a move, so the play spans the kills: 50 moves made flat out had all landed within
the 0.2 s before the first kill (seen in CI once moves got faster), and nothing was killed mid-play."""
RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.INTERNAL}


def _retrying(call):  # type: ignore[no-untyped-def]
    for _ in range(600):
        try:
            return call()
        except grpc.RpcError as exc:
            if exc.code() not in RETRYABLE:
                raise
            time.sleep(0.05)
    raise AssertionError("the platform never came back")


def _play(client: Client, match_id: str, accepted: list[str], errors: list[BaseException]) -> None:
    """Play to the end; each move is retried with its request id until it is acknowledged."""
    try:
        step = 0
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            legal = _retrying(lambda: client.legal(match_id))
            match = _retrying(lambda: client.match(match_id))
            if match.status != 2:  # not running any more
                return
            if not legal.actions:
                time.sleep(0.01)
                continue
            choice = next(a for a in legal.actions if a.id != "resign")
            request_id = f"{match_id}:{client.account.id}:{step}"  # type: ignore[union-attr]
            result = _retrying(lambda c=choice, r=request_id: client.submit(match_id, c.id, request_id=r))
            accepted.append(request_id)
            step += 1
            if result.HasField("outcome"):
                return
            time.sleep(THINK_SECONDS)
        raise AssertionError(f"match {match_id} did not end within 2 minutes")
    except BaseException as exc:
        errors.append(exc)


def _projected_request_ids(persistence_address: str, match_id: str) -> list[tuple[int, str]]:
    with grpc.insecure_channel(persistence_address) as channel:
        stub = persistence_pb2_grpc.PersistenceServiceStub(channel)
        actions = stub.GetActions(ppb.GetActionsRequest(match_id=match_id, from_version=1), timeout=10).actions
    return [(int(a.version), a.request_id) for a in actions]


async def _log_state(url: str, match_ids: list[str]) -> tuple[list[int], int]:
    """(the newest log sequence of each match, 0 once purged; the projector's unprocessed entries)."""
    nc = await nats.connect(url)
    try:
        log = MatchLog(nc.jetstream())
        heads = [await log.last_seq("high-card", m) for m in match_ids]
        info = await nc.jetstream().consumer_info(LOG_STREAM, PROJECTOR)
        return heads, int(info.num_pending or 0) + int(info.num_ack_pending or 0)
    finally:
        await nc.close()


def test_kill_9_persistence_owner_nats_and_gateway_mid_play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in repo_env().items():
        monkeypatch.setenv(key, value)
    platform = Platform(
        data_dir=tmp_path,
        games=["high-card"],
        fixed_ports=False,
        extra_env={"GAMEHALL_TOKEN_KEY": TOKEN_KEY, **AUTH_UNLIMITED},
    )
    platform.start()
    try:
        running = Running(platform, platform.service("gateway").address, tmp_path)
        accepted: list[str] = []
        errors: list[BaseException] = []
        threads, match_ids = [], []
        for _ in range(MATCHES):
            a, b = running.player(), running.player()
            match = a.create("high-card", join_seat=0, public=True)
            b.join(match.id)
            match_ids.append(match.id)
            threads += [threading.Thread(target=_play, args=(c, match.id, accepted, errors)) for c in (a, b)]
        for t in threads:
            t.start()
        time.sleep(0.2)
        before_kill = len(accepted)
        platform.restart("persistence")
        platform.restart("rules-high-card")  # the owner of every match here: the next replica rebuilds from the log
        platform.restart_nats()
        platform.restart("gateway")
        for t in threads:
            t.join(120)
        assert not errors, errors
        assert len(accepted) == len(set(accepted))
        watcher = running.player()
        total = 0
        for match_id in match_ids:
            replay = _retrying(lambda m=match_id: watcher.replay(m))
            assert replay.complete and len(replay.steps) == 10  # 5 rounds of 2 cards: nothing lost, nothing doubled
            assert [s.version for s in replay.steps] == list(range(1, 11))
            assert _verify(running, match_id)["ok"]
            projected = _projected_request_ids(platform.service("persistence").address, match_id)
            assert [v for v, _ in projected] == list(range(1, 11))
            assert {r for _, r in projected} <= set(accepted)
            total += len(replay.steps)
        assert total == len(accepted)
        assert before_kill < total  # the kills did land mid-play
        for _ in range(100):  # the projector catches up, then purges what it projected
            heads, unprocessed = asyncio.run(_log_state(platform.nats_url, match_ids))
            if unprocessed == 0 and not any(heads):
                break
            time.sleep(0.1)
        assert (heads, unprocessed) == ([0] * MATCHES, 0)
    finally:
        platform.stop()
