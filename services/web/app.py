"""Assemble the web service: the pages and the Connect bridge on an HTTP port, over the shared harness.

The harness gives it what every service has (gRPC health for the launcher and Kubernetes, metrics,
logs, a graceful stop); the HTTP server starts in a start hook, so the service reports SERVING only
once its pages answer, and stops after in-flight streams had the grace period.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable

import structlog
from aiohttp import web

from gamehall.runtime.service import ServiceApp
from gamehall.runtime.settings import Settings
from gamehall.web import client_address as web_client
from gamehall_services.web.bridge import Bridge
from gamehall_services.web.cors import Origins, parse_origins
from gamehall_services.web.pages import Pages

log = structlog.get_logger("gamehall.web")

MAX_REQUEST_BYTES = 64 * 1024
"""Largest request body: far above any public request (the gateway's own bounds are tighter)."""


def http_app(bridge: Bridge, pages: Pages, origins: Origins) -> web.Application:
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
    runner = web.AppRunner(http_app(bridge, pages, origins), handler_cancellation=True, access_log=None)

    @app.on_start
    async def serve() -> None:
        bridge.connect()
        await runner.setup()
        site = web.TCPSite(runner, settings.host, settings.http_port, shutdown_timeout=settings.grace_seconds)
        await site.start()
        port = runner.addresses[0][1] if runner.addresses else settings.http_port
        if not pages.built():
            log.warning("web pages not built: run `make web`", folder=str(pages.folder))
        log.info("web serving", http_port=port, gateway=settings.gateway_addr)

    @app.on_stop
    async def stop() -> None:
        await runner.cleanup()
        await bridge.close()

    return app


def main() -> None:
    settings = Settings() if "GAMEHALL_SERVICE" in os.environ else Settings(service="web")
    build_app(settings).main()
