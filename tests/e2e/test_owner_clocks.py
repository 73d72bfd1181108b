"""Clocks are their owners' timers (issue 37): 200 clocked matches whose seats all time out, on two rules replicas.

Each timeout is an entry its match's owner appends to the log; its lateness is the entry's timestamp minus the
seat's deadline (the clock state of the version it timed out at, plus the per-move time). Three rounds on one
platform: the projection keeping up; the projection held back (the SQLite file locked for writing, so persistence
commits nothing while reads go on: the timers do not wait for it); and one of the two replicas killed with
SIGKILL, whose matches' timers then fire on the other (once its lease lapses). The figures are printed.

The issue's bounds (median 100 ms, p99 1 s, 200 matches) are for a quiet machine: `make soak` runs this at that size
and with those bounds (GAMEHALL_CLOCK_TEST_FULL=1). `make test` runs it at a fifth of the size on a machine whose
two cores its other worker keeps busy, where a wake-up of the rules replica alone can wait a few hundred ms, so its
bounds are looser (median 500 ms, p99 2 s): still far inside the time the projection is held back, which is what
shows the timers do not wait for it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import statistics
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc
import msgspec
import nats
import pytest
from google.protobuf.duration_pb2 import Duration

from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.internal.v1 import live_pb2, live_pb2_grpc, persistence_pb2, persistence_pb2_grpc
from gamehall.launcher.platform import Platform
from gamehall.matches.routing import rank_replicas
from gamehall_sdk.v1 import common_pb2
from tests.e2e.client import Client
from tests.e2e.conftest import AUTH_UNLIMITED, TOKEN_KEY
from tests.support.processes import repo_env

pytestmark = pytest.mark.slow

FULL = os.environ.get("GAMEHALL_CLOCK_TEST_FULL", "") == "1"
GAME = "high-card"
MATCHES = 200 if FULL else 40
PER_MOVE_MS = 3000
TIMEOUTS_PER_MATCH = 10
"""High Card deals 5 cards a seat: 5 rounds, both seats timing out in each."""
OPEN_SPREAD_SECONDS = 2.5
"""The matches start over this long, so their deadlines spread over the per-move time as players' would."""
KILLED_MATCHES = 60 if FULL else 20
MEDIAN_MS, P99_MS = (100, 1000) if FULL else (500, 2000)
_json = msgspec.json.Decoder(dict[str, Any])


@pytest.fixture(scope="module")
def clock_platform(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    mp = pytest.MonkeyPatch()
    for key, value in repo_env().items():
        mp.setenv(key, value)
    platform = Platform(
        data_dir=tmp_path_factory.mktemp("clocks"),
        games=[GAME],
        fixed_ports=False,
        rules_replicas=2,
        extra_env={"GAMEHALL_TOKEN_KEY": TOKEN_KEY, "GAMEHALL_LOG_LEVEL": "warning", **AUTH_UNLIMITED},
    )
    platform.start()
    try:
        yield platform
    finally:
        platform.stop()
        mp.undo()


@dataclass
class Logged:
    """The match log's entries as they are appended (a core NATS subscription on the game's log subjects)."""

    clock_states: dict[str, dict[int, dict[str, Any]]] = field(default_factory=lambda: defaultdict(dict))
    timeouts: dict[str, list[tuple[int, int, int]]] = field(default_factory=lambda: defaultdict(list))
    """match id -> (version timed out at, seat, the entry's unix ms)."""
    versions: dict[str, int] = field(default_factory=dict)

    async def on_entry(self, msg: Any) -> None:
        entry = LogEntry.FromString(msg.data)
        if entry.clock_state_json:
            self.clock_states[entry.match_id][entry.version] = _json.decode(entry.clock_state_json)
        self.versions[entry.match_id] = max(self.versions.get(entry.match_id, 0), entry.version)
        if entry.request_id.startswith("clock:"):
            _, version, seat = entry.request_id.split(":")
            self.timeouts[entry.match_id].append((int(version), int(seat), int(entry.unix_ms)))

    def lateness(self, match_ids: list[str], since_ms: int = 0) -> list[int]:
        """Milliseconds from each seat's deadline to its timeout entry (deadlines at or after `since_ms`)."""
        late = []
        for match_id in match_ids:
            for version, seat, at in self.timeouts[match_id]:
                state = self.clock_states[match_id][version]
                deadline = int(state["since_ms"][str(seat)]) + PER_MOVE_MS
                if deadline >= since_ms:
                    late.append(at - deadline)
        return late

    def done(self, match_ids: list[str]) -> bool:
        return all(len(self.timeouts[m]) >= TIMEOUTS_PER_MATCH for m in match_ids)


def _figures(late: list[int]) -> tuple[float, float, int]:
    ordered = sorted(late)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], ordered[-1]


class Opener:
    """Opens clocked duels straight on their owners (as the gateway would route them), two accounts per match."""

    def __init__(self, platform: Platform, accounts: tuple[str, str], logged: Logged) -> None:
        self.addresses = [platform.service(f"rules-{GAME}").address, platform.service(f"rules-{GAME}-2").address]
        self.channels = {a: grpc.aio.insecure_channel(a) for a in self.addresses}
        self.stubs = {a: live_pb2_grpc.LiveMatchServiceStub(c) for a, c in self.channels.items()}
        self.accounts = accounts
        self.logged = logged

    def owner(self, match_id: str) -> str:
        return rank_replicas(match_id, self.addresses)[0]

    async def duel(self, delay: float, match_id: str) -> str:
        await asyncio.sleep(delay)
        stub = self.stubs[self.owner(match_id)]
        alice, bob = (live_pb2.Caller(account_id=a, role="player") for a in self.accounts)
        clock = common_pb2.ClockSpec(per_move=Duration(seconds=PER_MOVE_MS // 1000))
        await stub.OpenMatch(live_pb2.OpenMatchRequest(match_id=match_id, caller=alice, join_seat=0, clock=clock))
        joined = await stub.JoinMatch(live_pb2.JoinMatchRequest(match_id=match_id, caller=bob))
        self.logged.clock_states[match_id][0] = _json.decode(joined.match.clock_state_json)
        return match_id

    async def open(self, count: int, ids: list[str] | None = None) -> list[str]:
        ids = ids or [str(uuid.uuid4()) for _ in range(count)]
        spread = OPEN_SPREAD_SECONDS / len(ids)
        return list(await asyncio.gather(*(self.duel(n * spread, m) for n, m in enumerate(ids))))

    async def close(self) -> None:
        for channel in self.channels.values():
            await channel.close()


async def _until(predicate: Any, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "the timeouts did not all come in time"
        await asyncio.sleep(0.2)


def _report(what: str, late: list[int]) -> tuple[float, float, int]:
    median, p99, worst = _figures(late)
    print(f"\n[clocks] {what}: {len(late)} timeouts, lateness median {median:.0f} ms, p99 {p99} ms, max {worst} ms")
    return median, p99, worst


async def test_timeouts_fire_on_time_on_their_owner_whatever_the_projection_and_after_a_kill(
    clock_platform: Platform,
) -> None:
    platform = clock_platform
    gateway = grpc.insecure_channel(platform.service("gateway").address)
    accounts = tuple(Client(gateway).register().account.id for _ in range(2))  # type: ignore[union-attr]
    logged = Logged()
    bus = await nats.connect(platform.nats_url)
    await bus.subscribe(f"gamehall.v1.log.{GAME}.>", cb=logged.on_entry)
    opener = Opener(platform, (accounts[0], accounts[1]), logged)
    budget = OPEN_SPREAD_SECONDS + TIMEOUTS_PER_MATCH / 2 * PER_MOVE_MS / 1000 + 30
    try:
        # 1. the projection keeping up
        steady = await opener.open(MATCHES)
        await _until(lambda: logged.done(steady), budget)
        median, p99, _ = _report("projection keeping up", logged.lateness(steady))
        assert median <= MEDIAN_MS and p99 <= P99_MS

        # 2. the projection held back: persistence can read, but commits nothing until the lock goes
        held_back = await opener.open(MATCHES)
        lock = sqlite3.connect(platform.data_dir / "gamehall.db", timeout=30, isolation_level=None)
        try:
            lock.execute("BEGIN IMMEDIATE")
            await _until(lambda: logged.done(held_back), budget)
            store = persistence_pb2_grpc.PersistenceServiceStub(
                grpc.insecure_channel(platform.service("persistence").address)
            )
            projected = [store.GetMatch(persistence_pb2.GetMatchRequest(match_id=m)).match for m in held_back[:20]]
            assert all(r.status == "running" and r.version < logged.versions[r.id] for r in projected)
        finally:
            lock.rollback()
            lock.close()
        median, p99, _ = _report("projection held back", logged.lateness(held_back))
        assert median <= MEDIAN_MS and p99 <= P99_MS

        # 3. one replica killed: its matches' timers fire on the other
        doomed = await opener.open(KILLED_MATCHES)
        victim_address = opener.addresses[1]
        orphans = [m for m in doomed if opener.owner(m) == victim_address]
        assert orphans
        victim = platform.service(f"rules-{GAME}-2")
        assert victim.child.proc is not None
        killed_ms = int(time.time() * 1000)
        os.kill(victim.child.proc.pid, signal.SIGKILL)
        await _until(lambda: logged.done(orphans), budget + 15)
        late = logged.lateness(orphans, since_ms=killed_ms)
        _, _, worst = _report(f"after the owner of {len(orphans)} matches was killed", late)
        survivors = logged.lateness([m for m in doomed if m not in orphans], since_ms=killed_ms)
        _report("the survivor's own matches meanwhile", survivors)
        assert worst <= 10_000  # a lease lapses in 3 s; the successor then rearms from one read
    finally:
        await opener.close()
        await bus.close()
        gateway.close()
