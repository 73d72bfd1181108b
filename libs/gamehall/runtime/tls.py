"""Transport security of one service process, from its settings: gRPC server and channel credentials, and the
NATS connection's TLS context.

- Internal mTLS: with `tls_cert_file`, `tls_key_file` and `tls_ca_file` set, an internal server asks every
  caller for a certificate from that CA and checks its identity (gamehall.runtime.callers); channels present
  the service's certificate and verify the server's.
- Public TLS: the gateway's port serves `public_tls_cert_file` / `public_tls_key_file` (no client certificate).
- A start that is not embedded (a non-loopback address or GAMEHALL_ENVIRONMENT=production) without these
  certificates refuses, unless `allow_plaintext` says TLS is terminated elsewhere (a service mesh).

`configure(settings)` is called once by the harness; `internal_channel` (gamehall.runtime.channels) then
uses the process's client credentials without every call site passing them.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc

from gamehall.runtime.callers import PUBLIC_SERVERS, role_of
from gamehall.runtime.embedded_secrets import MissingSecret, is_embedded
from gamehall.runtime.settings import Settings


@dataclass(frozen=True)
class Transport:
    """What one process uses on the wire (read once from the settings)."""

    service: str
    ca: bytes | None = None
    cert: bytes | None = None
    key: bytes | None = None
    public_cert: bytes | None = None
    public_key: bytes | None = None
    nats_user: str = ""
    nats_password: str = ""

    @property
    def mutual(self) -> bool:
        """Internal mTLS is on: this process has a platform certificate and the CA."""
        return self.ca is not None and self.cert is not None and self.key is not None

    @property
    def public(self) -> bool:
        return role_of(self.service) in PUBLIC_SERVERS

    def server_credentials(self) -> grpc.ServerCredentials | None:
        """The credentials of this process's gRPC port, or None for plaintext."""
        if self.public:
            if self.public_cert is None or self.public_key is None:
                return None
            return grpc.ssl_server_credentials([(self.public_key, self.public_cert)], require_client_auth=False)
        if not self.mutual:
            return None
        assert self.key is not None and self.cert is not None
        return grpc.ssl_server_credentials([(self.key, self.cert)], root_certificates=self.ca, require_client_auth=True)

    def channel_credentials(self) -> grpc.ChannelCredentials | None:
        """Credentials of a channel to an internal server; None: plaintext."""
        if not self.mutual:
            return None
        return grpc.ssl_channel_credentials(self.ca, private_key=self.key, certificate_chain=self.cert)

    def nats_options(self) -> dict[str, Any]:
        """nats.connect's login, TLS and reply inbox for this service (empty on a plaintext, open server)."""
        options: dict[str, Any] = {}
        context = self.nats_context()
        if context is not None:
            options["tls"] = context
        if self.nats_user:
            options.update(user=self.nats_user, password=self.nats_password, inbox_prefix=f"_INBOX.{self.nats_user}")
        return options

    def nats_context(self) -> ssl.SSLContext | None:
        """TLS of the NATS connection: the server is verified with the platform CA (the client logs in with its
        own user and password, gamehall.runtime.nats_access); None without a CA."""
        if self.ca is None:
            return None
        return ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cadata=self.ca.decode())


def _read(path: Path | None, what: str) -> bytes | None:
    if path is None or str(path) == "":
        return None
    try:
        return path.read_bytes()
    except OSError as exc:
        raise MissingSecret(f"{what} {path} cannot be read: {exc.strerror}") from exc


def transport(settings: Settings) -> Transport:
    """The process's transport from its settings; raises MissingSecret where plaintext is not allowed."""
    found = Transport(
        service=settings.service,
        ca=_read(settings.tls_ca_file, "GAMEHALL_TLS_CA_FILE"),
        cert=_read(settings.tls_cert_file, "GAMEHALL_TLS_CERT_FILE"),
        key=_read(settings.tls_key_file, "GAMEHALL_TLS_KEY_FILE"),
        public_cert=_read(settings.public_tls_cert_file, "GAMEHALL_PUBLIC_TLS_CERT_FILE"),
        public_key=_read(settings.public_tls_key_file, "GAMEHALL_PUBLIC_TLS_KEY_FILE"),
        nats_user=settings.nats_user,
        nats_password=settings.nats_password.get_secret_value(),
    )
    partial = [n for n, v in (("CERT", found.cert), ("KEY", found.key), ("CA", found.ca)) if v is not None]
    if partial and len(partial) < 3:
        raise MissingSecret(
            f"internal mTLS needs GAMEHALL_TLS_CERT_FILE, GAMEHALL_TLS_KEY_FILE and GAMEHALL_TLS_CA_FILE; only "
            f"{', '.join('GAMEHALL_TLS_' + n + '_FILE' for n in partial)} is set"
        )
    if (found.public_cert is None) != (found.public_key is None):
        raise MissingSecret(
            "the gateway's TLS needs both GAMEHALL_PUBLIC_TLS_CERT_FILE and GAMEHALL_PUBLIC_TLS_KEY_FILE"
        )
    if not is_embedded(settings) and not settings.allow_plaintext:
        missing = (found.public and found.public_cert is None) or (not found.public and not found.mutual)
        if missing:
            raise MissingSecret(
                f"no TLS certificate for {settings.service!r}. A service that listens on {settings.host!r} or runs "
                f"with GAMEHALL_ENVIRONMENT={settings.environment} serves TLS only: set "
                + (
                    "GAMEHALL_PUBLIC_TLS_CERT_FILE and GAMEHALL_PUBLIC_TLS_KEY_FILE (the gateway's public pair), "
                    if found.public
                    else "GAMEHALL_TLS_CERT_FILE, GAMEHALL_TLS_KEY_FILE and GAMEHALL_TLS_CA_FILE (its mTLS identity), "
                )
                + "e.g. from cert-manager (the Helm chart's tls values), or GAMEHALL_ALLOW_PLAINTEXT=true if a "
                "service mesh or a proxy already encrypts and authenticates this hop."
            )
    return found


_CURRENT: Transport | None = None


def configure(settings: Settings) -> Transport:
    """Read this process's transport once (the harness does it at start) and make it the channels' default."""
    global _CURRENT
    _CURRENT = transport(settings)
    return _CURRENT


def current() -> Transport | None:
    """The transport `configure` set in this process (None: plaintext loopback, e.g. a unit test)."""
    return _CURRENT


def reset() -> None:
    """Forget the configured transport (tests that run several in-process services in turn)."""
    global _CURRENT
    _CURRENT = None


__all__ = ["Transport", "configure", "current", "reset", "transport"]
