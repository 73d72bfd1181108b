"""A service's background loop (a relay, a sweeper): started with the service, cancelled on stop."""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod


class BackgroundLoop(ABC):
    """Subclasses implement `_run` (normally an endless loop); `stop` cancels it and waits."""

    _task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    @abstractmethod
    async def _run(self) -> None: ...
