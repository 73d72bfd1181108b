"""Child processes with readiness checks and a clean, orphan-free stop.

Each child runs in its own process group; `stop` sends SIGTERM to the group, waits for
the grace period and then SIGKILLs whatever is left, so no grandchild survives.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path


class LaunchError(RuntimeError):
    """A child process failed to start or to become ready."""


def tcp_ready(host: str, port: int) -> Callable[[], bool]:
    def check() -> bool:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            return False

    return check


@dataclass
class Child:
    """One supervised process."""

    name: str
    argv: Sequence[str]
    env: Mapping[str, str] = field(default_factory=dict)
    ready: Callable[[], bool] | None = None
    log_path: Path | None = None
    cwd: Path | None = None
    proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {**os.environ, **self.env}
        out = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115 - owned by the child
        try:
            self.proc = subprocess.Popen(
                list(self.argv), env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, cwd=self.cwd
            )
        finally:
            if out is not subprocess.DEVNULL:
                out.close()  # type: ignore[union-attr]

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise LaunchError(f"{self.name} exited with code {self.proc.returncode}{self._log_tail()}")
            if self.ready is None or self.ready():
                return
            time.sleep(0.05)
        raise LaunchError(f"{self.name} was not ready after {timeout:.0f}s{self._log_tail()}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def signal(self, sig: int) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, sig)

    def stop(self, grace: float = 10.0) -> int | None:
        """SIGTERM the process group, then SIGKILL after `grace` seconds; returns the exit code."""
        if self.proc is None:
            return None
        self.signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.signal(signal.SIGKILL)
            self.proc.wait(timeout=5)
        # The group may still hold grandchildren that ignored SIGTERM.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        return self.proc.returncode

    def _log_tail(self, lines: int = 15) -> str:
        if not self.log_path or not self.log_path.exists():
            return ""
        tail = self.log_path.read_text(errors="replace").splitlines()[-lines:]
        return "\n--- last lines of " + str(self.log_path) + " ---\n" + "\n".join(tail)


def python_module(module: str, *args: str) -> list[str]:
    """argv running `python -m module args` with this interpreter."""
    return [sys.executable, "-m", module, *args]
