"""Assemble the web service: the pages and the Connect bridge on an HTTP(S) port, over the shared harness.

With `web_tls_cert_file`/`web_tls_key_file` (as `gamehall run` sets them: the gateway's public pair) the port
serves HTTPS only, so passwords and tokens never cross the network in clear; a plain-HTTP request to it fails
its TLS handshake. Renewed files are taken for new connections within `tls_reload_seconds`, as the gateway does.

The harness gives it what every service has (gRPC health for the launcher and Kubernetes, metrics,
logs, a graceful stop); the HTTP server starts in a start hook, so the service reports SERVING only
once its pages answer, and stops after in-flight streams had the grace period.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import ssl
from collections.abc import Awaitable, Callable

import structlog
from aiohttp import web

from gamehall.runtime.cert_reload import CertificateFiles
from gamehall.runtime.service import ServiceApp
from gamehall.runtime.settings import Settings
from gamehall.web import client_address as web_client
from gamehall_services.web.bridge import Bridge
from gamehall_services.web.cors import Origins, parse_origins
from gamehall_services.web.pages import Pages

log = structlog.get_logger("gamehall.web")

MAX_REQUEST_BYTES = 64 * 1024
"""Largest request body: far above any public request (the gateway's own bounds are tighter)."""


HSTS = "max-age=31536000"
"""Sent over HTTPS only: browsers then refuse to fall back to plain HTTP for this host."""


def https_context(settings: Settings) -> tuple[ssl.SSLContext, CertificateFiles] | None:
    """The port's TLS context from the web certificate pair (None: plain HTTP), and the files it follows."""
    cert, key = settings.web_tls_cert_file, settings.web_tls_key_file
    if not cert or not key or str(cert) == "" or str(key) == "":
        return None
    files = CertificateFiles(
        "GAMEHALL_WEB_TLS_KEY_FILE/CERT_FILE", key, cert, check_every=settings.tls_reload_seconds
    )  # refuses a missing, unreadable or mismatched pair at start
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    # a renewed, whole pair is served to the next handshakes (the files were checked before this is called)
    files.on_change(lambda _material: context.load_cert_chain(cert, key))
    return context, files


def http_app(bridge: Bridge, pages: Pages, origins: Origins, https: bool = False) -> web.Application:
    """Routes: POST /<package.Service>/<Method> (Connect), GET / and /assets/<file> (pages)."""

    @web.middleware
    async def cross_origin(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.method == "OPTIONS":
            return await origins.preflight(request)
        ok, headers = origins.verdict(request)
        if not ok:
            return web.json_response(
                {"code": "permission_denied", "message": "this origin may not call the API"},
                status=403,
                headers=headers,
            )
        response = await handler(request)
        response.headers.update(headers)
        if https:
            response.headers["Strict-Transport-Security"] = HSTS
        return response

    app = web.Application(client_max_size=MAX_REQUEST_BYTES, middlewares=[cross_origin])
    app.router.add_get("/", pages.index)
    app.router.add_get("/assets/{name}", pages.asset)
    app.router.add_post("/{service}/{method}", bridge.handle)
    app.router.add_route("OPTIONS", "/{service}/{method}", origins.preflight)
    return app


def build_app(settings: Settings) -> ServiceApp:
    app = ServiceApp(settings, diagnostics=False)
    bridge = Bridge(settings.gateway_addr, settings.gateway_ca_file, web_client.client_key(settings))
    pages = Pages()
    origins = Origins(parse_origins(settings.web_allowed_origins))
    tls = https_context(settings)
    runner = web.AppRunner(
        http_app(bridge, pages, origins, https=tls is not None), handler_cancellation=True, access_log=None
    )
    renewals: list[asyncio.Task[None]] = []

    async def follow_renewals(files: CertificateFiles) -> None:
        while True:
            await asyncio.sleep(settings.tls_reload_seconds)
            await asyncio.to_thread(files.refresh)

    @app.on_start
    async def serve() -> None:
        bridge.connect()
        await runner.setup()
        site = web.TCPSite(
            runner,
            settings.host,
            settings.http_port,
            shutdown_timeout=settings.grace_seconds,
            ssl_context=tls[0] if tls else None,
        )
        await site.start()
        if tls:
            renewals.append(asyncio.create_task(follow_renewals(tls[1])))
        port = runner.addresses[0][1] if runner.addresses else settings.http_port
        if not pages.built():
            log.warning("web pages not built: run `make web`", folder=str(pages.folder))
        log.info("web serving", http_port=port, https=tls is not None, gateway=settings.gateway_addr)

    @app.on_stop
    async def stop() -> None:
        for task in renewals:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await runner.cleanup()
        await bridge.close()

    return app


def main() -> None:
    settings = Settings() if "GAMEHALL_SERVICE" in os.environ else Settings(service="web")
    build_app(settings).main()
