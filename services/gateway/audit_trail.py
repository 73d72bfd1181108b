"""The audit trail of operator actions, kept at the one place every public call passes: the gateway.

Every changing call (not a Get, List or Watch, WhoAmI or Login) made by an operator account, and every
call of an operator-only RPC (access_matrix.ACCESS: refused to players) by anyone signed in, is wrapped:

1. an audit event is written through persistence's AuditService *before* the handler runs (outcome
   `pending`); if it cannot be written the call is refused with UNAVAILABLE, so no operator action
   runs unrecorded;
2. the handler runs (the gateway's own, or the forward to matchmaking / the rules owner);
3. the event is finished with `OK` or the failure's status name, and the target the result names.

The changes themselves happen in other services and stores (matchmaking's tournament documents, the
rules owner's match log), so they cannot share a transaction with the event; step 1 is what makes a
successful action impossible without its record. A crash between 2 and 3 leaves the event `pending`,
which `gamehall audit` shows as "outcome unknown". Secrets (passwords, invite codes) never reach the log.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import grpc
import msgspec
import structlog
from google.protobuf import descriptor_pool
from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message

from gamehall.auth import Claims
from gamehall.internal.v1 import audit_pb2 as apb
from gamehall.internal.v1 import audit_pb2_grpc
from gamehall.runtime.channels import internal_channel
from gamehall.runtime.errors import ClientError, lookup
from gamehall_sdk.v1 import common_pb2
from gamehall_services.gateway.access_matrix import ACCESS
from gamehall_services.gateway.auth import Authenticator

log = structlog.get_logger("gamehall.gateway.audit")

READS = ("Get", "List", "Watch")
NOT_ACTIONS = frozenset({"WhoAmI", "Login", "Logout"})  # Logout records its own event (gateway.revocations)
OPERATOR_ONLY = frozenset(
    name for name, row in ACCESS.items() if "(" not in name and row[1] == "PERMISSION_DENIED" == row[2]
)
"""RPCs refused to every player (CreateTournament, StartTournament, ...): even refused attempts are logged."""
SECRET_WORDS = ("password", "invite", "token", "secret")
TARGET_FIELDS = (
    ("tournament_id", "tournament"),
    ("match_id", "match"),
    ("ticket_id", "ticket"),
    ("player", "player"),
    ("account_id", "account"),
    ("username", "username"),
)
RESULT_FIELDS = (("tournament", "tournament"), ("match", "match"), ("ticket", "ticket"), ("account", "account"))

Handler = Callable[[Any, grpc.aio.ServicerContext], Awaitable[Any]]


def is_change(method: str) -> bool:
    return not method.startswith(READS) and method not in NOT_ACTIONS


def audited(method: str, claims: Claims) -> bool:
    """Whether this call by this caller leaves an audit event."""
    if not is_change(method):
        return False
    return claims.role == "operator" or method in OPERATOR_ONLY


def redacted(request: Message) -> dict[str, Any]:
    """The request's fields as JSON, without anything secret."""
    fields = MessageToDict(request, preserving_proto_field_name=True)
    return {k: v for k, v in fields.items() if not any(word in k.lower() for word in SECRET_WORDS)}


def target_of(request: Message) -> str:
    """What the request is about (`tournament:<id>`, `match:<id>`...), '' when it names nothing."""
    names = {f.name for f in request.DESCRIPTOR.fields}
    parts = [f"{label}:{getattr(request, field)}" for field, label in TARGET_FIELDS if field in names]
    return " ".join(p for p in parts if not p.endswith(":"))


def result_target(response: Any) -> str:
    """What the response names as made or changed (a new tournament's, ticket's or match's id)."""
    if not isinstance(response, Message):
        return ""
    names = {f.name for f in response.DESCRIPTOR.fields}
    for field, label in RESULT_FIELDS:
        if field in names and response.HasField(field):
            made = getattr(response, field)
            if getattr(made, "id", ""):
                return f"{label}:{made.id}"
    return ""


def outcome_of(exc: BaseException) -> tuple[str, str]:
    """(status name, message) of a handler's failure, as the client will see it."""
    if isinstance(exc, asyncio.CancelledError):
        return grpc.StatusCode.CANCELLED.name, "the call was cancelled; the action may or may not have happened"
    if isinstance(exc, ClientError):
        return exc.code.name, exc.message
    if isinstance(exc, grpc.aio.AioRpcError):
        return exc.code().name, exc.details() or ""
    mapped = lookup(exc)
    if mapped is not None:
        return mapped.code.name, str(exc)
    return grpc.StatusCode.INTERNAL.name, type(exc).__name__


class AuditTrail:
    """Wraps servicers' handlers and writes their events to persistence's AuditService."""

    def __init__(self, persistence_addr: str, auth: Authenticator, timeout: float = 5.0) -> None:
        self.address = persistence_addr
        self.auth = auth
        self.timeout = timeout
        self.channel: grpc.aio.Channel | None = None
        self.stub: audit_pb2_grpc.AuditServiceStub | None = None

    def connect(self) -> None:
        self.channel = internal_channel(self.address, deadline=self.timeout)
        self.stub = audit_pb2_grpc.AuditServiceStub(self.channel)

    async def close(self) -> None:
        if self.channel is not None:
            await self.channel.close()

    def wrap(self, servicer: Any, full_name: str) -> Any:
        """`servicer` with each unary changing method recording its operator calls (streams are reads)."""
        service = descriptor_pool.Default().FindServiceByName(full_name)
        for method in service.methods:
            if method.server_streaming or not is_change(method.name):
                continue
            original = getattr(servicer, method.name)
            setattr(servicer, method.name, self._recording(f"{service.name}.{method.name}", original))
        return servicer

    def _recording(self, action: str, handler: Handler) -> Handler:
        method = action.rsplit(".", 1)[1]

        async def recorded(request: Any, context: grpc.aio.ServicerContext) -> Any:
            try:
                claims = await self.auth.claims(context)
            except ClientError:
                return await handler(request, context)  # no caller: the handler refuses it the same way
            if not audited(method, claims):
                return await handler(request, context)
            event_id = uuid.uuid4().hex
            await self._begin(event_id, action, claims, request)
            try:
                response = await handler(request, context)
            except BaseException as exc:
                await self._finish(event_id, *outcome_of(exc))
                raise
            await self._finish(event_id, "OK", "", result_target(response))
            return response

        return recorded

    async def _begin(self, event_id: str, action: str, claims: Claims, request: Message) -> None:
        begin = apb.BeginAuditEventRequest(
            id=event_id,
            actor=claims.account_id,
            actor_name=claims.name,
            role=claims.role,
            action=action,
            target=target_of(request),
            detail_json=msgspec.json.encode(redacted(request)).decode(),
        )
        try:
            assert self.stub is not None, "AuditTrail.connect() was not called"
            await self.stub.BeginAuditEvent(begin, timeout=self.timeout)
        except grpc.aio.AioRpcError as exc:
            log.warning("audit log unavailable; operator action refused", action=action, error=exc.details())
            raise ClientError(
                grpc.StatusCode.UNAVAILABLE,
                "the audit log is unavailable, so operator actions are refused for now; retry shortly",
                common_pb2.ERROR_REASON_UNSPECIFIED,
            ) from exc

    async def _finish(self, event_id: str, outcome: str, message: str, target: str = "") -> None:
        finish = apb.FinishAuditEventRequest(id=event_id, outcome=outcome, message=message[:1000], target=target)
        try:
            assert self.stub is not None
            await self.stub.FinishAuditEvent(finish, timeout=self.timeout)
        except grpc.aio.AioRpcError as exc:  # the action is done; its event stays `pending` (outcome unknown)
            log.warning("audit event left pending", event=event_id, outcome=outcome, error=exc.details())


class AuditedServices:
    """Stands in for the `ServiceApp` when registering servicers: each is wrapped by the trail first."""

    def __init__(self, app: Any, trail: AuditTrail) -> None:
        self.app = app
        self.trail = trail

    def add_servicer(
        self, add_to_server: Callable[[Any, grpc.aio.Server], None], servicer: Any, full_name: str
    ) -> None:
        self.app.add_servicer(add_to_server, self.trail.wrap(servicer, full_name), full_name)
