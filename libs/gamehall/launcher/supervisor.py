"""Keep an embedded platform running: a child that dies is started again, as a process supervisor would.

`gamehall run` used to stop everything when one child exited (kill -9 the ai, and the whole platform went
down). Now a child that exits on its own is restarted after a pause that doubles while it keeps dying soon after
its start (0.5 s, 1 s, ... at most 30 s) and goes back to the first pause once it has run `STABLE_SECONDS`.
Each restart is reported (the caller prints it) and logged to `<data dir>/logs/supervisor.log`. Only a child that
fails to start `MAX_FAILED_STARTS` times in a row makes the supervisor give up (`GaveUp`): then the platform
stops, since something needs a person.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from gamehall.launcher.platform import Platform
from gamehall.launcher.processes import LaunchError

BACKOFF_FIRST_SECONDS, BACKOFF_MAX_SECONDS = 0.5, 30.0
STABLE_SECONDS = 60.0
MAX_FAILED_STARTS = 5


class GaveUp(RuntimeError):
    """A child failed to start again `MAX_FAILED_STARTS` times in a row."""


@dataclass
class _Record:
    pause: float = BACKOFF_FIRST_SECONDS
    started_at: float = field(default_factory=time.monotonic)
    failed_starts: int = 0
    restarts: int = 0


@dataclass
class Supervisor:
    platform: Platform
    report: Callable[[str], None] = print
    poll_seconds: float = 0.5
    ready_timeout: float = 60.0
    max_failed_starts: int = MAX_FAILED_STARTS
    _records: dict[str, _Record] = field(default_factory=dict)

    @property
    def log_path(self) -> Path:
        return self.platform.data_dir / "logs" / "supervisor.log"

    def restarts(self, name: str) -> int:
        return self._records[name].restarts if name in self._records else 0

    def run(self) -> None:
        """Watch and restart until interrupted (a signal) or until a child cannot be started (`GaveUp`)."""
        while True:
            self.check()
            time.sleep(self.poll_seconds)

    def check(self) -> list[str]:
        """Restart every child that exited on its own; returns their names."""
        dead = self.platform.dead()
        for name in dead:
            self._restart(name)
        return dead

    def _restart(self, name: str) -> None:
        record = self._records.setdefault(name, _Record())
        if time.monotonic() - record.started_at >= STABLE_SECONDS:
            record.pause = BACKOFF_FIRST_SECONDS  # it had run fine for a while: this is a new failure
        code = self._exit_code(name)
        self._say(name, "exited", f"{name} exited (code {code}); restarting in {record.pause:g}s", code=code)
        while True:
            time.sleep(record.pause)
            record.pause = min(BACKOFF_MAX_SECONDS, record.pause * 2)
            try:
                self._start(name)
            except LaunchError as exc:
                record.failed_starts += 1
                first_line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                self._say(name, "start failed", f"{name} failed to start ({first_line})", attempt=record.failed_starts)
                if record.failed_starts >= self.max_failed_starts:
                    raise GaveUp(f"{name} failed to start {record.failed_starts} times in a row: {first_line}") from exc
                continue
            record.failed_starts = 0
            record.restarts += 1
            record.started_at = time.monotonic()
            self._say(name, "restarted", f"{name} restarted and ready (restart {record.restarts})")
            return

    def _start(self, name: str) -> None:
        if name == "nats-server":
            self.platform.restart_nats(kill=True, ready_timeout=self.ready_timeout)
        elif self.platform.cluster is not None and name in {n.child.name for n in self.platform.cluster.nodes}:
            index = next(i for i, n in enumerate(self.platform.cluster.nodes, 1) if n.child.name == name)
            self.platform.restart_nats(kill=True, ready_timeout=self.ready_timeout, node=index)
        else:
            self.platform.restart(name, kill=True, ready_timeout=self.ready_timeout)

    def _exit_code(self, name: str) -> int | None:
        if name == "nats-server" and self.platform.nats is not None and self.platform.nats.proc is not None:
            return self.platform.nats.proc.returncode
        for service in self.platform.services:
            if service.definition.name == name and service.child.proc is not None:
                return service.child.proc.returncode
        return None

    def _say(self, name: str, event: str, text: str, **fields: object) -> None:
        self.report(text)
        line = {"timestamp": datetime.now(UTC).isoformat(), "service": name, "event": event, **fields}
        try:
            with self.log_path.open("a") as out:
                out.write(json.dumps(line) + "\n")
        except OSError:  # a full disk must not stop the supervisor: the printed line still says it
            pass


__all__ = ["GaveUp", "Supervisor"]
