"""The one gRPC server harness every service runs on (Open Match style).

A service's ``__main__`` builds a `ServiceApp`, adds its servicers and start/stop hooks,
and calls `main()`. The harness brings the rest: structlog, the Prometheus endpoint,
gRPC health checking and reflection, the diagnostics echo, the interceptor (logs, metrics, error mapping,
deadlines), message size limits, transport security (gamehall.runtime.tls: mTLS with the allowed-callers
check of gamehall.runtime.callers on internal servers, the public certificate on the gateway; renewed
certificate files are picked up every `tls_reload_seconds` without a restart), and a
graceful stop on SIGTERM/SIGINT: health turns NOT_SERVING, in-flight calls get `grace_seconds` to finish,
then stop hooks run (for example draining NATS) in reverse order.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import grpc
import structlog
import uvloop
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2, reflection_pb2_grpc

from gamehall.internal.v1 import diagnostics_pb2_grpc
from gamehall.runtime import collector, patience
from gamehall.runtime.callers import CallerCheck
from gamehall.runtime.channels import KEEPALIVE_MS
from gamehall.runtime.diagnostics import SERVICE_NAME as DIAGNOSTICS
from gamehall.runtime.diagnostics import DiagnosticsServicer
from gamehall.runtime.embedded_secrets import MissingSecret
from gamehall.runtime.interceptor import RequestCheck, ServiceInterceptor
from gamehall.runtime.logging import configure_logging
from gamehall.runtime.metrics import start_metrics_server
from gamehall.runtime.settings import Settings
from gamehall.runtime.tls import Transport, configure

Hook = Callable[[], Awaitable[None]]
log = structlog.get_logger("gamehall.service")

MIN_PING_INTERVAL_MS = KEEPALIVE_MS // 2
"""The shortest gap between a client's pings on an idle connection that a server accepts. gRPC's default (5 minutes,
two strikes) closes a connection whose long-lived call (a play stream) sits idle under the platform channels'
keepalive pings with "too many pings"; half their interval leaves room for timer jitter."""


class ServiceApp:
    """A gRPC service process: servicers + hooks over the shared harness."""

    def __init__(
        self,
        settings: Settings,
        *,
        default_timeout: float | None = 30.0,
        diagnostics: bool = True,
        request_check: RequestCheck | None = None,
    ) -> None:
        self.settings = settings
        self.request_check = request_check
        self.name = settings.service
        self.default_timeout = default_timeout
        self._servicers: list[tuple[Callable[[Any, grpc.aio.Server], None], Any, str]] = []
        self._on_start: list[Hook] = []
        self._on_stop: list[Hook] = []
        self.server: grpc.aio.Server | None = None
        self.health = health.aio.HealthServicer()
        self.port = 0
        self.metrics_port = 0
        self.health_port = 0
        self._health_server: grpc.aio.Server | None = None
        self.transport: Transport | None = None
        """Read from the settings by `main()` (a refusal exits with status 2) or at the latest by `start()`."""
        self._stopping: asyncio.Event | None = None
        self.draining = asyncio.Event()
        """Set when the stop begins: long-lived streams that carry calls (gamehall.runtime.play_stream) wind down."""
        self._renewals: asyncio.Task[None] | None = None
        if diagnostics:
            self.add_servicer(
                diagnostics_pb2_grpc.add_DiagnosticsServiceServicer_to_server,
                DiagnosticsServicer(),
                DIAGNOSTICS,
            )

    def add_servicer(
        self, add_to_server: Callable[[Any, grpc.aio.Server], None], servicer: Any, full_name: str
    ) -> None:
        """Register a servicer (`add_XServicer_to_server`, the instance, 'pkg.Service')."""
        self._servicers.append((add_to_server, servicer, full_name))

    def on_start(self, hook: Hook) -> Hook:
        """Run `hook` before the service reports SERVING (connect to NATS, open the store...)."""
        self._on_start.append(hook)
        return hook

    def on_stop(self, hook: Hook) -> Hook:
        """Run `hook` after the server stopped (drain NATS, close the store...)."""
        self._on_stop.append(hook)
        return hook

    async def start(self, *, metrics: bool = True) -> int:
        """Bind, run start hooks and report SERVING; returns the gRPC port."""
        s = self.settings
        if self.transport is None:
            self.transport = configure(s)
        credentials = self.transport.server_credentials()
        caller_check = CallerCheck(self.name) if self.transport.mutual and not self.transport.public else None
        self.server = grpc.aio.server(
            interceptors=[ServiceInterceptor(self.name, self.default_timeout, self.request_check, caller_check)],
            options=[
                ("grpc.max_receive_message_length", s.max_message_bytes),
                ("grpc.max_send_message_length", s.max_message_bytes),
                ("grpc.so_reuseport", 0),
                ("grpc.http2.min_ping_interval_without_data_ms", MIN_PING_INTERVAL_MS),
            ],
        )
        names = [
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            REFLECTION_V1,
            reflection.SERVICE_NAME,
        ]
        registrar = _GenericHandlersOnly(self.server)
        for add, servicer, full_name in self._servicers:
            add(servicer, registrar)
            names.append(full_name)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, registrar)
        # what reflection.enable_server_reflection does for an aio server (it tests the type, not the registrar)
        reflector = reflection.aio.ReflectionServicer(names)
        reflection_pb2_grpc.add_ServerReflectionServicer_to_server(reflector, registrar)
        add_reflection_v1(reflector, registrar)
        address = f"{s.host}:{s.grpc_port}"
        if credentials is None:
            self.port = self.server.add_insecure_port(address)
        else:
            self.port = self.server.add_secure_port(address, credentials)
        if self.port == 0:
            raise RuntimeError(f"could not bind {s.host}:{s.grpc_port}")
        if s.health_port and credentials is not None:
            self._health_server = grpc.aio.server()
            health_pb2_grpc.add_HealthServicer_to_server(self.health, self._health_server)
            self.health_port = self._health_server.add_insecure_port(f"{s.host}:{s.health_port}")
        patience.bind_health(self.health)  # consumers waiting for a dependency report on their own health names
        for hook in self._on_start:
            await hook()
        await self.server.start()
        if self._health_server is not None:
            await self._health_server.start()
        if self.transport.internal is not None or self.transport.public_files is not None:
            self._renewals = asyncio.create_task(self._check_certificates(self.transport, s.tls_reload_seconds))
        if metrics:
            self.metrics_port = start_metrics_server(s.host, s.metrics_port)
        for _, _, full_name in self._servicers:
            await self.health.set(full_name, health_pb2.HealthCheckResponse.SERVING)
        await self.health.set("", health_pb2.HealthCheckResponse.SERVING)
        log.info(
            "serving",
            grpc_port=self.port,
            metrics_port=self.metrics_port,
            host=s.host,
            tls="public" if self.transport.public and credentials else "mutual" if credentials else "off",
        )
        return self.port

    @staticmethod
    async def _check_certificates(transport: Transport, every: float) -> None:
        """Look for renewed certificate files every `every` seconds (gamehall.runtime.cert_reload), so servers,
        channels and the NATS connection use them without a restart."""
        while True:
            await asyncio.sleep(every)
            try:
                transport.check()
            except Exception:
                log.exception("certificate check failed; still serving the previous certificates")

    async def stop(self) -> None:
        """Graceful stop: NOT_SERVING, let in-flight calls finish, then the stop hooks."""
        if self.server is None:
            return
        if self._renewals is not None:
            self._renewals.cancel()
            self._renewals = None
        self.draining.set()
        await self.health.enter_graceful_shutdown()
        await self.server.stop(self.settings.grace_seconds)
        if self._health_server is not None:
            await self._health_server.stop(0)
            self._health_server = None
        for hook in reversed(self._on_stop):
            try:
                await hook()
            except Exception:
                log.exception("stop hook failed")
        self.server = None
        log.info("stopped")

    async def run_until_signal(self) -> None:
        loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self._stopping.set)
        await self.start()
        collector.settle(self.settings.gc_young_threshold)  # the process serves until it exits
        await self._stopping.wait()
        log.info("signal received, draining", grace_seconds=self.settings.grace_seconds)
        await self.stop()

    def main(self) -> None:
        """Configure logging and serve until SIGTERM/SIGINT."""
        configure_logging(self.name, self.settings.log_format, self.settings.log_level)
        with exit_on_missing_secret(self.settings):
            self.transport = configure(self.settings)
        with asyncio.Runner(loop_factory=event_loop_factory(self.settings.event_loop)) as runner:
            runner.run(self.run_until_signal())


def event_loop_factory(name: str) -> Callable[[], asyncio.AbstractEventLoop]:
    """The loop a service runs on (`Settings.event_loop`): the standard library's by default, or uvloop. In
    alternating runs uvloop cut the platform's CPU per move by 5 to 13 % (NATS clients, gRPC's completion-queue
    reader and aiosqlite's thread hand-offs all go through the loop) but gave up to a tenth fewer bot decisions
    per second, both within this machine's noise, so it stays opt-in until a clear gain is measured. (The
    cluster soak's slow recoveries once blamed on it came from 5 s log timeouts, and are gone on both loops.)"""
    if name == "uvloop":
        return uvloop.new_event_loop
    if name == "asyncio":
        return asyncio.new_event_loop
    raise ValueError(f"unknown event loop {name!r} (uvloop or asyncio)")


REFLECTION_V1 = "grpc.reflection.v1.ServerReflection"
"""The stable reflection service (grpcurl, Postman, Kreya and gRPC UI ask for it first)."""


def add_reflection_v1(servicer: Any, server: Any) -> None:
    """Serve `grpc.reflection.v1.ServerReflection` with the v1alpha servicer: grpcio-reflection ships only
    v1alpha, and v1's `reflection.proto` declares the same messages with the same field numbers (v1 is
    v1alpha made stable), so v1alpha's classes read and write v1's bytes unchanged."""
    handler = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(REFLECTION_V1, {"ServerReflectionInfo": handler}),)
    )


class _GenericHandlersOnly:
    """The server as `add_XServicer_to_server` sees it: each service is served through its generic handler.

    Generated code also registers every method with the server ("registered methods"), and grpc.aio then keeps
    one pending request task per registered method and waits on all of them (`asyncio.wait`) for every call
    it accepts: the gateway's ~45 methods made that a tenth or more of its CPU per call. The generic handler
    serves the same methods with the same handlers, through the one generic request loop."""

    def __init__(self, server: grpc.aio.Server) -> None:
        self._server = server

    def add_registered_method_handlers(self, service_name: str, method_handlers: Any) -> None:
        """Left out on purpose: the service's generic handler (added alongside) serves these methods."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self._server, name)


@contextlib.contextmanager
def exit_on_missing_secret(settings: Settings) -> Iterator[None]:
    """Turn a secret that must be configured into a one-line refusal to start (exit status 2), not a traceback."""
    try:
        yield
    except MissingSecret as exc:
        print(f"{settings.service}: refusing to start: {exc}", file=sys.stderr)
        sys.exit(2)
