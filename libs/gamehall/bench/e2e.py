"""End-to-end play through the gateway: actions/s and submit latency with many concurrent matches.

The whole platform runs as processes (nats-server, persistence, gateway, the fixture game's rules
host), on SQLite, and on PostgreSQL when `GAMEHALL_BENCH_POSTGRES_DSN` names a server. Two
accounts hold the two seats of every match; each match plays its hands by SubmitAction with the
cards read from one GetView, so the timed calls are exactly the moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import grpc

from gamehall.bench.baselines import BASELINE_RUNS, collector_paused
from gamehall.bench.rows import Row, of_readings
from gamehall.launcher.platform import Platform
from gamehall_sdk.v1 import auth_pb2, auth_pb2_grpc, common_pb2, match_pb2, match_pb2_grpc

FIXTURE = "gamehall.testing.high_card:GAME"
GOAL = ">= 0.35x echo calls/s"
"""Issue 13's closed-loop goal (the first slice asked for 0.25x); the p99 row keeps its own goal."""
SQLITE_NORMAL = "sqlite:///{data_dir}/gamehall.db?synchronous=normal"
"""WAL with synchronous=NORMAL: safe against process crashes, may lose the last commits on power loss."""


async def _register(stub: auth_pb2_grpc.AuthServiceStub, name: str) -> tuple[tuple[str, str], ...]:
    reply = await stub.Register(auth_pb2.RegisterRequest(username=name, password="bench password 2026"))
    return (("authorization", f"Bearer {reply.token}"),)


async def _play(address: str, matches: int) -> tuple[list[float], float]:
    async with grpc.aio.insecure_channel(address) as channel:
        auth = auth_pb2_grpc.AuthServiceStub(channel)
        stub = match_pb2_grpc.MatchServiceStub(channel)
        suffix = os.urandom(4).hex()
        seats = [await _register(auth, f"bench-a-{suffix}"), await _register(auth, f"bench-b-{suffix}")]
        ids = []
        for _ in range(matches):
            created = await stub.CreateMatch(
                match_pb2.CreateMatchRequest(
                    game="high-card", config=common_pb2.MatchConfig(mode="duel", seats=2), join_seat=0
                ),
                metadata=seats[0],
            )
            await stub.JoinMatch(match_pb2.JoinMatchRequest(match_id=created.match.id, seat=1), metadata=seats[1])
            ids.append(created.match.id)
        latencies: list[float] = []

        async def one_match(match_id: str) -> None:
            hands = []
            for seat, md in enumerate(seats):
                view = await stub.GetView(match_pb2.GetViewRequest(match_id=match_id, seat=seat), metadata=md)
                hands.append(json.loads(view.view_json)["hand"])
            for card_a, card_b in zip(hands[0], hands[1], strict=True):
                for seat, card in ((0, card_a), (1, card_b)):
                    started = time.perf_counter()
                    await stub.SubmitAction(
                        match_pb2.SubmitActionRequest(match_id=match_id, action_id=f"play(card={card})", seat=seat),
                        metadata=seats[seat],
                    )
                    latencies.append(time.perf_counter() - started)

        with collector_paused():
            started = time.perf_counter()
            await asyncio.gather(*(one_match(m) for m in ids))
            return latencies, time.perf_counter() - started


@contextlib.contextmanager
def bench_platform(
    dsn: str | None = None, *, nats_nodes: int = 1, env_extra: dict[str, str] | None = None
) -> Iterator[Platform]:
    """The whole platform as processes in a temp dir, hosting the fixture game; dsn None: embedded SQLite;
    `nats_nodes` > 1: a JetStream cluster of that many nats-servers (gamehall.launcher.nats_cluster)."""
    root = Path(__file__).resolve().parents[3]
    env = {
        "GAMEHALL_GAME_MODULES": FIXTURE,
        "GAMEHALL_LOG_LEVEL": "warning",
        "GAMEHALL_GATEWAY_RATE_PER_SECOND": "1000000",
        "GAMEHALL_GATEWAY_RATE_BURST": "1000000",
        "GAMEHALL_AUTH_REGISTER_PER_IP": "1000000/minute",
        "GAMEHALL_AUTH_LOGIN_PER_IP": "1000000/minute",
        "GAMEHALL_GATEWAY_WATCHERS_PER_ACCOUNT": "100000",  # the watcher rows open hundreds from one account
        "PYTHONPATH": str(root),
        **(env_extra or {}),
    }
    previous = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        with tempfile.TemporaryDirectory(prefix="gamehall-bench-") as tmp:
            if dsn:
                env["GAMEHALL_DATABASE_URL"] = dsn.format(data_dir=tmp)
            platform = Platform(
                data_dir=Path(tmp), games=["high-card"], fixed_ports=False, extra_env=env, nats_nodes=nats_nodes
            )
            platform.start()
            try:
                yield platform
            finally:
                platform.stop()
    finally:
        for key, value in previous.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def measure(dsn: str | None, matches: int = 200, runs: int = BASELINE_RUNS) -> list[tuple[float, float, float]]:
    """(actions/s, p50 ms, p99 ms) of `runs` readings, each with `matches` new concurrent 2-seat matches on one
    platform, best first (the highest rate: other work on the machine only ever slows a reading, as for the echo
    baseline these rows are divided by); dsn None: embedded SQLite."""
    readings = []
    with bench_platform(dsn) as platform:
        for _ in range(max(1, runs)):
            latencies, elapsed = asyncio.run(_play(platform.service("gateway").address, matches))
            latencies.sort()
            p99 = latencies[max(0, int(len(latencies) * 0.99) - 1)] * 1000
            readings.append((len(latencies) / elapsed, statistics.median(latencies) * 1000, p99))
    return sorted(readings, reverse=True)


@contextlib.contextmanager
def _postgres_dsn() -> Iterator[str | None]:
    """GAMEHALL_BENCH_POSTGRES_DSN, else a throwaway local server (the repo's test support), else None."""
    if os.environ.get("GAMEHALL_BENCH_POSTGRES_DSN"):
        yield os.environ["GAMEHALL_BENCH_POSTGRES_DSN"]
        return
    try:
        from gamehall.testing.postgres import PostgresUnavailable, throwaway_postgres
    except ImportError:
        yield None
        return
    try:
        with throwaway_postgres() as server:
            yield server.dsn
    except PostgresUnavailable:
        yield None


def e2e_rows(matches: int = 200, runs: int = BASELINE_RUNS) -> list[Row]:
    """Rows for SQLite (synchronous=FULL, the default, and NORMAL) and PostgreSQL when one can be had."""
    rows = []
    note = f"{matches} concurrent 2-seat high-card matches through the gateway"
    with _postgres_dsn() as pg:
        backends: list[tuple[str, str | None]] = [("sqlite FULL", None), ("sqlite NORMAL", SQLITE_NORMAL)]
        if pg:
            backends.append(("postgres", pg))
        for name, dsn in backends:
            readings = measure(dsn, matches, runs)
            rate, p50, p99 = readings[0]
            best = f"{note}; " + of_readings("the best", [f"{r[0]:,.0f}" for r in readings])
            rows += [
                Row(f"e2e actions/s ({name})", rate, "actions/s", baseline="echo baseline", goal=GOAL, extra=best),
                Row(f"e2e submit p50 ({name})", p50, "ms", baseline="echo p50", extra=best),
                Row(f"e2e submit p99 ({name})", p99, "ms", baseline="echo p99", goal="< 50 ms", extra=best),
            ]
    return rows
