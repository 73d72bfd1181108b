"""Faults at tournament scale: `python -m gamehall.bench.soak_cluster [--matches 500] [--json]`.

The whole platform on PostgreSQL and a 3-node JetStream cluster (streams with 3 replicas) holds
`--matches` concurrent bot-vs-bot matches of the fixture game high-card: a new match is created as
each one ends. Every `--witness-every`-th match has one seat played by this harness through the SDK,
so it knows which actions the platform acknowledged. First a fault-free phase measures the rate, then
one fault every `--fault-every` seconds: SIGKILL of the node leading the match log stream (restarted
`--nats-down` seconds later), SIGKILL and restart of each service, an immediate PostgreSQL restart.
Then no new match; the running ones get `--drain` seconds to end.

Afterwards, from PostgreSQL: the invariants of every stored match (gamehall.bench.soak_checks), no
acknowledged action lost (each at its acknowledged version with its request id) and none applied twice,
every created match finished or going on, liveness (no full match left open, no running match without
a step within `--idle`), no aborted match, nothing dead-lettered, and `gamehall verify`'s audit on a
sample. Moves and ends are timed from the match log (core subscriptions on every node). Reported:
matches/s fault-free and under faults (ratio), and per fault the recovery time (from the kill until the
move rate is back to half the fault-free rate) in seconds, in fault-free match durations and in unloaded
echo p50s. Exit 1 on any finding.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import functools
import json
import os
import random
import shutil
import statistics
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import grpc
import nats
from rich.console import Console
from rich.table import Table

from gamehall.bench.e2e import bench_platform
from gamehall.bench.soak import IDLE_SLACK, PASSWORD, RETRY, Fault, Tally, _ensure_game
from gamehall.bench.soak_checks import (
    CheckReport,
    StoredMatch,
    audit_sample,
    check_acknowledged,
    check_ended_or_going_on,
    check_liveness,
    check_no_bot_match_aborted,
    check_stored,
    read_postgres,
)
from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.internal.v1 import diagnostics_pb2, diagnostics_pb2_grpc
from gamehall.launcher.platform import Platform
from gamehall.runtime.bus import DEADLETTER_STREAM
from gamehall.runtime.matchlog import ALL_ENTRIES, LOG_STREAM, wait_projected_at
from gamehall.testing.postgres import PostgresServer, local_postgres
from gamehall_sdk import Gamehall, GamehallError
from gamehall_sdk.errors import MatchOver, NotYourTurn, VersionConflict
from gamehall_sdk.matches import bot_seat, new_request_id, open_seat
from gamehall_sdk.v1 import match_pb2

FAULTS = ("nats", "gateway", "persistence", "rules-high-card", "ai", "matchmaking", "postgres")
ENDED = (match_pb2.MATCH_STATUS_FINISHED, match_pb2.MATCH_STATUS_ABORTED)
FAULT_SLACK = 5.0
"""Seconds after a restart is ready during which it still explains an UNAVAILABLE: a client's gRPC channel
retries a connection with exponential backoff (1 s x 1.6 per failure, jittered), so after a gateway was away
for 6-10 s a new call may fail fast for a few seconds more (seen at 2.7 s past ready under 500 matches)."""
RECOVERED = 0.5
"""A fault is recovered from once a 1 s window holds this share of the fault-free move rate."""
TRAIL = 12
"""Steps of a witness seat kept per match, to explain a finding about that match."""


@dataclass(frozen=True)
class ClusterSoakConfig:
    matches: int = 500
    """Concurrent matches held (a new one is created as each ends)."""
    baseline_seconds: float = 60.0
    fault_every: float = 30.0
    faults: tuple[str, ...] = FAULTS
    nats_nodes: int = 3
    nats_down: float = 5.0
    """Seconds a killed NATS node stays down (the cluster runs on the others) before it restarts."""
    postgres_down: float = 2.0
    """Seconds PostgreSQL stays stopped (immediate shutdown) before it starts again."""
    witness_every: int = 10
    bot_level: str = "random"
    idle_seconds: float = 60.0
    """Liveness policy: a running match steps at least this often (the platform's inactivity policy, plus
    `IDLE_SLACK` for its owner's timer); an abandoned match ends aborted, which a bots-only one never may."""
    drain_seconds: float = 120.0
    creators: int = 8
    """CreateMatch calls in flight at once."""
    call_timeout: float = 10.0
    audit_limit: int = 20
    seed: int = 2026
    logs: str = ""
    """A folder to copy every process's log into at the end (to follow a finding's trace id); '' keeps none."""

    @property
    def warmup(self) -> float:
        """The start of the fault-free window: the first quarter ramps up to `matches` in flight."""
        return self.baseline_seconds / 4

    @property
    def load_seconds(self) -> float:
        return self.baseline_seconds + self.fault_every * len(self.faults)


@dataclass
class Progress:
    """Moves and ends seen on the match log (deduplicated over the node subscriptions), harness-clock times."""

    started: float
    seen: set[tuple[str, int]] = field(default_factory=set)
    moves: list[float] = field(default_factory=list)
    ends: dict[str, float] = field(default_factory=dict)
    waiters: dict[str, asyncio.Event] = field(default_factory=dict)

    def on_entry(self, data: bytes) -> None:
        entry = LogEntry.FromString(data)
        key = (entry.match_id, int(entry.version) if entry.kind == LogEntry.KIND_ACTION else -1)
        if key in self.seen:
            return
        self.seen.add(key)
        now = time.monotonic() - self.started
        if entry.kind == LogEntry.KIND_ACTION:
            self.moves.append(now)
        if entry.status in ("finished", "aborted") and entry.match_id not in self.ends:
            self.ends[entry.match_id] = now
            if (event := self.waiters.get(entry.match_id)) is not None:
                event.set()

    def waiter(self, match_id: str) -> asyncio.Event:
        event = self.waiters.setdefault(match_id, asyncio.Event())
        if match_id in self.ends:
            event.set()
        return event

    def moves_between(self, a: float, b: float) -> int:
        self.moves.sort()  # appended in arrival order, nearly sorted: cheap
        return bisect.bisect_left(self.moves, b) - bisect.bisect_left(self.moves, a)

    def ends_between(self, a: float, b: float) -> int:
        return sum(1 for t in self.ends.values() if a <= t < b)


@dataclass
class Recovery:
    fault: str
    at: float
    restart_s: float | None
    """From the kill until the process (or node) was back and ready."""
    recovery_s: float | None
    """From the kill until a 1 s window held half the fault-free move rate (None: not within the interval)."""


@dataclass
class ClusterSoakReport:
    config: dict[str, Any]
    load_average: tuple[float, float, float]
    echo_p50_ms: float
    created: int
    ended: int
    witness_acked: int
    moves: int
    baseline_matches_per_s: float
    fault_matches_per_s: float
    baseline_moves_per_s: float
    match_duration_s: float
    """Median fault-free match duration (create to end)."""
    recoveries: list[Recovery]
    matches_checked: int
    checks_passed: int
    checks_failed: int
    audited: int
    going_on: int
    errors: dict[str, int]
    findings: list[str]
    tolerated: list[str]
    elapsed: float


@dataclass
class Run:
    """The state one soak run shares between its tasks (one event loop) and the fault thread."""

    cfg: ClusterSoakConfig
    platform: Platform
    postgres: PostgresServer
    tally: Tally
    progress: Progress
    born: dict[str, float] = field(default_factory=dict)
    acked: list[tuple[str, str, int]] = field(default_factory=list)
    """(match id, request id, version) of every action the platform acknowledged to a witness seat."""
    ack_times: dict[str, float] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    """Match id -> when it was created, for the findings."""
    trails: dict[str, deque[str]] = field(default_factory=dict)
    """Match id -> what its witness seat last saw and did (the newest `TRAIL` steps), for the findings."""
    restarts: dict[int, float] = field(default_factory=dict)
    """Fault index -> seconds from its kill until ready again."""

    def trail(self, match_id: str, step: str) -> None:
        """Note a step of the match's witness seat (harness-clock time first)."""
        self.trails.setdefault(match_id, deque(maxlen=TRAIL)).append(f"{self.tally.now():.1f}s {step}")


# ------------------------------------------------------------------------------------------ observation
async def watch_log(run: Run, stop: asyncio.Event) -> None:
    """Core subscriptions to every match log entry, one connection per node (a killed node's is the others')."""
    connections = []

    async def quiet(exc: Exception) -> None:  # a killed node's connection retries until it is back
        pass

    for node in run.platform.cluster.nodes if run.platform.cluster else []:
        nc = await nats.connect(
            servers=[node.url],
            allow_reconnect=True,
            max_reconnect_attempts=-1,
            reconnect_time_wait=0.5,
            error_cb=quiet,
        )

        async def handler(msg: Any) -> None:
            run.progress.on_entry(msg.data)

        await nc.subscribe(ALL_ENTRIES, cb=handler, pending_msgs_limit=1_000_000)
        connections.append(nc)
    try:
        await stop.wait()
    finally:
        for nc in connections:
            with contextlib.suppress(Exception):
                await nc.close()


async def echo_p50_ms(platform: Platform, calls: int = 300) -> float:
    """Median round trip of the diagnostics Echo on the unloaded gateway (persistence if it has none)."""
    for name in ("gateway", "persistence"):
        async with grpc.aio.insecure_channel(platform.service(name).address) as channel:
            stub = diagnostics_pb2_grpc.DiagnosticsServiceStub(channel)
            request = diagnostics_pb2.EchoRequest(payload=b"x" * 64)
            latencies = []
            try:
                for _ in range(calls):
                    started = time.perf_counter()
                    await stub.Echo(request, timeout=5)
                    latencies.append(time.perf_counter() - started)
            except grpc.aio.AioRpcError:
                continue
            return statistics.median(latencies[calls // 10 :]) * 1000
    return float("nan")


# ------------------------------------------------------------------------------------------ load
async def _witness_seat(run: Run, hall: Gamehall, match_id: str) -> None:
    """Play seat 0 with random non-resign cards until the match ends, recording each acknowledged action."""
    rng = random.Random(f"{run.cfg.seed}-{match_id}")
    for attempt in range(40):
        since = run.tally.now()
        try:
            run.trail(match_id, f"watch #{attempt}")
            async with contextlib.aclosing(hall.matches.watch(match_id, 0)) as updates:
                async for update in updates:
                    run.trail(match_id, f"update v{update.version} to_act {list(update.to_act)}")
                    if update.finished:
                        return
                    if 0 in update.to_act:
                        await _witness_turn(run, hall, match_id, rng)
            run.trail(match_id, "watch ended")
        except MatchOver:
            return
        except GamehallError as exc:  # a fault explains Unavailable and DeadlineExceeded (Tally.error)
            run.trail(match_id, f"watch failed: {type(exc).__name__}")
            run.tally.error(exc, since, f"witness watch {match_id}")
        with contextlib.suppress(GamehallError):
            if (await hall.matches.get(match_id)).status in ENDED:
                return
        await asyncio.sleep(min(2.0, 0.25 * (attempt + 1)))


async def _witness_turn(run: Run, hall: Gamehall, match_id: str, rng: random.Random) -> None:
    since = run.tally.now()
    try:
        legal = await hall.matches.legal(match_id, 0)
        cards = [a for a in legal.actions if a.id != "resign"]
        if not cards:
            run.trail(match_id, f"legal at v{legal.version}: no card")
            return
        request_id = new_request_id()
        reply = await hall.matches.submit(
            match_id, 0, rng.choice(cards), expected_version=legal.version, request_id=request_id
        )
    except (VersionConflict, NotYourTurn, MatchOver) as exc:
        run.trail(match_id, f"turn refused: {type(exc).__name__}: {str(exc)[:120]}")
        return
    except GamehallError as exc:  # not acknowledged: it may or may not have been applied, both are fine
        run.trail(match_id, f"turn failed: {type(exc).__name__}")
        run.tally.error(exc, since, f"witness submit {match_id}")
        return
    run.trail(match_id, f"played at v{legal.version}: acknowledged v{reply.version}")
    run.acked.append((match_id, request_id, int(reply.version)))
    run.ack_times[request_id] = run.tally.now()


async def _one_match(run: Run, hall: Gamehall, index: int, creating: asyncio.Semaphore) -> None:
    cfg, tally = run.cfg, run.tally
    witness = cfg.witness_every > 0 and index % cfg.witness_every == 0
    seats = [open_seat() if witness else bot_seat(cfg.bot_level), bot_seat(cfg.bot_level)]
    since = tally.now()
    async with creating:
        try:
            match = await hall.matches.create("high-card", seat_specs=seats, join_seat=0 if witness else None)
        except GamehallError as exc:
            tally.failed += 1
            tally.error(exc, since, f"create #{index}")
            return
    tally.created.add(match.id)
    run.born[match.id] = since
    run.labels[match.id] = f"created at {since:.1f}s"
    if witness:
        await _witness_seat(run, hall, match.id)
    event = run.progress.waiter(match.id)
    while True:  # the log tells the end; a poll covers an end the subscriptions missed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), cfg.idle_seconds / 2)
            break
        with contextlib.suppress(GamehallError):
            if (await hall.matches.get(match.id)).status in ENDED:
                run.progress.ends.setdefault(match.id, tally.now())
                break
    tally.finished.add(match.id)  # ended (the store tells finished from aborted in the checks)


def _crashed(run: Run, index: int, task: asyncio.Task[None]) -> None:
    """A match's task that raised is a finding (the harness itself failed), not a silently stuck match."""
    if not task.cancelled() and (exc := task.exception()) is not None:
        run.tally.findings.append(f"match task #{index} raised {type(exc).__name__}: {str(exc)[:300]}")


async def drive(run: Run, address: str) -> None:
    """Hold `cfg.matches` matches in flight until the load time is over, then let the running ones end."""
    cfg = run.cfg
    hall = Gamehall.connect(address, timeout=cfg.call_timeout, retry=RETRY)
    async with hall:
        await hall.register(f"soak-cluster-{random.Random().getrandbits(32):08x}", PASSWORD)
        slots, creating = asyncio.Semaphore(cfg.matches), asyncio.Semaphore(cfg.creators)
        tasks: set[asyncio.Task[None]] = set()
        index = 0
        while run.tally.now() < cfg.load_seconds:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(slots.acquire(), max(0.01, cfg.load_seconds - run.tally.now()))
                task = asyncio.create_task(_one_match(run, hall, index, creating))
                task.add_done_callback(tasks.discard)
                task.add_done_callback(functools.partial(_crashed, run, index))
                task.add_done_callback(lambda _: slots.release())
                tasks.add(task)
                index += 1
        if tasks:
            _, pending = await asyncio.wait(set(tasks), timeout=cfg.drain_seconds)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)


# ------------------------------------------------------------------------------------------ faults
class Faults:
    """A thread injecting `cfg.faults` in order, one every `cfg.fault_every` seconds after the baseline."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._main, name="soak-cluster-faults", daemon=True)

    def __enter__(self) -> Faults:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _main(self) -> None:
        cfg, tally = self.run.cfg, self.run.tally
        for k, name in enumerate(cfg.faults):
            at = cfg.baseline_seconds + k * cfg.fault_every + cfg.fault_every / 6
            if self._stop.wait(max(0.0, at - tally.now())):
                return
            self._inject(k, name)

    def _inject(self, k: int, name: str) -> None:
        platform, tally = self.run.platform, self.run.tally
        label = name
        if name == "nats" and platform.cluster is not None:
            node = platform.cluster.leader_of(LOG_STREAM) or 1
            label = f"nats node {node} (log leader)"
        fault = Fault(label, tally.now())
        tally.faults.append(fault)
        try:
            if name == "nats" and platform.cluster is not None:
                platform.cluster.kill(node)
                time.sleep(self.run.cfg.nats_down)
                platform.cluster.start_node(node)
            elif name == "postgres":
                if self.run.postgres.restart is None:
                    raise RuntimeError(f"the {self.run.postgres.backend} PostgreSQL cannot be restarted here")
                self.run.postgres.restart(self.run.cfg.postgres_down)
            else:
                platform.restart(name, kill=True)
        except Exception as exc:  # a part that does not come back is a finding
            fault.error = f"{type(exc).__name__}: {exc}"
        fault.ready = tally.now()
        self.run.restarts[k] = fault.ready - fault.at


def recovery_after(progress: Progress, at: float, rate: float, horizon: float) -> float | None:
    """Seconds from `at` until a 1 s window holds `RECOVERED` x `rate` moves (None if not before `horizon`)."""
    need = RECOVERED * rate
    t = at
    while t <= at + horizon:
        if progress.moves_between(t, t + 1.0) >= need:
            return round(t - at, 1)
        t += 0.1
    return None


# ------------------------------------------------------------------------------------------ checks
async def dead_letters(url: str, limit: int = 20) -> list[str]:
    """What the consumers gave up on during the run (each one an event some service never handled)."""
    nc = await nats.connect(servers=url.split(","))
    try:
        js = nc.jetstream()
        state = (await js.stream_info(DEADLETTER_STREAM)).state
        count, first = int(state.messages or 0), int(state.first_seq or 1)
        found: list[str] = []
        for seq in range(first, first + count):
            if len(found) >= limit:
                found.append(f"... {count - limit} more")
                break
            with contextlib.suppress(Exception):
                msg = await js.get_msg(DEADLETTER_STREAM, seq)
                headers = {k: v for k, v in (msg.headers or {}).items() if k.startswith("Gamehall-")}
                found.append(f"{msg.subject} {headers}")
        return found
    finally:
        await nc.close()


async def check_after(run: Run) -> tuple[CheckReport, int]:
    """Every invariant on the stored matches; returns the report and how many matches are still going on."""
    cfg, tally = run.cfg, run.tally
    if not await wait_projected_at(run.platform.nats_url, timeout=60):
        tally.findings.append("the match log was not fully projected within 60 s of the load's end")
    stored = await read_postgres(run.postgres.dsn)
    report = check_stored(stored, (), tally.created)
    for letter in await dead_letters(run.platform.nats_url):
        report.record(False, f"dead-lettered: {letter}")
    check_liveness(stored, datetime.now(UTC), cfg.idle_seconds + IDLE_SLACK, report)
    check_no_bot_match_aborted(stored, report)
    check_ended_or_going_on(stored, tally.created, report)
    check_acknowledged(stored, run.acked, report, {r: f"{t:.1f}s" for r, t in run.ack_times.items()})
    for k, problem in enumerate(report.problems):  # each match's story, to set beside the faults
        match_id = problem.split(":")[0].removeprefix("match ")
        if match_id in run.labels:
            report.problems[k] = f"{problem} [{_story(run, match_id, stored.get(match_id))}]"
    going_on = sum(1 for match_id in tally.created if match_id in stored and stored[match_id].status == "running")
    _ensure_game()
    finished = sorted(i for i in tally.created if i in stored and stored[i].status == "finished")
    await audit_sample(run.postgres.dsn, finished, report, cfg.audit_limit, cfg.seed)
    return report, going_on


def _story(run: Run, match_id: str, stored: StoredMatch | None) -> str:
    """When the match was created, what the store holds of its steps, and what its witness seat did."""
    parts = [run.labels[match_id]]
    if stored is not None:
        steps = f"{len(stored.versions)} steps stored"
        if stored.request_keys and stored.created_at and stored.last_step_at:
            seat, request_id = stored.request_keys[-1]
            late = (stored.last_step_at - stored.created_at).total_seconds()
            steps += f", the last v{stored.version} by seat {seat} ({request_id[:48]}) {late:.1f}s after creation"
        parts.append(steps)
    if match_id in run.trails:
        parts.append("witness: " + "; ".join(run.trails[match_id]))
    return " | ".join(parts)


# ------------------------------------------------------------------------------------------ the run
@contextlib.contextmanager
def cluster_platform(cfg: ClusterSoakConfig) -> Iterator[tuple[Platform, PostgresServer]]:
    """A local PostgreSQL (restartable) and the platform on it over a `cfg.nats_nodes` JetStream cluster."""
    with local_postgres(crash_safe=True) as postgres:
        # The platform's inactivity policy is the liveness policy: a match whose creation reply a fault lost is
        # one its witness seat never plays (a client that walked away), and the platform must end it.
        env = {"GAMEHALL_MATCH_IDLE_SECONDS": str(cfg.idle_seconds)}
        with bench_platform(postgres.dsn, nats_nodes=cfg.nats_nodes, env_extra=env) as platform:
            yield platform, postgres


async def _load(run: Run) -> None:
    stop = asyncio.Event()
    watcher = asyncio.create_task(watch_log(run, stop))
    try:
        await asyncio.sleep(0.5)  # the subscriptions are in place before the first match
        with Faults(run):
            await drive(run, run.platform.service("gateway").address)
    finally:
        stop.set()
        await watcher


def run_cluster_soak(cfg: ClusterSoakConfig) -> ClusterSoakReport:
    """Start PostgreSQL and the clustered platform, drive the load and the faults, check; stop everything."""
    started = time.monotonic()
    with cluster_platform(cfg) as (platform, postgres):
        echo = asyncio.run(echo_p50_ms(platform))
        tally = Tally(slack=FAULT_SLACK)
        run = Run(cfg, platform, postgres, tally, Progress(tally.started))
        try:
            asyncio.run(_load(run))
            checks, going_on = asyncio.run(check_after(run))
            dead = platform.dead()
        finally:
            if cfg.logs:
                shutil.copytree(platform.data_dir / "logs", cfg.logs, dirs_exist_ok=True)
    return _report(run, checks, going_on, echo, dead, time.monotonic() - started)


def _report(
    run: Run, checks: CheckReport, going_on: int, echo: float, dead: list[str], elapsed: float
) -> ClusterSoakReport:
    cfg, tally, progress = run.cfg, run.tally, run.progress
    window = cfg.baseline_seconds - cfg.warmup
    base_rate = progress.ends_between(cfg.warmup, cfg.baseline_seconds) / window
    move_rate = progress.moves_between(cfg.warmup, cfg.baseline_seconds) / window
    fault_window = cfg.fault_every * len(cfg.faults)
    fault_rate = progress.ends_between(cfg.baseline_seconds, cfg.load_seconds) / fault_window if fault_window else 0.0
    durations = [progress.ends[i] - t for i, t in run.born.items() if i in progress.ends and t < cfg.baseline_seconds]
    recoveries = [
        Recovery(
            f.service, round(f.at, 1), run.restarts.get(k), recovery_after(progress, f.at, move_rate, cfg.fault_every)
        )
        for k, f in enumerate(tally.faults)
    ]
    findings = list(tally.findings) + checks.problems
    findings += [f"fault {f.service} at {f.at:.1f}s: {f.error}" for f in tally.faults if f.error]
    findings += [f"{name} exited on its own" for name in dead]
    if base_rate <= 0:
        findings.append("no match ended in the fault-free window: nothing was measured")
    ended = sum(1 for i in tally.created if i in progress.ends)
    load = os.getloadavg()
    return ClusterSoakReport(
        config={k: v for k, v in cfg.__dict__.items()},
        load_average=load,
        echo_p50_ms=round(echo, 3),
        created=len(tally.created),
        ended=ended,
        witness_acked=len(run.acked),
        moves=len(progress.moves),
        baseline_matches_per_s=round(base_rate, 2),
        fault_matches_per_s=round(fault_rate, 2),
        baseline_moves_per_s=round(move_rate, 1),
        match_duration_s=round(statistics.median(durations), 2) if durations else float("nan"),
        recoveries=recoveries,
        matches_checked=checks.matches_checked,
        checks_passed=checks.passed,
        checks_failed=checks.failed,
        audited=checks.audited,
        going_on=going_on,
        errors=dict(sorted(tally.errors.items())),
        findings=findings,
        tolerated=list(tally.tolerated),
        elapsed=round(elapsed, 1),
    )


def _ratio(a: float | None, b: float) -> str:
    return f"{a / b:.2f}" if a is not None and b and b == b else "-"


def print_report(report: ClusterSoakReport, console: Console | None = None) -> None:
    cfg = report.config
    table = Table(title="gamehall soak: faults at tournament scale", show_header=True)
    table.add_column("metric")
    table.add_column("value", justify="right")
    rate_ratio = _ratio(report.fault_matches_per_s, report.baseline_matches_per_s)
    rows = [
        ("platform", f"PostgreSQL, {cfg['nats_nodes']}-node JetStream cluster (R3), bots '{cfg['bot_level']}'"),
        ("concurrent matches held", f"{cfg['matches']} (1 in {cfg['witness_every']} with a witness seat)"),
        ("load average (1/5/15 min)", " / ".join(f"{x:.2f}" for x in report.load_average)),
        ("unloaded echo p50", f"{report.echo_p50_ms:.2f} ms"),
        ("matches created / ended", f"{report.created} / {report.ended} ({report.going_on} still going on)"),
        ("moves logged", str(report.moves)),
        ("fault-free matches/s", f"{report.baseline_matches_per_s:.2f} ({report.baseline_moves_per_s:.0f} moves/s)"),
        ("matches/s under faults", f"{report.fault_matches_per_s:.2f} ({rate_ratio} x fault-free)"),
        ("fault-free match duration p50", f"{report.match_duration_s:.2f} s"),
        ("acknowledged witness actions", str(report.witness_acked)),
        ("invariant checks", f"{report.checks_passed} passed, {report.checks_failed} failed"),
        ("matches checked / audited", f"{report.matches_checked} / {report.audited}"),
        ("errors by kind", ", ".join(f"{k} {v}" for k, v in report.errors.items()) or "none"),
        ("findings", str(len(report.findings))),
        ("elapsed", f"{report.elapsed:.0f} s"),
    ]
    for name, value in rows:
        table.add_row(name, value)
    faults = Table(title="recovery per fault", show_header=True)
    for column in ("fault", "at", "back ready", "recovery", "x match duration", "x echo p50"):
        faults.add_column(column, justify="right")
    for r in report.recoveries:
        faults.add_row(
            r.fault,
            f"{r.at:.0f} s",
            f"{r.restart_s:.1f} s" if r.restart_s is not None else "-",
            f"{r.recovery_s:.1f} s" if r.recovery_s is not None else "not within the interval",
            _ratio(r.recovery_s, report.match_duration_s),
            _ratio(r.recovery_s * 1000 if r.recovery_s is not None else None, report.echo_p50_ms),
        )
    console = console or Console(width=140)
    console.print(table)
    console.print(faults)
    for line in report.tolerated[:20]:
        console.print(f"[yellow]explained by a fault[/yellow] {line}")
    if len(report.tolerated) > 20:
        console.print(f"[yellow]... {len(report.tolerated) - 20} more explained by a fault[/yellow]")
    for finding in report.findings:
        console.print(f"[red]finding[/red] {finding}")


def as_json(report: ClusterSoakReport) -> dict[str, Any]:
    data = dict(report.__dict__)
    data["recoveries"] = [r.__dict__ for r in report.recoveries]
    return data


def parse_args(argv: list[str] | None = None) -> tuple[ClusterSoakConfig, bool]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=500, help="concurrent matches held")
    parser.add_argument("--baseline", type=float, default=60.0, help="seconds of fault-free load first")
    parser.add_argument("--fault-every", type=float, default=30.0, help="seconds between faults")
    parser.add_argument("--faults", default=",".join(FAULTS), help=f"comma separated, in order, of {FAULTS}")
    parser.add_argument("--nats-down", type=float, default=5.0, help="seconds a killed NATS node stays down")
    parser.add_argument("--witness-every", type=int, default=10, help="every n-th match has a harness seat")
    parser.add_argument("--bot-level", default="random", help="difficulty of the bot seats")
    parser.add_argument("--idle", type=float, default=60.0, help="liveness: a running match steps this often")
    parser.add_argument("--drain", type=float, default=120.0, help="seconds the last matches get to end")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--logs", default="", help="copy every process's log into this folder at the end")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    faults = tuple(f for f in args.faults.split(",") if f)
    unknown = [f for f in faults if f not in FAULTS]
    if unknown:
        parser.error(f"unknown faults {unknown}; known: {FAULTS}")
    cfg = ClusterSoakConfig(
        matches=args.matches,
        baseline_seconds=args.baseline,
        fault_every=args.fault_every,
        faults=faults,
        nats_down=args.nats_down,
        witness_every=args.witness_every,
        bot_level=args.bot_level,
        idle_seconds=args.idle,
        drain_seconds=args.drain,
        seed=args.seed,
        logs=args.logs,
    )
    return cfg, args.json


def main(argv: list[str] | None = None) -> int:
    cfg, want_json = parse_args(argv)
    report = run_cluster_soak(cfg)
    if want_json:
        print(json.dumps(as_json(report), indent=2, default=str))
    else:
        print_report(report)
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
