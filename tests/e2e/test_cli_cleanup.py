"""A command that starts a temporary platform (`play --local`) and gets SIGTERM leaves no process behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.support.processes import processes_mentioning, repo_env


def test_sigterm_to_play_local_stops_its_whole_platform(tmp_path: Path) -> None:
    data = tmp_path / "platform"  # --keep: a folder every child's environment names
    env = {**os.environ, **repo_env(), "GAMEHALL_LOG_LEVEL": "warning"}
    argv = [sys.executable, "-m", "gamehall.cli.main", "play", "--local", "--game", "high-card", "--keep", str(data)]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        deadline = time.monotonic() + 120
        while len(processes_mentioning(str(data))) < 6:  # nats-server and five services at least
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < deadline, "the local platform did not come up"
            time.sleep(0.5)
        time.sleep(2)  # signed in and waiting for the player's move on stdin
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert code == 128 + signal.SIGTERM
    deadline = time.monotonic() + 10
    while processes_mentioning(str(data)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert processes_mentioning(str(data)) == []
