"""Bearer tokens on every call, and the AuthService (register, login, who am I).

`Authenticator.claims(context)` is the per-handler check: UNAUTHENTICATED when the token is
missing, expired or forged, or its account is gone; the role always comes from the account record
(never from the token), so a token cannot grant more than its account has. Passwords are hashed
with argon2 in a worker thread (it is slow on purpose). Login and Register are rate-limited per
address and per username, failed logins back off (auth_limits), and who may register is the
operator's choice: open, invite codes, or operators only (`GAMEHALL_REGISTRATION`).
"""

from __future__ import annotations

import asyncio
import contextvars
import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc
import structlog

from gamehall.auth import Claims, Passwords, Principals, validate_password, validate_username
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.runtime.errors import ClientError
from gamehall.runtime.identity import authenticate, bearer_token
from gamehall.runtime.settings import Settings
from gamehall.wire.public import timestamp
from gamehall_sdk.v1 import auth_pb2, auth_pb2_grpc, common_pb2
from gamehall_services.gateway.auth_limits import AuthLimits, client_address
from gamehall_services.gateway.revocations import Revocations
from gamehall_services.gateway.upstream import Upstream, call

log = structlog.get_logger("gamehall.gateway.auth")

TOKEN_TTL_SECONDS = 24 * 3600
OPERATOR_USERNAME = "operator"
REGISTER_RETRY_WINDOW_S = 24 * 3600
"""How long after an account's creation a Register with a request id and its password answers it again."""
_ROLES = {"player": auth_pb2.ROLE_PLAYER, "operator": auth_pb2.ROLE_OPERATOR, "bot": auth_pb2.ROLE_BOT}


_RESOLVED: contextvars.ContextVar[tuple[object, Claims] | None] = contextvars.ContextVar(
    "gateway_resolved_caller", default=None
)
"""The caller this RPC's task resolved, with the call context it belongs to: the audit trail and the handler
both ask, and each RPC runs in its own task (so its own copy of this variable)."""


ANONYMOUS = Claims(sub="anonymous", name="anonymous", role="player", iat=0, exp=2**31, iss="gamehall", jti="")
"""The caller of a public read made without a token (issue 38): an account id no account has (ids are UUIDs), so
it holds no seat and created nothing, and may see public matches only, as a spectator."""


class Authenticator:
    """The per-handler check: the caller's verified claims, with role and name from the account record."""

    def __init__(
        self,
        principals: Principals,
        revocations: Revocations | None = None,
        address_of: Callable[[grpc.aio.ServicerContext], str] = client_address,
    ) -> None:
        self.principals = principals
        self.tokens = principals.tokens
        self.revocations = revocations
        """Signed-out tokens (Logout), refused on every call; None: no revocation (unit tests)."""
        self.address_of = address_of
        """The client's address (the browser's, as the web service vouches for it): anonymous readers' limit key."""

    async def reader(self, context: grpc.aio.ServicerContext) -> tuple[Claims, str]:
        """The caller of a read anonymous visitors may make, and the key its rate and watch limits count: a signed-in
        caller as `claims` checks it (a bad token is still UNAUTHENTICATED), or without any token the anonymous
        spectator, counted per client address."""
        if bearer_token(context):
            claims = await self.claims(context)
            return claims, claims.account_id
        return ANONYMOUS, f"anonymous@{self.address_of(context)}"

    async def claims(self, context: grpc.aio.ServicerContext) -> Claims:
        """Resolved once per call: a second ask within the same RPC (audit trail, then handler) reuses it."""
        resolved = _RESOLVED.get()
        if resolved is not None and resolved[0] is context:
            return resolved[1]
        claims = await authenticate(context, self.principals)
        if self.revocations is not None:
            self.revocations.check(claims)
        _RESOLVED.set((context, claims))
        return claims


def account_to_public(account: ppb.AccountRecord) -> auth_pb2.Account:
    return auth_pb2.Account(
        id=account.id, username=account.username, role=_ROLES.get(account.role, auth_pb2.ROLE_UNSPECIFIED)
    )


@dataclass(frozen=True)
class Registration:
    """Who may create an account: `open` (anyone), `invite` (with one of `invite_codes`) or
    `operator-only` (an operator's authenticated call, creating the account for someone)."""

    mode: str = "open"
    invite_codes: tuple[str, ...] = ()

    @classmethod
    def from_settings(cls, settings: Settings) -> Registration:
        codes = tuple(c.strip() for c in settings.registration_invite_codes.get_secret_value().split(",") if c.strip())
        return cls(settings.registration, codes)

    def accepts(self, code: str) -> bool:
        """Constant-time comparison against every configured code."""
        given = code.encode()
        return any(hmac.compare_digest(given, known.encode()) for known in self.invite_codes) if code else False


def _denied(message: str) -> ClientError:
    return ClientError(grpc.StatusCode.PERMISSION_DENIED, message, common_pb2.ERROR_REASON_PERMISSION_DENIED)


class AuthServicer(auth_pb2_grpc.AuthServiceServicer):
    def __init__(
        self,
        upstream: Upstream,
        auth: Authenticator,
        passwords: Passwords | None = None,
        limits: AuthLimits | None = None,
        registration: Registration | None = None,
    ) -> None:
        self.upstream = upstream
        self.auth = auth
        self.passwords = passwords or Passwords()
        self.limits = limits or AuthLimits()
        self.registration = registration or Registration()

    async def _admit(self, request: auth_pb2.RegisterRequest, context: grpc.aio.ServicerContext) -> None:
        """Refuse a registration the server's policy does not allow, before any hashing."""
        if self.registration.mode == "operator-only":
            claims = await self.auth.claims(context)  # UNAUTHENTICATED without a valid token
            if claims.role != "operator":
                raise _denied("accounts on this server are created by an operator")
            return
        self.limits.check_register(self.limits.address(context))
        if self.registration.mode == "invite" and not self.registration.accepts(request.invite_code):
            raise _denied("registration on this server needs a valid invite code")

    def _issue(self, account: ppb.AccountRecord) -> tuple[str, int]:
        token = self.auth.tokens.issue(account, TOKEN_TTL_SECONDS)
        return token, int(self.auth.tokens.verify(token).exp)

    async def Register(self, request: auth_pb2.RegisterRequest, context: Any) -> auth_pb2.RegisterResponse:
        await self._admit(request, context)
        validate_username(request.username)
        validate_password(request.password, request.username)
        password_hash = await asyncio.to_thread(self.passwords.hash, request.password)
        try:
            created = await call(
                self.upstream.persistence.CreateAccount(
                    ppb.CreateAccountRequest(username=request.username, password_hash=password_hash, role="player")
                )
            )
        except ClientError as exc:
            if exc.code != grpc.StatusCode.ALREADY_EXISTS or not request.request_id:
                raise
            created = await self._registered_before(request, exc, context)
        token, expires = self._issue(created.account)
        return auth_pb2.RegisterResponse(
            account=account_to_public(created.account), token=token, expire_time=timestamp(expires)
        )

    async def _registered_before(self, request: auth_pb2.RegisterRequest, taken: ClientError, context: Any) -> Any:
        """A retried Register (AIP-155, with a request id): the account exists, was made recently, and the password
        is the one sent; its answer is the account again with a new token. Any other taken username stays taken.

        The account store keeps no request ids, so the key is the username and the password: a client who retries
        with the password of the first request gets what the first request made, as a login would give it (and a
        wrong password counts as a failed login)."""
        found = await call(self.upstream.persistence.GetAccount(ppb.GetAccountRequest(username=request.username)))
        age_ms = time.time() * 1000 - found.account.created_unix_ms
        if found.account.role != "player" or age_ms > REGISTER_RETRY_WINDOW_S * 1000:
            raise taken
        address = self.limits.address(context)
        self.limits.check_login(request.username, address)  # a password check: throttled as one
        if not await asyncio.to_thread(self.passwords.verify, found.account.password_hash, request.password):
            self.limits.login_failed(request.username, address)
            raise taken
        return found

    async def Login(self, request: auth_pb2.LoginRequest, context: Any) -> auth_pb2.LoginResponse:
        refused = ClientError(
            grpc.StatusCode.UNAUTHENTICATED,
            "unknown username or wrong password",
            common_pb2.ERROR_REASON_UNAUTHENTICATED,
        )
        if not request.username or not request.password:
            raise refused
        address = self.limits.address(context)
        self.limits.check_login(request.username, address)
        try:
            found = await call(self.upstream.persistence.GetAccount(ppb.GetAccountRequest(username=request.username)))
        except ClientError as exc:
            if exc.code == grpc.StatusCode.NOT_FOUND:
                self.limits.login_failed(request.username, address)
                raise refused from None
            raise
        ok = await asyncio.to_thread(self.passwords.verify, found.account.password_hash, request.password)
        if not ok:
            self.limits.login_failed(request.username, address)
            raise refused
        self.limits.login_succeeded(request.username, address)
        if self.passwords.needs_rehash(found.account.password_hash):
            await self._rehash(found.account.id, request.password)
        token, expires = self._issue(found.account)
        return auth_pb2.LoginResponse(
            account=account_to_public(found.account), token=token, expire_time=timestamp(expires)
        )

    async def _rehash(self, account_id: str, password: str) -> None:
        """Store a hash made with today's parameters (raised since this one was made); a failure only waits
        for the next login."""
        fresh = await asyncio.to_thread(self.passwords.hash, password)
        try:
            await call(
                self.upstream.persistence.SetPasswordHash(
                    ppb.SetPasswordHashRequest(account_id=account_id, password_hash=fresh)
                )
            )
            log.info("password rehashed with current parameters", account_id=account_id)
        except ClientError as exc:
            log.warning("password rehash not stored", account_id=account_id, error=str(exc))

    async def Logout(self, request: Any, context: grpc.aio.ServicerContext) -> auth_pb2.LogoutResponse:
        """Revoke the presented token everywhere (gateway.revocations); the account's other tokens stay valid."""
        claims = await self.auth.claims(context)
        if self.auth.revocations is None:
            raise ClientError(
                grpc.StatusCode.UNIMPLEMENTED, "sign-out is not available here", common_pb2.ERROR_REASON_UNSPECIFIED
            )
        await self.auth.revocations.revoke(claims)
        log.info("token signed out", account_id=claims.account_id)
        return auth_pb2.LogoutResponse()

    async def WhoAmI(self, request: Any, context: grpc.aio.ServicerContext) -> auth_pb2.WhoAmIResponse:
        claims = await self.auth.claims(context)
        found = await call(self.upstream.persistence.GetAccount(ppb.GetAccountRequest(id=claims.account_id)))
        return auth_pb2.WhoAmIResponse(account=account_to_public(found.account))


async def bootstrap_operator(upstream: Upstream, password: str, passwords: Passwords | None = None) -> None:
    """Create the `operator` account from GAMEHALL_OPERATOR_PASSWORD once (idempotent across replicas)."""
    if not password:
        return
    password_hash = await asyncio.to_thread((passwords or Passwords()).hash, password)
    try:
        await call(
            upstream.persistence.CreateAccount(
                ppb.CreateAccountRequest(username=OPERATOR_USERNAME, password_hash=password_hash, role="operator")
            )
        )
        log.info("operator account created")
    except ClientError as exc:
        if exc.code != grpc.StatusCode.ALREADY_EXISTS:
            raise
