"""Assemble the gateway: upstream channels, auth, the public services, the audit trail, watch and clocks."""

from __future__ import annotations

import asyncio
import os

import structlog

import gamehall_services.gateway.errors  # noqa: F401 - registers the auth library's errors
from gamehall.auth import Passwords, Principals, Tokens
from gamehall.runtime import embedded_secrets
from gamehall.runtime.bus import Bus
from gamehall.runtime.identity import account_lookup
from gamehall.runtime.service import ServiceApp, exit_on_missing_secret
from gamehall.runtime.settings import Settings
from gamehall.wire import pages
from gamehall_sdk.v1 import (
    audit_pb2,
    audit_pb2_grpc,
    auth_pb2,
    auth_pb2_grpc,
    catalog_pb2,
    catalog_pb2_grpc,
    match_pb2,
    match_pb2_grpc,
)
from gamehall_services.gateway.audit_log import AuditLogServicer
from gamehall_services.gateway.audit_trail import AuditedServices, AuditTrail
from gamehall_services.gateway.auth import (
    TOKEN_TTL_SECONDS,
    Authenticator,
    AuthServicer,
    Registration,
    bootstrap_operator,
)
from gamehall_services.gateway.auth_limits import AuthLimits
from gamehall_services.gateway.catalog import CatalogServicer
from gamehall_services.gateway.edge import check_request
from gamehall_services.gateway.limits import RateLimiter, WatchSlots
from gamehall_services.gateway.matches import MatchServicer
from gamehall_services.gateway.matchmaking_proxy import Forwarder, add_matchmaking_services
from gamehall_services.gateway.revocations import Revocations
from gamehall_services.gateway.upstream import Upstream
from gamehall_services.gateway.watch import Watcher

log = structlog.get_logger("gamehall.gateway")
UNARY_SECONDS = 30.0
"""The gateway's own cap on a unary call: a client's deadline beyond it (or none) is cut to it (issue 37)."""
SERVICES = {
    name: service
    for module in (auth_pb2, catalog_pb2, match_pb2, audit_pb2)
    for name, service in module.DESCRIPTOR.services_by_name.items()
}


def build_app(settings: Settings) -> ServiceApp:
    # A unary call runs at most UNARY_SECONDS (a client's shorter deadline travels upstream, shrinking at each
    # hop); WatchMatch and PlaySeat streams live as long as the match, the interceptor bounding no stream; every
    # public request is bounded at the edge first; the diagnostics echo is internal only (it would be an
    # unauthenticated door on the public port)
    app = ServiceApp(settings, default_timeout=UNARY_SECONDS, diagnostics=False, request_check=check_request)
    upstream = Upstream(settings.persistence_addr, settings.rules_addrs, linger=settings.play_stream_linger())
    signing_key = embedded_secrets.token_key(settings).value
    tokens = Tokens(signing_key)
    pages.use_key(signing_key)  # page tokens signed with a key every replica shares
    # signed-out tokens are audit events: read through the trail's stub once it is connected (on start)
    revocations = Revocations(lambda: trail.stub, token_ttl=TOKEN_TTL_SECONDS)
    limits = AuthLimits.from_settings(settings)
    auth = Authenticator(Principals(tokens, account_lookup(lambda: upstream.persistence)), revocations, limits.address)
    operator = embedded_secrets.operator_password(settings)
    passwords = Passwords()
    watcher = Watcher(upstream)
    renewing: list[asyncio.Task[None]] = []
    catalog = CatalogServicer(upstream, auth)
    slots = WatchSlots()
    matches = MatchServicer(upstream, auth, RateLimiter(), watcher, slots)
    trail = AuditTrail(settings.persistence_addr, auth)
    audited = AuditedServices(app, trail)  # registers each servicer with its operator actions audited
    audited.add_servicer(
        auth_pb2_grpc.add_AuthServiceServicer_to_server,
        AuthServicer(
            upstream, auth, passwords, limits, Registration.from_settings(settings)
        ),
        SERVICES["AuthService"].full_name,
    )
    app.add_servicer(
        catalog_pb2_grpc.add_CatalogServiceServicer_to_server,
        catalog,
        SERVICES["CatalogService"].full_name,
    )
    audited.add_servicer(match_pb2_grpc.add_MatchServiceServicer_to_server, matches, SERVICES["MatchService"].full_name)
    app.add_servicer(  # operators read the trail's log (reads are not themselves audited)
        audit_pb2_grpc.add_AuditServiceServicer_to_server,
        AuditLogServicer(trail, auth, matches.limiter),
        SERVICES["AuditService"].full_name,
    )
    forwarder = Forwarder(settings.matchmaking_addr, auth, matches.limiter, slots)
    add_matchmaking_services(audited, forwarder)

    @app.on_start
    async def connect() -> None:
        upstream.connect()
        forwarder.connect()
        trail.connect()
        revocations.start()
        if operator is not None:
            await bootstrap_operator(upstream, operator.value, passwords)
        try:
            watcher.bus = await Bus.connect(settings.nats_url, settings.service)
        except Exception as exc:  # watching falls back to polling persistence
            log.warning("no NATS connection; watch streams will poll", error=str(exc))
        else:
            renewing.append(asyncio.create_task(watcher.interest.renew_forever()))

    @app.on_stop
    async def disconnect() -> None:
        for task in renewing:
            task.cancel()
        await revocations.stop()
        if watcher.bus is not None:
            await watcher.bus.close()
        await upstream.close()
        await forwarder.close()
        await trail.close()

    return app


def main() -> None:
    settings = Settings() if "GAMEHALL_SERVICE" in os.environ else Settings(service="gateway")
    with exit_on_missing_secret(settings):
        app = build_app(settings)
    app.main()
