"""Connect calls from browsers, forwarded to the gateway as the same gRPC calls.

The gateway stays the only door: the bridge checks nothing but the framing, and passes the request
bytes and the caller's `authorization` header through unchanged, with the browser's address vouched for by a
MAC the gateway verifies (gamehall.web.client_address), so tokens, roles, limits (counted per browser), bounds
and statuses are the gateway's by construction. Replies and errors come
back in the Connect protocol (gamehall.web.connect); a server stream is relayed message by message
until the gateway ends it or the browser goes away (which cancels the gateway call).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import grpc
import structlog
from aiohttp import web

from gamehall.runtime.channels import CHANNEL_OPTIONS
from gamehall.web import client_address as web_client
from gamehall.web import connect
from gamehall.web.connect import Method, ProtocolError

log = structlog.get_logger("gamehall.web.bridge")

MAX_UNARY_SECONDS = 60.0
"""Longest deadline a browser's unary call gets (a longer or missing Connect-Timeout-Ms is cut to this)."""
FORWARDED_HEADERS = ("authorization",)


class Bridge:
    """One channel to the gateway and a handler per public RPC path."""

    def __init__(
        self, gateway_addr: str, gateway_ca_file: Path | None = None, client_key: bytes | None = None
    ) -> None:
        self.gateway_addr = gateway_addr
        self.client_key = client_key
        """The key vouching for each browser's address to the gateway (None: not sent)."""
        self.gateway_ca_file = gateway_ca_file
        """The certificate (or CA) verifying the gateway's public TLS port; None: plaintext (a loopback dev setup)."""
        self.methods = connect.public_methods()
        self.channel: grpc.aio.Channel | None = None

    def connect(self) -> None:
        if self.gateway_ca_file is None:
            self.channel = grpc.aio.insecure_channel(self.gateway_addr, options=CHANNEL_OPTIONS)
            return
        trust = grpc.ssl_channel_credentials(self.gateway_ca_file.read_bytes())
        self.channel = grpc.aio.secure_channel(self.gateway_addr, trust, options=CHANNEL_OPTIONS)

    async def close(self) -> None:
        if self.channel is not None:
            await self.channel.close()

    def _metadata(self, request: web.Request) -> tuple[tuple[str, str], ...]:
        sent = tuple((key, request.headers[key]) for key in FORWARDED_HEADERS if key in request.headers)
        address = request.remote or "unknown"
        # the browser's own address, replacing any it claimed: x-forwarded-for for a gateway configured to trust it,
        # and vouched for with the shared key, which the gateway checks before its login limits count it
        vouched = ((web_client.HEADER, web_client.vouch(self.client_key, address)),) if self.client_key else ()
        return (*sent, ("x-forwarded-for", address), *vouched)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        method = self.methods.get(request.path)
        if method is None:
            return _unary_error(grpc.StatusCode.UNIMPLEMENTED, f"no RPC {request.path[:80]}", [])
        try:
            codec = connect.codec_of(request.headers.get("Content-Type", ""), method.server_streaming)
        except ProtocolError as exc:
            return _unary_error(exc.code, exc.message, [], status=415)  # the protocol's answer to an unknown codec
        try:
            timeout = connect.timeout_seconds(request.headers.get("Connect-Timeout-Ms"))
            body = await request.read()
        except ProtocolError as exc:
            return _unary_error(exc.code, exc.message, [])
        if method.server_streaming:
            return await self._stream(request, method, codec, body)
        return await self._unary(request, method, codec, body, timeout)

    async def _unary(
        self, request: web.Request, method: Method, codec: str, body: bytes, timeout: float | None
    ) -> web.Response:
        assert self.channel is not None
        try:
            payload = method.decode(body, codec)
            call = self.channel.unary_unary(method.path)
            reply: bytes = await call(
                payload,
                metadata=self._metadata(request),
                timeout=min(timeout or MAX_UNARY_SECONDS, MAX_UNARY_SECONDS),
            )
        except ProtocolError as exc:
            return _unary_error(exc.code, exc.message, [])
        except grpc.aio.AioRpcError as exc:
            details = connect.error_details(_trailers(exc))
            return _unary_error(exc.code(), exc.details() or "", details)
        return web.Response(
            body=method.encode(reply, codec),
            content_type=connect.content_type(codec, streaming=False),
            headers={"Cache-Control": "no-store"},
        )

    async def _stream(self, request: web.Request, method: Method, codec: str, body: bytes) -> web.StreamResponse:
        assert self.channel is not None
        try:
            payload = method.decode(connect.single_message(body), codec)
        except ProtocolError as exc:
            return _unary_error(exc.code, exc.message, [])
        response = web.StreamResponse(
            headers={"Content-Type": connect.content_type(codec, streaming=True), "Cache-Control": "no-store"}
        )
        await response.prepare(request)
        call = self.channel.unary_stream(method.path)(payload, metadata=self._metadata(request))
        error: dict[str, Any] | None = None
        try:
            async for message in call:
                await response.write(connect.envelope(method.encode(message, codec)))
        except grpc.aio.AioRpcError as exc:
            error = connect.error_body(exc.code(), exc.details() or "", connect.error_details(_trailers(exc)))
        except (asyncio.CancelledError, ConnectionResetError):
            call.cancel()  # the browser went away: so does the gateway call
            raise
        await response.write(connect.end_of_stream(error))
        await response.write_eof()
        return response


def _trailers(exc: grpc.aio.AioRpcError) -> tuple[tuple[str, Any], ...]:
    return tuple(exc.trailing_metadata() or ())


def _unary_error(
    code: grpc.StatusCode, message: str, details: list[dict[str, str]], status: int | None = None
) -> web.Response:
    return web.json_response(
        connect.error_body(code, message, details),
        status=status or connect.http_status(code),
        headers={"Cache-Control": "no-store"},
    )
