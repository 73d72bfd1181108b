"""A channel to an internal server that presents this process's current certificate (issue 20, renewal without
restarts).

gRPC fixes a channel's credentials when it is made, so a renewed certificate needs a new channel. A
`RenewingChannel` looks like one `grpc.aio.Channel` to the stubs made on it; each call compares the certificate
files' generation (gamehall.runtime.cert_reload; an int compare, no file access) with the one its inner channel was
made for. After a renewal the next call opens a new inner channel and every later call uses it; the old one is
closed with a grace (`grace` seconds, long enough for watch streams), so calls in flight on it finish untouched.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import grpc
import structlog

from gamehall.runtime.cert_reload import CertificateFiles

log = structlog.get_logger("gamehall.tls")

OLD_CHANNEL_GRACE_SECONDS = 900.0
"""How long calls already on a channel that a renewal replaced may run before it is closed (unary calls take
seconds; a watch stream cut here ends like one cut by a restart, and its client watches again)."""


class RenewingChannel(grpc.aio.Channel):
    """A secure channel to `address` whose inner channel is remade when `files` accept a renewed set."""

    def __init__(
        self,
        address: str,
        files: CertificateFiles,
        *,
        options: Sequence[tuple[str, Any]] = (),
        interceptors: Sequence[grpc.aio.ClientInterceptor] = (),
        grace: float = OLD_CHANNEL_GRACE_SECONDS,
    ) -> None:
        self._address = address
        self._files = files
        self._options = list(options)
        self._interceptors = list(interceptors)
        self._grace = grace
        self._generation = files.generation
        self._channel = self._open()
        self._old: set[grpc.aio.Channel] = set()
        self._closing: set[asyncio.Task[None]] = set()
        self._closed = False
        self.renewals = 0
        """How many times the inner channel was remade (tests and logs)."""

    def _open(self) -> grpc.aio.Channel:
        return grpc.aio.secure_channel(
            self._address, self._files.channel_credentials(), options=self._options, interceptors=self._interceptors
        )

    def current(self) -> grpc.aio.Channel:
        """The inner channel new calls go on (remade first if the certificate was renewed)."""
        if self._files.generation != self._generation and not self._closed:
            self._renew()
        return self._channel

    def _renew(self) -> None:
        self._generation = self._files.generation
        old, self._channel = self._channel, self._open()
        self.renewals += 1
        self._old.add(old)
        task = asyncio.get_running_loop().create_task(old.close(self._grace))
        self._closing.add(task)

        def closed(_: asyncio.Task[None]) -> None:
            self._closing.discard(task)
            self._old.discard(old)

        task.add_done_callback(closed)
        log.info("channel renewed with the new certificate", address=self._address, generation=self._generation)

    async def close(self, grace: float | None = None) -> None:
        self._closed = True
        for channel in (*self._old, self._channel):
            await channel.close(grace)
        for task in list(self._closing):
            task.cancel()

    async def __aenter__(self) -> RenewingChannel:
        return self

    async def __aexit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        await self.close()

    def get_state(self, try_to_connect: bool = False) -> grpc.ChannelConnectivity:
        return self.current().get_state(try_to_connect)

    async def wait_for_state_change(self, last_observed_state: grpc.ChannelConnectivity) -> None:
        await self.current().wait_for_state_change(last_observed_state)

    async def channel_ready(self) -> None:
        await self.current().channel_ready()

    def unary_unary(
        self,
        method: str,
        request_serializer: Any = None,
        response_deserializer: Any = None,
        _registered_method: bool | None = False,
    ) -> Any:
        return _UnaryUnary(self, "unary_unary", method, request_serializer, response_deserializer, _registered_method)

    def unary_stream(
        self,
        method: str,
        request_serializer: Any = None,
        response_deserializer: Any = None,
        _registered_method: bool | None = False,
    ) -> Any:
        return _UnaryStream(self, "unary_stream", method, request_serializer, response_deserializer, _registered_method)

    def stream_unary(
        self,
        method: str,
        request_serializer: Any = None,
        response_deserializer: Any = None,
        _registered_method: bool | None = False,
    ) -> Any:
        return _StreamUnary(self, "stream_unary", method, request_serializer, response_deserializer, _registered_method)

    def stream_stream(
        self,
        method: str,
        request_serializer: Any = None,
        response_deserializer: Any = None,
        _registered_method: bool | None = False,
    ) -> Any:
        return _StreamStream(
            self, "stream_stream", method, request_serializer, response_deserializer, _registered_method
        )


class _Renewing:
    """A stub's method: the inner channel's multicallable, made again when the inner channel changed."""

    def __init__(
        self, owner: RenewingChannel, kind: str, method: str, serializer: Any, deserializer: Any, registered: Any
    ) -> None:
        self._owner = owner
        self._kind = kind
        self._arguments = (method, serializer, deserializer, registered)
        self._channel: grpc.aio.Channel | None = None
        self._callable: Any = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        channel = self._owner.current()
        if channel is not self._channel:
            self._callable = getattr(channel, self._kind)(*self._arguments)
            self._channel = channel
        return self._callable(*args, **kwargs)


class _UnaryUnary(_Renewing, grpc.aio.UnaryUnaryMultiCallable):
    pass


class _UnaryStream(_Renewing, grpc.aio.UnaryStreamMultiCallable):
    pass


class _StreamUnary(_Renewing, grpc.aio.StreamUnaryMultiCallable):
    pass


class _StreamStream(_Renewing, grpc.aio.StreamStreamMultiCallable):
    pass


__all__ = ["OLD_CHANNEL_GRACE_SECONDS", "RenewingChannel"]
