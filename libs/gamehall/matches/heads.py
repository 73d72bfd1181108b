"""The store's status and version of the matches an owner is about to extend, read many at a time.

Before it logs a match's first move, an owner checks its copy against the store (`MatchCache.unclosed`: a close
at version 0 leaves nothing in the log once it is projected and purged). Matches start together (a tournament
round, the bench's 200 tables), and one read each cost the store more than the moves that followed. Here the
checks that come while a read is under way go together in the next one, as the play stream does with moves:
one check alone goes at once, many share a read. The read itself is passed in (`services/rules/ports.py`
reads persistence's GetMatchHeads).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from gamehall.matches.errors import NoSuchMatch

MAX_PER_READ = 500
"""The store answers at most this many matches in one read."""

Head = tuple[str, int]
"""(status, version)."""
ReadHeads = Callable[[list[str]], Awaitable[dict[str, Head | BaseException]]]
"""Read the heads of these matches: each found one's head or error; a match missing from the answer is unknown."""


class MatchHeads:
    """`head(match_id)`: the match's (status, version) in the store, checks that come together read together."""

    def __init__(self, read: ReadHeads, again: Callable[[Exception], Exception] = lambda exc: exc) -> None:
        self._read = read
        self._again = again
        """The error each waiting call raises when a read failed with this one (each its own: see `_settle`)."""
        self._waiting: dict[str, list[asyncio.Future[Head]]] = {}
        self._reader: asyncio.Task[None] | None = None

    async def head(self, match_id: str) -> Head:
        """(status, version) of the match; `NoSuchMatch` when the store has none."""
        answer: asyncio.Future[Head] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(match_id, []).append(answer)
        if self._reader is None or self._reader.done():
            self._reader = asyncio.create_task(self._read_waiting())
        return await answer

    async def _read_waiting(self) -> None:
        """Read whatever waits, a batch at a time, until nothing does."""
        while self._waiting:
            batch = {}
            for match_id in list(self._waiting)[:MAX_PER_READ]:
                batch[match_id] = [f for f in self._waiting.pop(match_id) if not f.done()]
            wanted = [match_id for match_id, waiting in batch.items() if waiting]
            if not wanted:
                continue
            try:
                found = await self._read(wanted)
            except Exception as exc:  # each waiting call fails as its own read would have
                _settle(batch, exc, self._again)
                continue
            for match_id, waiting in batch.items():
                head = found.get(match_id)
                for answer in waiting:
                    if answer.done():
                        continue
                    if isinstance(head, BaseException):
                        answer.set_exception(head)
                    elif head is None:
                        answer.set_exception(_not_found(match_id))
                    else:
                        answer.set_result(head)


def _settle(
    batch: dict[str, list[asyncio.Future[Head]]], exc: Exception, again: Callable[[Exception], Exception]
) -> None:
    """Fail every call of a batch whose read failed (the failure made anew for each: a raised exception gathers
    its traceback, and each call raises its own)."""
    for waiting in batch.values():
        for answer in waiting:
            if not answer.done():
                answer.set_exception(again(exc))


def _not_found(match_id: str) -> NoSuchMatch:
    return NoSuchMatch(f"no match {match_id}")


__all__ = ["MAX_PER_READ", "Head", "MatchHeads", "ReadHeads"]
