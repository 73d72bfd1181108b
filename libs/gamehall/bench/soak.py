"""Soak and fault test: `python -m gamehall.bench.soak [--seconds 60] [--tables 8] [--faults] [--json]`.

The whole platform runs as local processes (SQLite, the fixture game high-card). K tables play
matches through the SDK until the time is up, each table two accounts playing one match after
another; with `--faults`, a thread SIGKILLs and restarts one service every `--fault-every`
seconds, round-robin. Afterwards the stored matches are checked (see `soak_checks`), liveness too:
the platform runs with a short inactivity policy (`--idle`), so a match a failed table walked away
from must have been ended by it, and no full match may be left open. Exits 1 on any finding: an
invariant violated, a stuck match, or an error no fault explains.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from rich.console import Console
from rich.table import Table

from gamehall.bench.e2e import FIXTURE, bench_platform
from gamehall.bench.soak_checks import (
    CheckReport,
    audit_sample,
    check_database,
    check_liveness,
    finished_ids,
    read_sqlite,
)
from gamehall.engine import UnknownGame, get_game, register
from gamehall.engine.registry import load_reference
from gamehall.launcher.platform import Platform
from gamehall.runtime.matchlog import wait_projected_at
from gamehall_sdk import Gamehall, GamehallError, RetryPolicy, play_seat, random_policy
from gamehall_sdk.v1 import match_pb2

FAULT_ORDER = ("gateway", "persistence", "rules-high-card", "ai", "matchmaking")
"""Round-robin order of the services killed (those the platform runs)."""
TOLERATED = frozenset({"Unavailable", "DeadlineExceeded"})
"""Errors that are no finding when the failed match overlapped a fault."""
FAULT_SLACK = 2.0
"""Seconds after a restart is ready during which a fault still explains an error."""
PASSWORD = "soak password 2026"
RETRY = RetryPolicy(attempts=12, backoff=0.1, max_backoff=1.0)
"""Rides out a restarting service (about 9 s) on idempotent calls."""


@dataclass(frozen=True)
class SoakConfig:
    seconds: float = 60.0
    tables: int = 8
    faults: bool = False
    fault_every: float = 10.0
    match_timeout: float = 30.0
    """A match not over this long after its start is stuck (a finding); also the grace at the end."""
    call_timeout: float = 10.0
    audit_limit: int = 20
    seed: int = 2026
    idle_seconds: float = 30.0
    """The platform's inactivity policy here (GAMEHALL_MATCH_IDLE_SECONDS): a running match nobody moves in
    for this long ends aborted; liveness allows it `IDLE_SLACK` more."""


IDLE_SLACK = 10.0
"""Seconds past the inactivity policy before a running match without a step is a finding (the owner's
timer firing late under load, a restart of the replica that ends it)."""


@dataclass
class Fault:
    service: str
    at: float
    """Seconds since the load started."""
    ready: float | None = None
    """When the restarted service answered again (None while restarting)."""
    error: str = ""


@dataclass
class Tally:
    """What the tables saw (one event loop writes it; the fault thread only appends to `faults`)."""

    started: float = field(default_factory=time.monotonic)
    created: set[str] = field(default_factory=set)
    finished: set[str] = field(default_factory=set)
    failed: int = 0
    actions: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    findings: list[str] = field(default_factory=list)
    tolerated: list[str] = field(default_factory=list)
    """Errors a fault explains (reported, no finding)."""
    faults: list[Fault] = field(default_factory=list)
    slack: float = FAULT_SLACK
    """Seconds after a restart is ready during which the fault still explains an error."""

    def now(self) -> float:
        return time.monotonic() - self.started

    def explained(self, since: float) -> bool:
        """True when a fault overlapped the interval [since, now]."""
        now = self.now()
        return any(f.at <= now and since <= (f.ready if f.ready is not None else now) + self.slack for f in self.faults)

    def error(self, exc: BaseException, since: float, what: str) -> None:
        kind = type(exc).__name__
        self.errors[kind] += 1
        line = f"{what}: {kind}: {exc} at {self.now():.1f}s"
        (self.tolerated if kind in TOLERATED and self.explained(since) else self.findings).append(line)


@dataclass
class SoakReport:
    seconds: float
    elapsed: float
    tables: int
    matches_finished: int
    matches_failed: int
    actions: int
    actions_per_s: float
    faults: list[Fault]
    errors: dict[str, int]
    matches_checked: int
    checks_passed: int
    checks_failed: int
    audited: int
    findings: list[str]
    tolerated: list[str]
    created_ids: list[str] = field(repr=False)
    checked_ids: list[str] = field(repr=False)


class FaultInjector:
    """A thread that SIGKILLs and restarts one service every `every` seconds, round-robin."""

    def __init__(self, platform: Platform, every: float, until: float, tally: Tally) -> None:
        running = {s.definition.name for s in platform.services}
        self.names = [n for n in FAULT_ORDER if n in running]
        self.platform, self.every, self.until, self.tally = platform, every, until, tally
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="soak-faults", daemon=True)

    def __enter__(self) -> FaultInjector:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        """No further fault; waits for a restart in progress."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        k = 0
        while (k + 1) * self.every < self.until:
            if self._stop.wait(max(0.0, (k + 1) * self.every - self.tally.now())):
                return
            self._inject(self.names[k % len(self.names)])
            k += 1

    def _inject(self, name: str) -> None:
        fault = Fault(name, self.tally.now())
        self.tally.faults.append(fault)
        try:
            self.platform.restart(name, kill=True)
        except Exception as exc:  # a service that does not come back is a finding
            fault.error = f"{type(exc).__name__}: {exc}"
        fault.ready = self.tally.now()


async def _register(hall: Gamehall, name: str, tally: Tally, deadline: float) -> bool:
    """Register a fresh account (a new name per attempt: a lost reply may have taken the last one)."""
    while tally.now() < deadline:
        since = tally.now()
        try:
            await hall.register(f"{name}-{os.urandom(3).hex()}", PASSWORD)
            return True
        except GamehallError as exc:
            tally.error(exc, since, f"register {name}")
            await asyncio.sleep(0.5)
    return False


async def _play_both(a: Gamehall, b: Gamehall, match_id: str, rng: random.Random) -> match_pb2.Match:
    tasks = [asyncio.create_task(play_seat(h, match_id, seat, random_policy(rng))) for seat, h in enumerate((a, b))]
    try:
        finals = await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return finals[0]


async def _one_match(a: Gamehall, b: Gamehall, rng: random.Random, tally: Tally, cfg: SoakConfig) -> None:
    since, match_id, stage = tally.now(), "", "create"
    try:
        match = await a.matches.create("high-card", join_seat=0)
        match_id, stage = match.id, "join"
        tally.created.add(match_id)
        await b.matches.join(match_id, 1)
        stage = "play"
        final = await asyncio.wait_for(_play_both(a, b, match_id, rng), cfg.match_timeout)
    except TimeoutError:
        tally.failed += 1
        tally.errors["StuckMatch"] += 1
        tally.findings.append(f"match {match_id}: not over {cfg.match_timeout:.0f}s after its start ({since:.1f}s)")
        return
    except Exception as exc:
        tally.failed += 1
        tally.error(exc, since, f"match {match_id or '-'} ({stage})")
        return
    if final.status == match_pb2.MATCH_STATUS_FINISHED:
        tally.finished.add(match_id)
    tally.actions += final.version


async def _table(index: int, address: str, tally: Tally, cfg: SoakConfig) -> None:
    rng = random.Random(cfg.seed * 1000 + index)
    a = Gamehall.connect(address, timeout=cfg.call_timeout, retry=RETRY)
    b = Gamehall.connect(address, timeout=cfg.call_timeout, retry=RETRY)
    async with a, b:
        for hall, seat in ((a, "a"), (b, "b")):
            if not await _register(hall, f"soak-{index}-{seat}", tally, cfg.seconds):
                return
        while tally.now() < cfg.seconds:
            await _one_match(a, b, rng, tally, cfg)


async def drive(address: str, tally: Tally, cfg: SoakConfig) -> None:
    """Run the tables until `cfg.seconds` have passed and their last matches are over."""
    await asyncio.gather(*(_table(i, address, tally, cfg) for i in range(cfg.tables)))


async def _load(platform: Platform, tally: Tally, cfg: SoakConfig) -> None:
    load = asyncio.ensure_future(drive(platform.service("gateway").address, tally, cfg))
    if not cfg.faults:
        await load
        return
    with FaultInjector(platform, cfg.fault_every, cfg.seconds, tally) as injector:
        await asyncio.wait([load], timeout=max(0.0, cfg.seconds - tally.now()))
        await asyncio.to_thread(injector.stop)  # no fault during the grace: in-flight matches end undisturbed
    await load


def _ensure_game() -> None:
    try:
        get_game("high-card")
    except UnknownGame:
        register(load_reference(FIXTURE))


def _checks(platform: Platform, tally: Tally, cfg: SoakConfig) -> CheckReport:
    db = platform.data_dir / "gamehall.db"
    if not asyncio.run(wait_projected_at(platform.nats_url)):  # SQL is the log's projection, milliseconds behind
        tally.findings.append("the match log was not fully projected within 30 s of the load's end")
    report = check_database(db, tally.finished, tally.created)
    check_liveness(read_sqlite(db), datetime.now(UTC), cfg.idle_seconds + IDLE_SLACK, report)
    _ensure_game()
    asyncio.run(audit_sample(f"sqlite:///{db}", finished_ids(db), report, cfg.audit_limit, cfg.seed))
    return report


def _report(tally: Tally, checks: CheckReport, elapsed: float, cfg: SoakConfig, dead: list[str]) -> SoakReport:
    findings = list(tally.findings) + checks.problems
    findings += [f"fault {f.service} at {f.at:.1f}s: {f.error}" for f in tally.faults if f.error]
    findings += [f"{name} exited on its own" for name in dead]
    return SoakReport(
        seconds=cfg.seconds,
        elapsed=round(elapsed, 1),
        tables=cfg.tables,
        matches_finished=len(tally.finished),
        matches_failed=tally.failed,
        actions=tally.actions,
        actions_per_s=round(tally.actions / elapsed, 1) if elapsed else 0.0,
        faults=list(tally.faults),
        errors=dict(sorted(tally.errors.items())),
        matches_checked=checks.matches_checked,
        checks_passed=checks.passed,
        checks_failed=checks.failed,
        audited=checks.audited,
        findings=findings,
        tolerated=list(tally.tolerated),
        created_ids=sorted(tally.created),
        checked_ids=sorted(checks.checked_ids),
    )


def run_soak(cfg: SoakConfig) -> SoakReport:
    """Start the platform, drive the load (and faults), check the stored matches; the platform is then stopped."""
    with bench_platform(env_extra={"GAMEHALL_MATCH_IDLE_SECONDS": str(cfg.idle_seconds)}) as platform:
        tally = Tally()
        asyncio.run(_load(platform, tally, cfg))
        elapsed = tally.now()
        return _report(tally, _checks(platform, tally, cfg), elapsed, cfg, platform.dead())


def as_json(report: SoakReport) -> dict[str, Any]:
    data = {k: v for k, v in report.__dict__.items() if k not in ("created_ids", "checked_ids")}
    data["faults"] = [f.__dict__ for f in report.faults]
    return data


def print_report(report: SoakReport, console: Console | None = None) -> None:
    table = Table(title="gamehall soak", show_header=True)
    table.add_column("metric")
    table.add_column("value", justify="right")
    faults = ", ".join(f"{f.service}@{f.at:.0f}s" for f in report.faults) or "-"
    rows = [
        ("duration", f"{report.seconds:.0f} s (elapsed {report.elapsed:.1f} s)"),
        ("tables", str(report.tables)),
        ("matches finished", f"{report.matches_finished} ({report.matches_failed} failed)"),
        ("actions", str(report.actions)),
        ("actions/s", f"{report.actions_per_s:.1f}"),
        ("faults injected", f"{len(report.faults)}: {faults}"),
        ("errors by kind", ", ".join(f"{k} {v}" for k, v in report.errors.items()) or "none"),
        ("invariant checks", f"{report.checks_passed} passed, {report.checks_failed} failed"),
        ("matches checked / audited", f"{report.matches_checked} / {report.audited}"),
        ("findings", str(len(report.findings))),
    ]
    for name, value in rows:
        table.add_row(name, value)
    console = console or Console()
    console.print(table)
    for line in report.tolerated:
        console.print(f"[yellow]explained by a fault[/yellow] {line}")
    for finding in report.findings:
        console.print(f"[red]finding[/red] {finding}")


def parse_args(argv: list[str] | None = None) -> tuple[SoakConfig, bool]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the tables start matches")
    parser.add_argument("--tables", type=int, default=8, help="concurrent tables (two accounts each)")
    parser.add_argument("--faults", action="store_true", help="SIGKILL and restart services during the load")
    parser.add_argument("--fault-every", type=float, default=10.0, help="seconds between faults")
    parser.add_argument("--match-timeout", type=float, default=30.0, help="seconds before a match counts as stuck")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the players' random policies")
    parser.add_argument("--idle", type=float, default=30.0, help="the platform's inactivity policy (seconds)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    cfg = SoakConfig(
        seconds=args.seconds,
        tables=args.tables,
        faults=args.faults,
        fault_every=args.fault_every,
        match_timeout=args.match_timeout,
        seed=args.seed,
        idle_seconds=args.idle,
    )
    return cfg, args.json


def main(argv: list[str] | None = None) -> int:
    cfg, want_json = parse_args(argv)
    report = run_soak(cfg)
    if want_json:
        print(json.dumps(as_json(report), indent=2))
    else:
        print_report(report)
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
