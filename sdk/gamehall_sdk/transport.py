"""One place where every SDK call goes out: bearer token, timeout, retry, named errors.

Wrappers hand it a bound stub method and a request; it attaches `authorization: Bearer <token>`,
applies the default per-call timeout, retries idempotent calls that fail UNAVAILABLE, and turns
a failed call into a `GamehallError` subclass (the raw `grpc.aio.AioRpcError` kept as `__cause__`).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from typing import Any, TypeVar

import grpc

from gamehall_sdk.errors import from_rpc_error
from gamehall_sdk.retry import RETRY_ON_ABORTED, RETRY_ON_UNAVAILABLE, RetryPolicy

R = TypeVar("R")

DEFAULT_TIMEOUT = 20.0
"""Seconds a unary call may take (streams have no deadline unless given one)."""

Method = Callable[..., Any]
"""A bound stub method such as `MatchServiceStub(channel).GetMatch`."""


class Transport:
    """Calls stub methods with the session's token, timeout and retry policy."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, retry: RetryPolicy | None = None) -> None:
        self.token = ""
        self.timeout = timeout
        self.retry = retry or RetryPolicy()

    def metadata(self) -> tuple[tuple[str, str], ...]:
        return (("authorization", f"Bearer {self.token}"),) if self.token else ()

    async def unary(
        self,
        method: Method,
        request: Any,
        reply: type[R],
        *,
        idempotent: bool,
        timeout: float | None = None,
        retry_aborted: bool = False,
    ) -> R:
        """Call `method(request)`; retried on UNAVAILABLE when `idempotent` (same request object), and on ABORTED
        when `retry_aborted` (a change the server refused without writing: a lost compare-and-swap)."""

        async def once() -> Any:
            return await method(request, metadata=self.metadata(), timeout=timeout or self.timeout)

        retry_on = (RETRY_ON_UNAVAILABLE if idempotent else frozenset()) | (
            RETRY_ON_ABORTED if retry_aborted else frozenset()
        )
        try:
            result = await (self.retry.run(once, retry_on) if retry_on else once())
        except grpc.RpcError as exc:
            raise from_rpc_error(exc) from exc
        if not isinstance(result, reply):
            raise TypeError(f"expected {reply.__name__}, got {type(result).__name__}")
        return result

    async def stream(
        self, method: Method, request: Any, reply: type[R], *, timeout: float | None = None
    ) -> AsyncGenerator[R, None]:
        """Iterate a server stream; the call is cancelled when the consumer stops early."""
        call = method(request, metadata=self.metadata(), timeout=timeout)
        try:
            async for item in call:
                if not isinstance(item, reply):
                    raise TypeError(f"expected {reply.__name__}, got {type(item).__name__}")
                yield item
        except grpc.RpcError as exc:
            raise from_rpc_error(exc) from exc
        finally:
            call.cancel()


async def all_pages(
    transport: Transport, method: Any, request: Any, reply_type: type[Any], field: str, limit: int | None = None
) -> list[Any]:
    """Every item of a paged List (AIP-158): follows `next_page_token` until the last page (or `limit` items)."""
    items: list[Any] = []
    while True:
        reply = await transport.unary(method, request, reply_type, idempotent=True)
        items.extend(getattr(reply, field))
        if not reply.next_page_token or (limit is not None and len(items) >= limit):
            return items[:limit] if limit is not None else items
        request.page_token = reply.next_page_token


def make_stub(factory: Callable[[Any], Any], channel: Any) -> Any:
    """A generated (untyped) stub class bound to `channel`."""
    return factory(channel)
