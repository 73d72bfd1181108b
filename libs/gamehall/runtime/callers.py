"""Who may call whom inside the platform: the allowed-callers table that every mTLS server checks.

A caller's identity is the service name its certificate carries (URI SAN `spiffe://gamehall/<service>`, else
the common name); its role drops a replica suffix and the game (`rules-grimmoir-2` -> `rules`). The table
below is the platform's call graph, read from the code (services/<role> open these stubs); the unit test
tests/unit/runtime/test_callers.py derives the graph from the source again and fails when the two differ,
so a new call needs a line here and nothing else gets through. Health checks, reflection and the
diagnostics echo answer every holder of a platform certificate (the launcher's and the probes' too).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import grpc

from gamehall.runtime.errors import ClientError
from gamehall_sdk.v1 import common_pb2

GATEWAY, PERSISTENCE, MATCHMAKING, AI, RULES = "gateway", "persistence", "matchmaking", "ai", "rules"
ROLES: Final = frozenset({GATEWAY, PERSISTENCE, MATCHMAKING, AI, RULES})

PUBLIC_SERVERS: Final = frozenset({GATEWAY})
"""Roles whose gRPC port is the public door: TLS with the public certificate, no client certificate asked for
(callers are authenticated by their bearer tokens, gamehall.auth)."""

LIVE, RULES_SERVICE = "gamehall.internal.v1.LiveMatchService", "gamehall.internal.v1.RulesService"
ALLOWED_CALLERS: Final[dict[str, frozenset[str]]] = {
    "gamehall.internal.v1.PersistenceService": frozenset({GATEWAY, MATCHMAKING, RULES, AI}),
    "gamehall.internal.v1.MatchmakingStoreService": frozenset({MATCHMAKING}),
    "gamehall.internal.v1.AuditService": frozenset({GATEWAY}),  # the audit trail of operator actions
    "gamehall.v1.MatchmakingService": frozenset({GATEWAY}),  # the gateway checks the token and forwards
    "gamehall.v1.TournamentService": frozenset({GATEWAY}),
    f"{RULES_SERVICE}/DescribeGame": frozenset({GATEWAY}),  # the catalog
    f"{LIVE}/OpenMatch": frozenset({GATEWAY, MATCHMAKING}),  # a player's CreateMatch; a pairing's match
    f"{LIVE}/JoinMatch": frozenset({GATEWAY, MATCHMAKING}),  # a player's JoinMatch; a matchmade seat taken for it
    f"{LIVE}/PlayStream": frozenset({GATEWAY, AI}),  # moves and their reads (gamehall.runtime.play_stream)
    f"{LIVE}/GetReplay": frozenset({GATEWAY}),
    f"{LIVE}/GetHead": frozenset({GATEWAY}),
    f"{LIVE}/LeaveMatch": frozenset({GATEWAY}),  # a player leaving: an open match's seat freed, a running one's forfeit
    f"{LIVE}/Close": frozenset({MATCHMAKING}),  # a tournament match's no-show abort
}
"""An internal gRPC service (`pkg.Service`, every method) or one method (`pkg.Service/Method`) -> the roles that
may call it. What is not here is refused to every caller (a method added to RulesService or LiveMatchService is
refused until its callers are named here)."""

OPEN_TO_PEERS: Final = frozenset(
    {
        "grpc.health.v1.Health",
        "grpc.reflection.v1alpha.ServerReflection",
        "grpc.reflection.v1.ServerReflection",
        "gamehall.internal.v1.DiagnosticsService",
    }
)
"""Services any verified platform certificate may call (probes, the launcher's readiness check, tools)."""


def role_of(identity: str) -> str:
    """The role of a service name: `rules-<game>[-<n>]` -> `rules`; other names are their own role."""
    return RULES if identity.startswith("rules-") or identity == RULES else identity


def peer_identity(auth_context: dict[str, Sequence[bytes]]) -> str | None:
    """The service name a verified client certificate carries (gRPC's auth context), or None."""
    for uri in auth_context.get("peer_spiffe_id", ()) or auth_context.get("x509_subject_alternative_name", ()):
        text = uri.decode(errors="replace")
        if text.startswith("spiffe://gamehall/"):
            return text.removeprefix("spiffe://gamehall/")
    names = auth_context.get("x509_common_name", ())
    return names[0].decode(errors="replace") if names else None


def allowed(method: str, identity: str | None, table: dict[str, frozenset[str]] | None = None) -> bool:
    """May the holder of `identity` call `method` (`/pkg.Service/Method`)?"""
    if identity is None:
        return False
    full = method.lstrip("/")
    service = full.split("/", 1)[0]
    if service in OPEN_TO_PEERS:
        return True
    role = role_of(identity)
    table = ALLOWED_CALLERS if table is None else table
    return role in table.get(full, frozenset()) or role in table.get(service, frozenset())


class CallerCheck:
    """The interceptor's per-call check on an mTLS server: PERMISSION_DENIED for a caller the table refuses."""

    def __init__(self, server_role: str, table: dict[str, frozenset[str]] | None = None) -> None:
        self.server_role = server_role
        self.table = ALLOWED_CALLERS if table is None else table

    def __call__(self, method: str, context: grpc.aio.ServicerContext) -> None:
        identity = peer_identity(dict(context.auth_context()))
        if not allowed(method, identity, self.table):
            raise ClientError(
                grpc.StatusCode.PERMISSION_DENIED,
                f"{identity or 'a caller without a platform certificate'} may not call {method} on {self.server_role}",
                common_pb2.ERROR_REASON_PERMISSION_DENIED,
            )


def edges(table: dict[str, frozenset[str]] | None = None) -> set[tuple[str, str]]:
    """The table as (caller role, gRPC service) pairs."""
    return {(role, service) for service, roles in (table or ALLOWED_CALLERS).items() for role in roles}


__all__ = [
    "ALLOWED_CALLERS",
    "OPEN_TO_PEERS",
    "PUBLIC_SERVERS",
    "ROLES",
    "CallerCheck",
    "allowed",
    "edges",
    "peer_identity",
    "role_of",
]
