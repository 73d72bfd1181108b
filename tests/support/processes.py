"""Finding processes that mention a path (to prove a stopped platform left no orphan)."""

from __future__ import annotations

import os
from pathlib import Path


def processes_mentioning(marker: str) -> list[int]:
    """PIDs (other than ours) whose command line or environment contains `marker`."""
    found = []
    needle = marker.encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle in (entry / "cmdline").read_bytes() or needle in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def repo_env() -> dict[str, str]:
    """Environment for child processes that must import the test fixture game."""
    root = str(Path(__file__).resolve().parents[2])
    path = os.environ.get("PYTHONPATH", "")
    return {
        "PYTHONPATH": f"{root}{os.pathsep}{path}" if path else root,
        "GAMEHALL_GAME_MODULES": "tests.fixtures.high_card:GAME",
    }
