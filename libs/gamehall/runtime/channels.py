"""Channels between platform services: every unary call gets a deadline (ARCHITECTURE rule 7).

A call made without `timeout=` gets the channel's default, so a hung or stopped dependency
surfaces as DEADLINE_EXCEEDED within a bounded time instead of a client call that hangs. A call made
while serving another (gamehall.runtime.budget) is shortened to end before its caller's deadline, so
the remaining deadline travels with each hop, shrinking (issue 37).
Streams (watches forwarded between services) are long-lived by design and keep no default.
Under mTLS every channel carries this process's current certificate (gamehall.runtime.tls), renewals included.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc

from gamehall.runtime import budget, tls
from gamehall.runtime.renewing_channel import RenewingChannel

DEFAULT_DEADLINE_SECONDS = 10.0
KEEPALIVE_MS = 20_000
"""A channel with a call open (a play stream, a forwarded watch) pings its server this often when idle."""
CHANNEL_OPTIONS = [
    ("grpc.max_receive_message_length", 64 * 1024 * 1024),
    ("grpc.enable_retries", 1),
    ("grpc.keepalive_time_ms", KEEPALIVE_MS),
    ("grpc.keepalive_timeout_ms", 10_000),
]


class DefaultDeadline(grpc.aio.UnaryUnaryClientInterceptor):
    """Fills in `timeout` on unary calls that were made without one, and shortens any call made while serving
    another to end before that call's deadline (`budget.upstream_timeout`): a client's 2 s deadline reaches the
    next service as less, never as this channel's flat 10 s."""

    def __init__(self, seconds: float) -> None:
        if seconds <= 0:
            raise ValueError("a default deadline must be positive")
        self.seconds = seconds

    async def intercept_unary_unary(
        self, continuation: Callable[[Any, Any], Any], client_call_details: Any, request: Any
    ) -> Any:
        own = self.seconds if client_call_details.timeout is None else client_call_details.timeout
        timeout = budget.upstream_timeout(own)
        if timeout != client_call_details.timeout:
            client_call_details = client_call_details._replace(timeout=timeout)
        return await continuation(client_call_details, request)


def internal_channel(address: str, *, deadline: float | None = DEFAULT_DEADLINE_SECONDS) -> grpc.aio.Channel:
    """A channel to another platform service with a default deadline on every unary call.

    `deadline=None` is for hot paths whose every call passes `timeout=` itself (gamehall.runtime.rules_replicas):
    a client interceptor costs grpc.aio an extra task and a copy of the call details per call, about a fifth of
    the gateway's CPU per move. Under mTLS (gamehall.runtime.tls.configure ran with certificates) it presents
    this service's certificate and verifies the server's; after a renewal, new calls go on a channel with the
    renewed certificate while calls in flight finish on the old one (gamehall.runtime.renewing_channel)."""
    interceptors = [DefaultDeadline(deadline)] if deadline is not None else []
    transport = tls.current()
    if transport is None or transport.internal is None:
        return grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS, interceptors=interceptors)
    return RenewingChannel(address, transport.internal, options=CHANNEL_OPTIONS, interceptors=interceptors)


__all__ = ["CHANNEL_OPTIONS", "DEFAULT_DEADLINE_SECONDS", "KEEPALIVE_MS", "DefaultDeadline", "internal_channel"]
