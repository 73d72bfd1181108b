"""Live matches owned by rules replicas (issue 13): views pushed to watchers, a hung replica that
costs a bounded wait, and two replicas that take a match over from each other without forking it."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from gamehall.internal.v1 import live_pb2, live_pb2_grpc
from gamehall.launcher.platform import Platform
from gamehall.matches.routing import rank_replicas
from gamehall.runtime.metrics import scraped_total
from gamehall.runtime.play_stream import PlayStream
from gamehall_sdk.v1 import match_pb2
from tests.e2e.client import Client
from tests.e2e.conftest import AUTH_UNLIMITED, TOKEN_KEY, Running
from tests.e2e.test_play_through_gateway import _verify
from tests.support.processes import repo_env
from tests.support.stack import Stack

GAME = "high-card"
SPECTATORS = 50
IDLE_SECONDS = 12.0
"""The inactivity limit of the two-replica platform: longer than any pause its other tests make."""
DEADLINE_BOUND_SECONDS = 25.0
"""A call to a hung owner returns within its deadline (10 s) plus one retry on the successor."""


def _duel(running: Running) -> tuple[Client, Client, str]:
    alice, bob = running.player(), running.player()
    match = alice.create(GAME, join_seat=0, public=True)
    bob.join(match.id)
    return alice, bob, match.id


def _play_one(clients: tuple[Client, Client], match_id: str, **kwargs: object) -> match_pb2.SubmitActionResponse | None:
    for client in clients:
        legal = client.legal(match_id)
        if legal.actions:
            choice = next(a for a in legal.actions if a.id != "resign")
            return client.submit(match_id, choice.id)
    return None


def _rpc_count(metrics_port: int, method: str) -> float:
    return _metric(metrics_port, "gamehall_rpc_requests_total", f'method="{method}"')


def _metric(metrics_port: int, name: str, label: str) -> float:
    return scraped_total(f"127.0.0.1:{metrics_port}", name, label)


def test_watchers_see_every_version_once_in_order_with_no_replay_calls(platform: Running) -> None:
    alice, bob, match_id = _duel(platform)
    rules = platform.platform.service(f"rules-{GAME}")
    asked_before = _rpc_count(rules.metrics_port, "/gamehall.internal.v1.LiveMatchService/GetView")
    pushed_before = _metric(rules.metrics_port, "gamehall_views_pushed_total", f'game="{GAME}"')
    watchers = [platform.player() for _ in range(SPECTATORS)] + [alice, bob]
    seen: dict[int, list[int]] = {i: [] for i in range(len(watchers))}
    outcomes: dict[int, bool] = {}
    ready = threading.Barrier(len(watchers) + 1, timeout=60)

    def follow(i: int, client: Client) -> None:
        stream = client.watch(match_id)
        first = True
        for update in stream:
            seen[i].append(update.version)
            if first:
                ready.wait()
                first = False
            if update.HasField("outcome"):
                outcomes[i] = True
                return

    threads = [threading.Thread(target=follow, args=(i, c), daemon=True) for i, c in enumerate(watchers)]
    for t in threads:
        t.start()
    ready.wait()
    final = None
    while final is None or not final.HasField("outcome"):
        final = _play_one((alice, bob), match_id)
        assert final is not None
    for t in threads:
        t.join(60)
    assert len(outcomes) == len(watchers)
    versions = list(range(0, final.version + 1))
    for i, got in seen.items():
        assert got == versions, f"watcher {i} saw {got}"
    # Each watched audience (both seats, the spectators) got a push per version: the watch leases reached the
    # owner, and a watcher asked the owner itself only to open its stream (plus the odd gap), not per version.
    pushed = _metric(rules.metrics_port, "gamehall_views_pushed_total", f'game="{GAME}"') - pushed_before
    assert pushed >= 3 * final.version
    asked = _rpc_count(rules.metrics_port, "/gamehall.internal.v1.LiveMatchService/GetView") - asked_before
    assert asked <= 2 * len(watchers) + 2 * final.version, asked


def test_a_delayed_spectator_trails_by_the_delay_and_catches_up_at_the_end(platform: Running) -> None:
    alice, bob, match_id = _duel(platform)
    for _ in range(4):
        _play_one((alice, bob), match_id)
    spectator = platform.player()
    stream = spectator.watch(match_id, delay_actions=3)
    assert next(stream).version == 1  # 4 played, 3 held back
    final = None
    while final is None or not final.HasField("outcome"):
        final = _play_one((alice, bob), match_id)
        assert final is not None
    rest = [u for u in stream]
    assert [u.version for u in rest] == list(range(2, final.version + 1))
    assert rest[-1].HasField("outcome")


def test_a_hung_rules_host_costs_a_bounded_wait_then_the_match_goes_on(platform: Running) -> None:
    alice, bob, match_id = _duel(platform)
    _play_one((alice, bob), match_id)
    rules = platform.platform.service(f"rules-{GAME}")
    assert rules.child.proc is not None
    os.kill(rules.child.proc.pid, signal.SIGSTOP)
    try:
        started = time.monotonic()
        with pytest.raises(grpc.RpcError) as hung:
            _play_one((alice, bob), match_id)
        waited = time.monotonic() - started
        assert hung.value.code() in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.UNAVAILABLE)
        assert waited < DEADLINE_BOUND_SECONDS
    finally:
        os.kill(rules.child.proc.pid, signal.SIGCONT)
    final = None
    while final is None or not final.HasField("outcome"):
        final = _play_one((alice, bob), match_id)
        assert final is not None
    assert _verify(platform, match_id)["ok"]


@pytest.fixture(scope="module")
def two_replicas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Platform, Running]]:
    mp = pytest.MonkeyPatch()
    for key, value in repo_env().items():
        mp.setenv(key, value)
    data_dir = tmp_path_factory.mktemp("replicas")
    platform = Platform(
        data_dir=data_dir,
        games=[GAME],
        fixed_ports=False,
        rules_replicas=2,
        extra_env={
            "GAMEHALL_TOKEN_KEY": TOKEN_KEY,
            "GAMEHALL_LOG_LEVEL": "warning",
            "GAMEHALL_MATCH_IDLE_SECONDS": str(IDLE_SECONDS),
            **AUTH_UNLIMITED,
        },
    )
    platform.start()
    try:
        gateway = platform.service("gateway").address
        stack = Stack(
            "local", gateway, "sqlite", f"sqlite:///{data_dir / 'gamehall.db'}", platform.nats_url, {}, platform
        )
        yield platform, Running(stack, gateway, data_dir)
    finally:
        platform.stop()
        mp.undo()


def _on_stream(address: str, method: str, request: Any) -> Any:
    """One call to the replica at `address` on a play stream (the way moves and their reads reach an owner)."""

    async def call() -> Any:
        async with grpc.aio.insecure_channel(address) as channel:
            plays = PlayStream(live_pb2_grpc.LiveMatchServiceStub(channel))
            try:
                return await plays.call(method, request, 10)
            finally:
                await plays.close()

    return asyncio.run(call())


def test_moves_sent_alternately_to_two_replicas_never_fork_the_match(two_replicas: tuple[Platform, Running]) -> None:
    platform, running = two_replicas
    alice, bob, match_id = _duel(running)
    replicas = [platform.service(f"rules-{GAME}").address, platform.service(f"rules-{GAME}-2").address]
    accepted, conflicts, turn = 0, 0, 0
    outcome = False
    while not outcome:
        for client in (alice, bob):
            assert client.account is not None
            caller = live_pb2.Caller(account_id=client.account.id, role="player")
            replica = replicas[turn % 2]
            turn += 1
            asked = live_pb2.ListLegalActionsRequest(match_id=match_id, caller=caller)
            legal = _on_stream(replica, "ListLegalActions", asked).result
            if not legal.actions:
                continue
            choice = next(a for a in legal.actions if a.id != "resign")
            request = live_pb2.PlayRequest(
                match_id=match_id,
                caller=caller,
                action_id=choice.id,
                request_id=f"{match_id}-{turn}",
                expected_version=legal.version,
            )
            try:
                played = _on_stream(replica, "Play", request).result
            except grpc.RpcError as exc:  # the other replica moved meanwhile: this one reloads
                assert exc.code() in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION), exc
                conflicts += 1
                continue
            accepted += 1
            assert played.version == accepted
            outcome = played.HasField("outcome")
            if outcome:
                break
    replay = alice.replay(match_id)
    assert [s.version for s in replay.steps] == list(range(1, accepted + 1))
    assert _verify(running, match_id)["ok"]


def test_stopping_the_owner_moves_its_match_to_the_other_replica(two_replicas: tuple[Platform, Running]) -> None:
    platform, running = two_replicas
    alice, bob, match_id = _duel(running)
    _play_one((alice, bob), match_id)
    services = {
        platform.service(f"rules-{GAME}").address: f"rules-{GAME}",
        platform.service(f"rules-{GAME}-2").address: f"rules-{GAME}-2",
    }
    owner = platform.service(services[rank_replicas(match_id, list(services))[0]])
    assert owner.child.proc is not None
    os.kill(owner.child.proc.pid, signal.SIGSTOP)
    try:
        started = time.monotonic()
        moved = _play_one((alice, bob), match_id)  # waits out the deadline once, then the successor takes over
        assert moved is not None and time.monotonic() - started < DEADLINE_BOUND_SECONDS
        final = moved
        while not final.HasField("outcome"):
            final = _play_one((alice, bob), match_id)  # type: ignore[assignment]
            assert final is not None
    finally:
        os.kill(owner.child.proc.pid, signal.SIGCONT)
    assert _verify(running, match_id)["ok"]


def test_a_match_its_players_walked_away_from_ends_aborted(two_replicas: tuple[Platform, Running]) -> None:
    """Issue 20, finding 8: an unclocked match left at version 0 used to run forever; past the platform's
    inactivity limit its owner's timer closes it as aborted, through its log, at the version it was left at."""
    _, running = two_replicas
    alice, bob, match_id = _duel(running)
    assert alice.match(match_id).status == match_pb2.MATCH_STATUS_RUNNING
    deadline = time.monotonic() + IDLE_SECONDS + 30
    match = alice.match(match_id)
    while match.status == match_pb2.MATCH_STATUS_RUNNING and time.monotonic() < deadline:
        time.sleep(0.5)
        match = alice.match(match_id)
    assert match.status == match_pb2.MATCH_STATUS_ABORTED
    assert match.version == 0 and match.outcome.reason.startswith("abandoned")
    with pytest.raises(grpc.RpcError) as refused:
        bob.submit(match_id, "play(card=1)")
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
