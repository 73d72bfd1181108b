"""One server interceptor for every service: logging, metrics, deadlines and error mapping.

Each RPC gets a trace id (the client's ``x-trace-id`` metadata or a new one) bound into
every log line, is counted and timed by method and status, runs under a default deadline
when the client set none (a unary call's nested calls get the client's remaining deadline capped by that
default: `gamehall.runtime.budget`; a server stream, long-lived by design, gets neither), and has its
exceptions turned into statuses by `gamehall.runtime.errors`: a domain error keeps its message; anything
else is INTERNAL with a generic message and the trace id, the stack going to the log only.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
import types
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
import structlog

from gamehall.runtime import budget, errors, metrics

log = structlog.get_logger("gamehall.rpc")

MAX_MESSAGE_CHARS = 512
"""An error message (details and its google.rpc.Status trailer) is cut here: it never carries a client's large input."""

SLOW_SECONDS = 0.5
"""A unary call slower than this is logged at info even when it succeeded."""
SERVER_FAULTS = frozenset(
    {
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.UNKNOWN,
        grpc.StatusCode.DATA_LOSS,
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.UNIMPLEMENTED,
    }
)

QUIET_METHODS = frozenset({"/grpc.health.v1.Health/Check", "/grpc.health.v1.Health/Watch"})


RequestCheck = Callable[[str, Any], None]
"""(method, request) -> None, raising a mapped error to refuse the request before its handler runs."""

CallerCheck = Callable[[str, grpc.aio.ServicerContext], None]
"""(method, context) -> None, raising a mapped error to refuse the caller (mTLS identity) before anything else."""


class ServiceInterceptor(grpc.aio.ServerInterceptor):
    def __init__(
        self,
        service: str,
        default_timeout: float | None = 30.0,
        request_check: RequestCheck | None = None,
        caller_check: CallerCheck | None = None,
    ) -> None:
        self.service = service
        self.default_timeout = default_timeout
        self.request_check = request_check
        self.caller_check = caller_check
        self._meters: dict[str, _Meters] = {}
        self._wrapped: dict[str, tuple[grpc.RpcMethodHandler, grpc.RpcMethodHandler]] = {}
        """Each method's wrapped handler, built once (it was rebuilt, closures and all, on every call)."""

    def meters(self, method: str) -> _Meters:
        """The method's metric children, bound once (a `labels()` lookup costs more than the update)."""
        found = self._meters.get(method)
        if found is None:
            found = self._meters[method] = _Meters(self.service, method)
        return found

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(details)
        if handler is None:
            return None
        method: str = details.method
        cached = self._wrapped.get(method)
        if cached is not None and cached[0] is handler:
            return cached[1]  # the wrapper reads the call's own trace id when it runs
        kwargs = {
            "request_deserializer": handler.request_deserializer,
            "response_serializer": handler.response_serializer,
        }
        if handler.unary_unary:
            wrapped = grpc.unary_unary_rpc_method_handler(self._unary(handler.unary_unary, method), **kwargs)
        elif handler.unary_stream:
            wrapped = grpc.unary_stream_rpc_method_handler(self._stream(handler.unary_stream, method), **kwargs)
        elif handler.stream_unary:
            wrapped = grpc.stream_unary_rpc_method_handler(self._unary(handler.stream_unary, method), **kwargs)
        else:
            wrapped = grpc.stream_stream_rpc_method_handler(self._stream(handler.stream_stream, method), **kwargs)
        self._wrapped[method] = (handler, wrapped)
        return wrapped

    def _unary(self, behavior: Callable[..., Any], method: str) -> Callable[..., Awaitable[Any]]:
        async def handle(request: Any, context: grpc.aio.ServicerContext) -> Any:
            with _Call(self.meters(method), method, _trace_id(context.invocation_metadata()), context) as call:
                try:
                    if self.caller_check is not None:
                        self.caller_check(method, context)
                    if self.request_check is not None:
                        self.request_check(method, request)
                    left = context.time_remaining()
                    with budget.serving_until(_budget(left, self.default_timeout)):
                        result = behavior(request, context)
                        if type(result) is types.CoroutineType or asyncio.iscoroutine(result):
                            timeout = self.default_timeout if left is None else None
                            if timeout:
                                async with asyncio.timeout(timeout):  # no extra task per call, unlike wait_for
                                    result = await result
                            else:
                                result = await result
                    return result
                except Exception as exc:
                    await call.fail(exc)

        return handle

    def _stream(self, behavior: Callable[..., Any], method: str) -> Callable[..., AsyncIterator[Any]]:
        async def handle(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            trace_id = _trace_id(context.invocation_metadata())
            with _Call(self.meters(method), method, trace_id, context, streaming=True) as call:
                try:
                    if self.caller_check is not None:
                        self.caller_check(method, context)
                    if self.request_check is not None:
                        self.request_check(method, request)
                    async for item in behavior(request, context):
                        yield item
                except Exception as exc:
                    await call.fail(exc)

        return handle


class CarriedCalls:
    """Calls carried as messages inside a stream (gamehall.runtime.play_stream), each one metered, logged, held to
    its deadline and mapped to a status as if it were a unary call of `method` of `service`."""

    def __init__(self, service: str, method: str, default_timeout: float | None = 30.0) -> None:
        self.method = method
        self.default_timeout = default_timeout
        self._meters = _Meters(service, method)

    async def run(self, work: Callable[[], Awaitable[Any]], trace_id: str, timeout: float | None) -> Any:
        """`work()`'s result, or the `errors.Failure` it ended in (a unary call would abort with it)."""
        with _Call(self._meters, self.method, trace_id or os.urandom(8).hex(), None) as call:
            try:
                limit = timeout if timeout else self.default_timeout
                async with asyncio.timeout(limit):
                    with budget.serving_until(limit):
                        return await work()
            except Exception as exc:
                return call.failure(exc)


def _budget(left: float | None, own: float | None) -> float | None:
    """The time a unary call has for its nested calls: the client's remaining deadline capped by the service's own
    (a client's 2 s is 2 s, its hour is the service's 30 s; either alone when the other is unset)."""
    if left is None:
        return own
    return left if own is None else min(left, own)


def _short(message: str) -> str:
    return message if len(message) <= MAX_MESSAGE_CHARS else message[: MAX_MESSAGE_CHARS - 1] + "…"


def _trace_id(metadata: Any) -> str:
    for key, value in metadata or ():
        if key == "x-trace-id" and isinstance(value, str) and 0 < len(value) <= 64:
            return value
    return os.urandom(8).hex()


class _Meters:
    """One method's metric children: in-flight gauge, latency histogram, and a counter per status code."""

    __slots__ = ("_by_code", "_method", "_service", "in_flight", "latency")

    def __init__(self, service: str, method: str) -> None:
        self._service, self._method = service, method
        self.in_flight = metrics.RPC_IN_FLIGHT.labels(service)
        self.latency = metrics.RPC_LATENCY.labels(service, method)
        self._by_code: dict[grpc.StatusCode, Any] = {}

    def requests(self, code: grpc.StatusCode) -> Any:
        counter = self._by_code.get(code)
        if counter is None:
            counter = self._by_code[code] = metrics.RPC_REQUESTS.labels(self._service, self._method, code.name)
        return counter


class _Call:
    """Bookkeeping of one RPC: context-bound ids, the in-flight gauge, metrics and the access log.

    The access log is quiet when all is well: a call is logged at debug, a failed one at info (the
    client's mistake) or warning (the platform's fault), a slow unary one at info, so an idle or busy
    platform does not write a line per internal call (issue 20, finding 9)."""

    def __init__(
        self,
        meters: _Meters,
        method: str,
        trace_id: str,
        context: grpc.aio.ServicerContext | None,
        streaming: bool = False,
    ):
        self.method, self.trace_id, self.context = method, trace_id, context
        self.streaming = streaming
        self.code = grpc.StatusCode.OK
        self.meters = meters

    def __enter__(self) -> _Call:
        self.started = time.perf_counter()
        self.tokens = structlog.contextvars.bind_contextvars(trace_id=self.trace_id, rpc=self.method)
        self.meters.in_flight.inc()
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        elapsed = time.perf_counter() - self.started
        if exc_type is not None and self.code is grpc.StatusCode.OK:
            self.code = _aborted_code(self.context) or grpc.StatusCode.CANCELLED
        self.meters.in_flight.dec()
        self.meters.requests(self.code).inc()
        self.meters.latency.observe(elapsed)
        if self.method not in QUIET_METHODS:
            if self.code in SERVER_FAULTS:
                log.warning("rpc", code=self.code.name, ms=round(elapsed * 1000, 3))
            elif self.code is not grpc.StatusCode.OK or (elapsed >= SLOW_SECONDS and not self.streaming):
                log.info("rpc", code=self.code.name, ms=round(elapsed * 1000, 3))
            else:
                log.debug("rpc", code=self.code.name, ms=round(elapsed * 1000, 3))
        # A streaming handler the client left is closed by the loop's async-generator finalizer, in a task of its
        # own: the context the ids were bound in is gone with its call (ValueError), so nothing is left to reset.
        with contextlib.suppress(ValueError):
            structlog.contextvars.reset_contextvars(**self.tokens)

    async def fail(self, exc: BaseException) -> None:
        """Abort the call with the status `exc` maps to and its AIP-193 details (always raises)."""
        if isinstance(exc, grpc.aio.AbortError) or _aborted_code(self.context):
            self.code = _aborted_code(self.context) or grpc.StatusCode.UNKNOWN
            raise exc
        await self._abort(self.failure(exc))

    def failure(self, exc: BaseException) -> errors.Failure:
        """The failure `exc` maps to, which becomes the call's code: a passed deadline is DEADLINE_EXCEEDED, a
        mapped error keeps its message, anything else is a bug (INTERNAL with the trace id, the stack logged)."""
        if isinstance(exc, asyncio.TimeoutError):
            found = errors.Failure(
                grpc.StatusCode.DEADLINE_EXCEEDED, "the server's deadline for this call passed", trace_id=self.trace_id
            )
        else:
            mapped = errors.failure_of(exc, _short(str(exc) or type(exc).__name__), self.trace_id)
            if mapped is None:
                log.error("rpc failed unexpectedly", exc_info=exc)
                mapped = errors.internal_failure(self.trace_id)
            found = mapped
        self.code = found.code
        return found

    async def _abort(self, failure: errors.Failure) -> None:
        assert self.context is not None, "a call carried in a stream is answered, not aborted"
        status = failure.grpc_status()
        await self.context.abort(status.code, status.details, status.trailing_metadata)


def _aborted_code(context: grpc.aio.ServicerContext | None) -> grpc.StatusCode | None:
    if context is None:
        return None
    try:
        code = context.code()
    except Exception:
        return None
    if code is None or code == grpc.StatusCode.OK:
        return None
    if isinstance(code, int):
        return errors.status_code(code)
    return code
