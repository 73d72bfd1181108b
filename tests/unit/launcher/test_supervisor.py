"""The embedded platform's supervisor on a fake platform: restarts with a doubling pause, gives up on a service
that keeps failing to start, and logs each step (issue 36: one dead child used to stop the whole platform)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gamehall.launcher import supervisor
from gamehall.launcher.processes import LaunchError
from gamehall.launcher.supervisor import GaveUp, Supervisor


class _Platform:
    """Only what the supervisor uses: which children died, and restarting one (failing `failures` times first)."""

    def __init__(self, data_dir: Path, failures: int = 0) -> None:
        self.data_dir = data_dir
        (data_dir / "logs").mkdir(parents=True)
        self.died = ["ai"]
        self.failures = failures
        self.restarted: list[str] = []
        self.services: list[Any] = []
        self.nats = None
        self.cluster = None

    def dead(self) -> list[str]:
        died, self.died = self.died, []
        return died

    def restart(self, name: str, *, kill: bool, ready_timeout: float) -> None:
        if self.failures:
            self.failures -= 1
            raise LaunchError(f"{name} exited with code 1\n--- last lines ---\ntraceback")
        self.restarted.append(name)


@pytest.fixture
def pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    slept: list[float] = []
    monkeypatch.setattr(supervisor.time, "sleep", slept.append)
    return slept


def test_a_dead_child_is_restarted_after_a_pause_that_doubles_while_it_fails(tmp_path: Path, pauses: list) -> None:
    platform = _Platform(tmp_path, failures=2)
    said: list[str] = []
    watcher = Supervisor(platform, report=said.append)  # type: ignore[arg-type]
    assert watcher.check() == ["ai"]
    assert platform.restarted == ["ai"] and watcher.restarts("ai") == 1
    assert pauses == [0.5, 1.0, 2.0]
    assert said[0] == "ai exited (code None); restarting in 0.5s"
    assert said[-1] == "ai restarted and ready (restart 1)"
    events = [json.loads(line)["event"] for line in (tmp_path / "logs" / "supervisor.log").read_text().splitlines()]
    assert events == ["exited", "start failed", "start failed", "restarted"]


def test_a_child_that_keeps_failing_to_start_makes_it_give_up(tmp_path: Path, pauses: list) -> None:
    platform = _Platform(tmp_path, failures=99)
    watcher = Supervisor(platform, report=lambda _: None, max_failed_starts=3)  # type: ignore[arg-type]
    with pytest.raises(GaveUp, match="ai failed to start 3 times in a row: ai exited with code 1"):
        watcher.check()
    assert pauses == [0.5, 1.0, 2.0]
