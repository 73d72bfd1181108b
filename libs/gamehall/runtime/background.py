"""A service's background loop (a relay, a retention pass): started with the service, cancelled on stop.

A loop that raises is not lost for good while health says SERVING: it is logged, counted
(`gamehall_background_loop_restarts_total{loop}`) and started again after a pause that doubles up to
`RESTART_MAX_SECONDS`.
"""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod

import structlog

from gamehall.runtime import metrics

log = structlog.get_logger("gamehall.background")

RESTART_FIRST_SECONDS, RESTART_MAX_SECONDS = 0.5, 30.0


class BackgroundLoop(ABC):
    """Subclasses implement `_run` (normally an endless loop); `stop` cancels it and waits."""

    _task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._supervised())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _supervised(self) -> None:
        """`_run` until it returns; started again (with a growing pause) whenever it raises."""
        pause = RESTART_FIRST_SECONDS
        name = type(self).__name__
        while True:
            try:
                await self._run()
                return
            except Exception as exc:
                metrics.BACKGROUND_RESTARTS.labels(name).inc()
                log.error("background loop failed; starting it again", loop=name, retry_in=pause, error=repr(exc)[:500])
                await asyncio.sleep(pause)
                pause = min(RESTART_MAX_SECONDS, pause * 2)

    @abstractmethod
    async def _run(self) -> None: ...
