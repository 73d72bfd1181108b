"""Limits on Login and Register (issue 20, finding 6): per client address, per username, with backoff.

Windows are moving windows of the `limits` library (in memory, per gateway replica: N replicas
allow N times the rate): Login attempts per address and per (username, address), Register calls per
address. Failed logins of one username from one address back off: after `free_failures` failures each
further attempt from that address must wait 1, 2, 4 ... seconds (at most `max_backoff`) after the last
failure; a success from that address clears it. Everything about a username is keyed with the client's
address too (issue 38), so a stranger who knows the operator's username can slow down only their own
attempts, never lock the operator out; a guesser is held back by the per-address window and the backoff
(and argon2's cost). A refusal is RESOURCE_EXHAUSTED with the wait in its message.

The address is the gRPC peer's, or the browser's as the web service vouches for it (web_client.py): so the
limits count browsers, not the web service's replicas.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import grpc
from cachetools import TTLCache
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from gamehall.runtime.errors import ClientError
from gamehall.runtime.settings import Settings
from gamehall.web import client_address as web_client
from gamehall_sdk.v1 import common_pb2


def _refused(message: str) -> ClientError:
    return ClientError(grpc.StatusCode.RESOURCE_EXHAUSTED, message, common_pb2.ERROR_REASON_RATE_LIMITED)


def _key(username: str, address: str) -> str:
    """Usernames match without regard to case (the store's username key): so do their limits; always per
    client address (a stranger's failures never count against the account's owner)."""
    return f"{username.casefold()}\x00{address}"


def client_address(
    context: grpc.aio.ServicerContext, trust_forwarded_for: bool = False, web_key: bytes | None = None
) -> str:
    """The caller's IP address without its port: the browser's when the web service vouches for it (a header whose
    MAC verifies with `web_key`), `x-forwarded-for`'s first entry behind a trusted proxy, else the peer's."""
    metadata = tuple(context.invocation_metadata() or ())
    if web_key is not None:
        for key, value in metadata:
            if key == web_client.HEADER and isinstance(value, str):
                vouched = web_client.vouched(web_key, value)
                if vouched is not None:
                    return f"web:{vouched}"
    if trust_forwarded_for:
        for key, value in metadata:
            if key == "x-forwarded-for" and isinstance(value, str) and value.strip():
                return value.split(",")[0].strip()[:64]
    peer = context.peer() or "unknown"
    kind, _, rest = peer.partition(":")
    if kind == "ipv6" and rest.startswith("["):
        return rest[1 : rest.index("]")] if "]" in rest else rest
    if kind == "ipv4":
        return rest.rsplit(":", 1)[0]
    return peer


class AuthLimits:
    """The checks Login and Register make before any password is hashed or compared."""

    def __init__(
        self,
        *,
        login_per_ip: str = "30/minute;300/hour",
        login_per_username: str = "10/minute;100/hour",
        register_per_ip: str = "5/minute;50/hour",
        free_failures: int = 5,
        max_backoff: float = 300.0,
        trust_forwarded_for: bool = False,
        web_key: bytes | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.login_per_ip = parse_many(login_per_ip)
        self.login_per_username = parse_many(login_per_username)
        self.register_per_ip = parse_many(register_per_ip)
        self.free_failures = free_failures
        self.max_backoff = max_backoff
        self.trust_forwarded_for = trust_forwarded_for
        self.web_key = web_key
        self.clock = clock
        self._windows = MovingWindowRateLimiter(MemoryStorage())
        self._failures: TTLCache[str, tuple[int, float]] = TTLCache(
            maxsize=100_000, ttl=max(3600.0, 4 * max_backoff), timer=clock
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> AuthLimits:
        return cls(
            login_per_ip=settings.auth_login_per_ip,
            login_per_username=settings.auth_login_per_username,
            register_per_ip=settings.auth_register_per_ip,
            free_failures=settings.auth_free_failures,
            max_backoff=settings.auth_max_backoff_seconds,
            trust_forwarded_for=settings.auth_trust_forwarded_for,
            web_key=web_client.client_key(settings),
        )

    def address(self, context: grpc.aio.ServicerContext) -> str:
        return client_address(context, self.trust_forwarded_for, self.web_key)

    def backoff_left(self, username: str, address: str) -> float:
        """Seconds this username must still wait from this address before its next login attempt (0: none)."""
        failures, last = self._failures.get(_key(username, address), (0, 0.0))
        if failures < self.free_failures:
            return 0.0
        wait = min(self.max_backoff, 2.0 ** (failures - self.free_failures))
        return max(0.0, last + wait - self.clock())

    def check_login(self, username: str, address: str) -> None:
        """Spend one login attempt of `address` and of `username`, or refuse."""
        left = self.backoff_left(username, address)
        if left > 0:
            raise _refused(f"too many failed logins for this username; retry in {math.ceil(left)} s")
        self._hit(self.login_per_ip, "login-ip", address, "login attempts from this address")
        self._hit(self.login_per_username, "login-user", _key(username, address), "login attempts for this username")

    def check_register(self, address: str) -> None:
        self._hit(self.register_per_ip, "register-ip", address, "registrations from this address")

    def login_failed(self, username: str, address: str) -> None:
        failures, _ = self._failures.get(_key(username, address), (0, 0.0))
        self._failures[_key(username, address)] = (failures + 1, self.clock())

    def login_succeeded(self, username: str, address: str) -> None:
        self._failures.pop(_key(username, address), None)

    def _hit(self, items: list[RateLimitItem], scope: str, key: str, what: str) -> None:
        for item in items:
            if not self._windows.hit(item, scope, key):
                reset = self._windows.get_window_stats(item, scope, key).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                raise _refused(f"too many {what}: at most {item}; retry in {wait} s")
