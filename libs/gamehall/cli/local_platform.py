"""A throwaway embedded platform for one command (`tournament --simulate`, `play --local`).

SIGTERM is turned into `SystemExit` while the platform is up, so the command's cleanup runs and
no service process outlives it (Python's default SIGTERM ends the process without `finally`).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

from gamehall.launcher.platform import Platform


@contextlib.contextmanager
def temporary_platform(
    game: str, *, keep: Path | None, prefix: str, operator_password: str | None = None
) -> Iterator[Platform]:
    """A platform hosting only `game` on free ports with fresh secrets (not started yet); stopped on
    exit, and its data folder removed unless it is `keep`."""
    data_dir = keep or Path(tempfile.mkdtemp(prefix=prefix))
    platform = Platform(
        data_dir=data_dir,
        games=[game],
        fixed_ports=False,
        extra_env={
            "GAMEHALL_TOKEN_KEY": secrets.token_urlsafe(48),
            "GAMEHALL_OPERATOR_PASSWORD": operator_password or secrets.token_urlsafe(18),
            "GAMEHALL_LOG_LEVEL": os.environ.get("GAMEHALL_LOG_LEVEL", "warning"),
        },
    )
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _exit_on_sigterm) if main else None
    try:
        yield platform
    finally:
        platform.stop()
        if keep is None:
            shutil.rmtree(data_dir, ignore_errors=True)
        if main:
            signal.signal(signal.SIGTERM, previous)


def _exit_on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)
