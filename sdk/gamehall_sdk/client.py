"""`Gamehall`: one connection to the public gateway, the account's token, and the API groups."""

from __future__ import annotations

import hashlib
import os
import ssl
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

import grpc

from gamehall_sdk.matches import Matches, new_request_id
from gamehall_sdk.matchmaking import Matchmaking
from gamehall_sdk.retry import RetryPolicy
from gamehall_sdk.tournaments import Tournaments
from gamehall_sdk.transport import DEFAULT_TIMEOUT, Transport, all_pages, make_stub
from gamehall_sdk.v1 import (
    audit_pb2,
    audit_pb2_grpc,
    auth_pb2,
    auth_pb2_grpc,
    catalog_pb2,
    catalog_pb2_grpc,
    common_pb2,
)

CHANNEL_OPTIONS: tuple[tuple[str, Any], ...] = (
    ("grpc.max_receive_message_length", 64 * 1024 * 1024),
    ("grpc.enable_retries", 1),
    ("grpc.keepalive_time_ms", 30_000),
    ("grpc.max_reconnect_backoff_ms", 2_000),
)
"""Like the gateway's own upstream channels: large replays fit, transparent retries on. After the gateway went away,
the channel tries to reconnect at most 2 s apart (gRPC's default grows to 120 s: a gateway back after a 5.5 s
restart was first reached 9 s after it went away, past what `play_seat` and the retry policy wait)."""


def pinned_certificate(target: str, fingerprint: str, timeout: float = 10.0) -> bytes:
    """The PEM certificate the server at `target` presents, if its SHA-256 fingerprint is `fingerprint` (hex,
    colons and case ignored); ValueError otherwise. For a self-signed gateway (`make run`'s)."""
    host, _, port = target.rpartition(":")
    pem = ssl.get_server_certificate((host.strip("[]") or "localhost", int(port)), timeout=timeout)
    found = hashlib.sha256(ssl.PEM_cert_to_DER_cert(pem)).hexdigest()
    wanted = fingerprint.replace(":", "").strip().lower()
    if found != wanted:
        shown = ":".join(found[k : k + 2] for k in range(0, len(found), 2)).upper()
        raise ValueError(f"{target} presents a certificate of SHA-256 fingerprint {shown}, not {fingerprint}")
    return pem.encode()


class Gamehall:
    """A client session: `async with Gamehall.connect("host:port") as hall: await hall.login(...)`."""

    def __init__(self, channel: Any, *, timeout: float = DEFAULT_TIMEOUT, retry: RetryPolicy | None = None) -> None:
        self.channel = channel
        self.transport = Transport(timeout, retry)
        self.account: auth_pb2.Account | None = None
        """The logged-in account (None until `register` or `login`)."""
        self.expires_at: datetime | None = None
        """When the token expires (None until `register` or `login`)."""
        self._auth = make_stub(auth_pb2_grpc.AuthServiceStub, channel)
        self._catalog = make_stub(catalog_pb2_grpc.CatalogServiceStub, channel)
        self._audit = make_stub(audit_pb2_grpc.AuditServiceStub, channel)
        self.matches = Matches.over(self.transport, channel)
        self.matchmaking = Matchmaking.over(self.transport, channel)
        self.tournaments = Tournaments.over(self.transport, channel)

    @classmethod
    def connect(
        cls,
        target: str,
        *,
        ca_file: str | os.PathLike[str] | None = None,
        tls: bool = False,
        fingerprint: str = "",
        credentials: Any = None,
        timeout: float = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
        options: Sequence[tuple[str, Any]] = CHANNEL_OPTIONS,
    ) -> Gamehall:
        """Open a channel to the gateway at `target`. TLS, by the first of these that is given:

        - `ca_file`: trust this PEM certificate (the gateway's own, e.g. `make run`'s
          `var/tls/gateway-public.crt`, or the CA that signed it);
        - `fingerprint`: trust the self-signed certificate whose SHA-256 fingerprint `gamehall run` printed
          (`AB:CD:...`): the gateway's certificate is fetched once (blocking) and pinned, ValueError if it differs;
        - `tls=True`: trust the system's store (a gateway with a publicly trusted certificate);
        - `credentials`: any `grpc.ChannelCredentials` you built yourself.

        None of them: plaintext, for a gateway started without TLS (`gamehall run --no-tls`); a TLS gateway
        then closes the connection ("Socket closed", `Unavailable`)."""
        if ca_file is not None:
            credentials = grpc.ssl_channel_credentials(Path(ca_file).read_bytes())
        elif fingerprint:
            credentials = grpc.ssl_channel_credentials(pinned_certificate(target, fingerprint))
        elif tls and credentials is None:
            credentials = grpc.ssl_channel_credentials()
        if credentials is None:
            channel = grpc.aio.insecure_channel(target, options=list(options))
        else:
            channel = grpc.aio.secure_channel(target, credentials, options=list(options))
        return cls(channel, timeout=timeout, retry=retry)

    async def __aenter__(self) -> Gamehall:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the channel (in-flight calls are cancelled)."""
        await self.channel.close()

    @property
    def token(self) -> str:
        """The bearer token attached to every call ("" before login)."""
        return self.transport.token

    @token.setter
    def token(self, value: str) -> None:
        self.transport.token = value

    def _signed_in(self, reply: auth_pb2.RegisterResponse | auth_pb2.LoginResponse) -> auth_pb2.Account:
        self.transport.token = reply.token
        self.account = reply.account
        self.expires_at = reply.expire_time.ToDatetime(tzinfo=UTC)
        return reply.account

    async def register(
        self, username: str, password: str, *, invite_code: str = "", request_id: str | None = None
    ) -> auth_pb2.Account:
        """Create a player account and sign in as it (`invite_code` on a server whose registration is by
        invite). Retried on UNAVAILABLE under one request id (made for you): a retry gets the account the first
        attempt made."""
        request = auth_pb2.RegisterRequest(
            username=username, password=password, invite_code=invite_code, request_id=request_id or new_request_id()
        )
        reply = await self.transport.unary(self._auth.Register, request, auth_pb2.RegisterResponse, idempotent=True)
        return self._signed_in(reply)

    async def login(self, username: str, password: str) -> auth_pb2.Account:
        """Exchange a username and password for a token; later calls carry it."""
        request = auth_pb2.LoginRequest(username=username, password=password)
        reply = await self.transport.unary(self._auth.Login, request, auth_pb2.LoginResponse, idempotent=True)
        return self._signed_in(reply)

    async def whoami(self) -> auth_pb2.Account:
        """The account behind the current token (Unauthenticated without one)."""
        reply = await self.transport.unary(
            self._auth.WhoAmI, auth_pb2.WhoAmIRequest(), auth_pb2.WhoAmIResponse, idempotent=True
        )
        return reply.account

    async def games(self) -> list[common_pb2.GameDescriptor]:
        """Every hosted game with its modes, options and JSON Schemas (every page)."""
        request = catalog_pb2.ListGamesRequest()
        return await all_pages(self.transport, self._catalog.ListGames, request, catalog_pb2.ListGamesResponse, "games")

    async def audit_events(
        self,
        *,
        actor: str = "",
        action: str = "",
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int | None = None,
    ) -> list[audit_pb2.AuditEvent]:
        """Operators: the audit log of operator actions, newest first, following every page (or up to `limit`
        events); `actor` an account id or username, `action` an RPC or a prefix ending in "."
        ("TournamentService."), [`since`, `until`) a time range. PermissionDenied for anyone else."""
        request = audit_pb2.ListAuditEventsRequest(actor=actor, action=action)
        if since is not None:
            request.start_time.FromDatetime(since)
        if until is not None:
            request.end_time.FromDatetime(until)
        return await all_pages(
            self.transport, self._audit.ListAuditEvents, request, audit_pb2.ListAuditEventsResponse, "events", limit
        )
