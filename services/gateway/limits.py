"""Per-account request rate and open watch streams (RESOURCE_EXHAUSTED when exceeded), and payload sizes
(INVALID_ARGUMENT, reason TOO_LARGE: waiting never makes a payload smaller).

The rate limit is a token bucket per account in each gateway replica: a replica holds no state
a restart would miss, and N replicas allow at most N times the rate (set the rate accordingly).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import grpc

from gamehall.runtime.errors import ClientError, too_large
from gamehall_sdk.v1 import common_pb2

MAX_ACTION_JSON_BYTES = 16 * 1024
MAX_REQUEST_ID_CHARS = 128
MAX_WATCHERS_PER_ACCOUNT = 64


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def exhausted(message: str, retry_after: float | None = None) -> ClientError:
    """RESOURCE_EXHAUSTED with reason RATE_LIMITED (and a RetryInfo: `retry_after` seconds, or the default)."""
    return ClientError(
        grpc.StatusCode.RESOURCE_EXHAUSTED, message, common_pb2.ERROR_REASON_RATE_LIMITED, retry_after=retry_after
    )


@dataclass
class RateLimiter:
    rate_per_second: float = field(default_factory=lambda: _env_float("GAMEHALL_GATEWAY_RATE_PER_SECOND", 200.0))
    burst: float = field(default_factory=lambda: _env_float("GAMEHALL_GATEWAY_RATE_BURST", 400.0))
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)

    def take(self, account_id: str) -> None:
        """Spend one request of `account_id`'s budget, or raise RESOURCE_EXHAUSTED."""
        now = time.monotonic()
        tokens, last = self._buckets.get(account_id, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate_per_second)
        if tokens < 1.0:
            wait = (1.0 - tokens) / max(self.rate_per_second, 1e-9)
            raise exhausted(f"too many requests: at most {self.rate_per_second:g} per second per account", wait)
        self._buckets[account_id] = (tokens - 1.0, now)
        if len(self._buckets) > 100_000:  # forget idle accounts
            cutoff = now - self.burst / max(self.rate_per_second, 1e-9)
            self._buckets = {k: v for k, v in self._buckets.items() if v[1] >= cutoff}


@dataclass
class WatchSlots:
    """Open watch streams (matches, tickets, standings) per account on this replica."""

    limit: int = field(
        default_factory=lambda: int(_env_float("GAMEHALL_GATEWAY_WATCHERS_PER_ACCOUNT", MAX_WATCHERS_PER_ACCOUNT))
    )
    _open: Counter[str] = field(default_factory=Counter)

    @contextlib.contextmanager
    def hold(self, account_id: str) -> Iterator[None]:
        """One stream's slot for as long as it is open, or RESOURCE_EXHAUSTED when the account has none left."""
        if self._open[account_id] >= self.limit:
            raise exhausted(f"too many open watch streams: at most {self.limit} per account; close one first")
        self._open[account_id] += 1
        try:
            yield
        finally:
            self._open[account_id] -= 1
            if self._open[account_id] <= 0:
                del self._open[account_id]


def check_action_payload(action_json: str, request_id: str) -> None:
    """Too large is INVALID_ARGUMENT (TOO_LARGE) with the limit, not a rate limit: a retry can never help."""
    size = len(action_json.encode())
    if size > MAX_ACTION_JSON_BYTES:
        raise too_large("action_json", size, MAX_ACTION_JSON_BYTES)
    if len(request_id) > MAX_REQUEST_ID_CHARS:
        raise too_large("request_id", len(request_id), MAX_REQUEST_ID_CHARS, "characters")
