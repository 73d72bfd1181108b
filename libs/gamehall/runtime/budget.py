"""The time left to the call being served, so a call it makes upstream ends (and is answered) before it does.

The interceptor notes each incoming call's deadline (`serving_until`); `upstream_timeout` gives a nested call
the smaller of its own timeout and what is left less a margin for the answer's way back. A replica whose store is
slow then answers "the store did not answer in time" (UNAVAILABLE) within its caller's deadline, instead of
letting the caller's deadline run out and look like a dead replica (issue 36: a CreateMatch during a 20 s
SQLite lock waited out two deadlines, 19 s, and its healthy replica was skipped as hung).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from contextvars import ContextVar

_UNTIL: ContextVar[float | None] = ContextVar("gamehall_call_deadline", default=None)

MARGIN_SECONDS = 0.25
MARGIN_SHARE = 0.1
"""What a nested call leaves of the time remaining for its answer to travel back: the larger of the two."""
SHORTEST_SECONDS = 0.05


@contextlib.contextmanager
def serving_until(remaining: float | None) -> Iterator[None]:
    """Within this block, the call being served must be answered in `remaining` seconds (None: no deadline)."""
    token = _UNTIL.set(None if remaining is None else time.monotonic() + remaining)
    try:
        yield
    finally:
        _UNTIL.reset(token)


def remaining() -> float | None:
    """Seconds left to the call being served (None outside a call or without a deadline)."""
    until = _UNTIL.get()
    return None if until is None else until - time.monotonic()


def upstream_timeout(own: float) -> float:
    """The timeout for a call made while serving one: `own`, shortened to end before the caller's deadline."""
    left = remaining()
    if left is None:
        return own
    return max(SHORTEST_SECONDS, min(own, left - max(MARGIN_SECONDS, left * MARGIN_SHARE)))
