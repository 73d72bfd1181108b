"""Issue 36's acceptance under load: the database goes away and nothing acknowledged is lost.

Players (pairs, and players against the ai's bots) keep playing high-card matches through the gateway while
- PostgreSQL is stopped for 60 s (`test_postgres_stopped_for_a_minute`), or
- the disks under the SQLite file and under every service's log fill up for 30 s (`test_full_disks_for_30_s`).
During the fault: the projection's health is NOT_SERVING, its lag metrics grow and the chart's alerts fire on
the scraped metrics; clients meet only statuses they can retry (never INTERNAL or UNKNOWN). Afterwards: every
acknowledged move is in SQL exactly once, every match finished there, and the projection caught up within a
minute. Before the fix the projection dropped entries after 20 deliveries (8 and 183 moves lost in 25 s
outages), and a full disk killed the projection task for good.
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2

from gamehall.launcher.platform import Platform
from gamehall.testing.postgres import local_postgres
from tests.e2e.client import Client
from tests.e2e.conftest import AUTH_UNLIMITED, TOKEN_KEY
from tests.e2e.outage_load import NEVER, Load, metric, projection_health, scrape, wait_caught_up
from tests.support.alerts import firing
from tests.support.processes import repo_env

pytestmark = pytest.mark.integration
SCALE = float(os.environ.get("GAMEHALL_OUTAGE_SCALE", "1"))
"""`make soak` runs these faults three times as long (GAMEHALL_OUTAGE_SCALE=3)."""
PROJECTION_ALERTS = {"GamehallProjectionWaiting", "GamehallProjectionBehind"}


@contextlib.contextmanager
def _platform(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **env: str) -> Iterator[Platform]:
    for key, value in repo_env().items():
        monkeypatch.setenv(key, value)
    platform = Platform(
        data_dir=tmp_path / "platform",
        games=["high-card"],
        fixed_ports=False,
        extra_env={"GAMEHALL_TOKEN_KEY": TOKEN_KEY, "GAMEHALL_AI_ACK_WAIT_SECONDS": "3", **AUTH_UNLIMITED, **env},
    )
    platform.start()
    try:
        yield platform
    finally:
        platform.stop()


def _during_the_fault(platform: Platform, load: Load, seconds: float, lag_alert_after: float) -> dict[str, object]:
    """Watch the platform through a fault of `seconds`: what health, metrics and the chart's alerts said."""
    started = time.monotonic()
    seen: dict[str, object] = {"not_serving": False, "alerts": set(), "max_lag_s": 0.0, "max_lag_entries": 0.0}
    moves_at_start = load.moves
    while time.monotonic() - started < seconds:
        time.sleep(2.0)
        text = scrape(platform, "persistence")
        seen["max_lag_s"] = max(float(seen["max_lag_s"]), metric(text, "gamehall_match_log_projection_lag_seconds"))
        seen["max_lag_entries"] = max(
            float(seen["max_lag_entries"]), metric(text, "gamehall_match_log_projection_lag_entries")
        )
        if projection_health(platform) == health_pb2.HealthCheckResponse.NOT_SERVING:
            seen["not_serving"] = True
        seen["alerts"] = set(seen["alerts"]) | firing(text, only=PROJECTION_ALERTS)  # type: ignore[arg-type]
    seen["moves_during"] = load.moves - moves_at_start
    seen["lag_alert_expected"] = seconds > lag_alert_after
    return seen


def _check(seen: dict[str, object], load: Load) -> None:
    assert seen["not_serving"], f"the projection never said it was waiting: {seen} {dict(load.codes)} {load.moves}"
    assert "GamehallProjectionWaiting" in seen["alerts"], seen  # type: ignore[operator]
    if seen["lag_alert_expected"]:
        assert "GamehallProjectionBehind" in seen["alerts"], seen  # type: ignore[operator]
    assert float(seen["max_lag_entries"]) > 0 and float(seen["max_lag_s"]) > 10, seen
    assert int(seen["moves_during"]) > 0, "no move was acknowledged during the fault: the test proves nothing"
    assert not {code for code in load.codes if grpc.StatusCode[code] in NEVER}, load.codes


def test_postgres_stopped_for_a_minute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with (
        local_postgres(crash_safe=True) as postgres,
        _platform(tmp_path, monkeypatch, GAMEHALL_DATABASE_URL=postgres.dsn) as platform,
    ):
        assert postgres.stop is not None and postgres.start is not None
        gateway = Client(grpc.insecure_channel(platform.service("gateway").address))
        load = Load(gateway, think=12.0, retry_for=150 * SCALE)
        load.start(pairs=3, against_bots=3, prepared=3)  # a move a match every 12 s: rounds go on into the outage
        time.sleep(1)
        postgres.stop()
        try:
            seen = _during_the_fault(platform, load, 60.0 * SCALE, lag_alert_after=35)
        finally:
            postgres.start()
        back_at = time.monotonic()
        caught_up = _steady(platform, back_at)
        time.sleep(1)  # play goes on after the outage too
        load.stop()
        wait_caught_up(platform)
        load.verify(platform)
        _check(seen, load)
        during = seen["moves_during"]
        print(f"\n[outage] postgres {60 * SCALE:.0f} s: {load.moves} moves acknowledged, {during} during the outage;")
        print(f"[outage] projection lag peaked at {seen['max_lag_s']:.0f} s / {seen['max_lag_entries']:.0f} entries,")
        print(f"[outage] caught up {caught_up:.1f} s after PostgreSQL was back; statuses {dict(load.codes)}")
        assert caught_up < 60


def _steady(platform: Platform, since: float, timeout: float = 60.0) -> float:
    """Seconds from `since` until the projection stops waiting and runs less than 2 s behind."""
    while time.monotonic() - since < timeout:
        text = scrape(platform, "persistence")
        if metric(text, "gamehall_consumer_waiting", stream="GAMEHALL_MATCHLOG") == 0 and (
            metric(text, "gamehall_match_log_projection_lag_seconds") < 2
        ):
            return time.monotonic() - since
        time.sleep(0.25)
    raise AssertionError("the projection did not catch up within a minute of the database coming back")


@contextlib.contextmanager
def _small_disk(path: Path, size_mb: int) -> Iterator[Path]:
    """A tmpfs of `size_mb` mounted at `path` (root only: CI runs as root)."""
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mb}m", "tmpfs", str(path)], check=True)
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def _fill(disk: Path) -> Path:
    """Write a filler file until the disk is full; returns it (removing it makes room again)."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (1 << 20, 4096, 512):  # unbuffered: the last partial blocks too
            while True:
                try:
                    os.write(fd, b"\0" * size)
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC
                    break
    finally:
        os.close(fd)
    return filler


@pytest.mark.skipif(os.geteuid() != 0, reason="mounts a small tmpfs to fill (needs root, as CI has)")
def test_full_disks_for_30_s(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with (
        _small_disk(tmp_path / "database", 64) as database,
        _small_disk(tmp_path / "platform" / "logs", 32) as logs,
        _platform(tmp_path, monkeypatch, GAMEHALL_DATABASE_URL=f"sqlite:///{database / 'gamehall.db'}") as platform,
    ):
        gateway = Client(grpc.insecure_channel(platform.service("gateway").address))
        load = Load(gateway, think=6.0, retry_for=150 * SCALE)
        load.start(pairs=3, against_bots=3, prepared=3)
        time.sleep(1)
        fillers = [_fill(database), _fill(logs)]
        full_at = time.monotonic()
        try:
            seen = _during_the_fault(platform, load, 30.0 * SCALE, lag_alert_after=60)
        finally:
            for filler in fillers:
                filler.unlink()
        caught_up = _steady(platform, time.monotonic())
        time.sleep(1)
        load.stop()
        wait_caught_up(platform)
        load.verify(platform)
        _check(seen, load)
        services = [s.definition.name for s in platform.services]
        lost = sum(metric(scrape(platform, name), "gamehall_log_lines_lost_total") for name in services)
        assert lost > 0, "no service met the full log disk: the test proves nothing"
        assert platform.dead() == [], "a service died of the full disk"
        assert time.monotonic() - full_at < 180 * SCALE
        during = seen["moves_during"]
        print(f"\n[outage] full disks {30 * SCALE:.0f} s: {load.moves} moves acknowledged, {during} during;")
        print(f"[outage] {lost:.0f} log lines lost and counted; caught up {caught_up:.1f} s after; {dict(load.codes)}")
        assert caught_up < 60

