"""Transport security of one service process, from its settings: gRPC server and channel credentials, and the
NATS connection's TLS context.

- Internal mTLS: with `tls_cert_file`, `tls_key_file` and `tls_ca_file` set, an internal server asks every
  caller for a certificate from that CA and checks its identity (gamehall.runtime.callers); channels present
  the service's certificate and verify the server's.
- Public TLS: the gateway's port serves `public_tls_cert_file` / `public_tls_key_file` (no client certificate).
- A start that is not embedded (a non-loopback address or GAMEHALL_ENVIRONMENT=production) without these
  certificates refuses, unless `allow_plaintext` says TLS is terminated elsewhere (a service mesh).

`configure(settings)` is called once by the harness; `internal_channel` (gamehall.runtime.channels) then
uses the process's client credentials without every call site passing them. Renewed files are picked up live
(gamehall.runtime.cert_reload): the harness checks them every `tls_reload_seconds`, new connections to the
servers get the new pair, channels present it on their next call, NATS reconnections trust a renewed CA.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc

from gamehall.runtime.callers import PUBLIC_SERVERS, role_of
from gamehall.runtime.cert_reload import CertificateFiles, Material
from gamehall.runtime.embedded_secrets import MissingSecret, is_embedded
from gamehall.runtime.settings import Settings


@dataclass(frozen=True)
class Transport:
    """What one process uses on the wire: its certificate files (re-read when renewed), its NATS login."""

    service: str
    internal: CertificateFiles | None = None
    """The platform identity: key, certificate and the CA bundle (internal mTLS, and the NATS server's CA)."""
    public_files: CertificateFiles | None = None
    """The gateway's public pair."""
    nats_user: str = ""
    nats_password: str = ""

    @property
    def mutual(self) -> bool:
        """Internal mTLS is on: this process has a platform certificate and the CA."""
        return self.internal is not None

    @property
    def public(self) -> bool:
        return role_of(self.service) in PUBLIC_SERVERS

    @property
    def ca(self) -> bytes | None:
        return self.internal.material.ca if self.internal is not None else None

    def check(self) -> bool:
        """Re-read renewed certificate files now (the harness calls it every `tls_reload_seconds`)."""
        renewed = False
        for files in (self.internal, self.public_files):
            if files is not None:
                renewed = files.refresh() or renewed
        return renewed

    def server_credentials(self) -> grpc.ServerCredentials | None:
        """The credentials of this process's gRPC port, or None for plaintext. They follow renewals: each new
        connection gets the latest accepted pair (gamehall.runtime.cert_reload)."""
        if self.public:
            if self.public_files is None:
                return None
            return self.public_files.server_credentials(require_client_auth=False)
        if self.internal is None:
            return None
        return self.internal.server_credentials(require_client_auth=True)

    def channel_credentials(self) -> grpc.ChannelCredentials | None:
        """Credentials of a channel to an internal server from the current pair; None: plaintext. Long-lived
        channels use gamehall.runtime.renewing_channel (via `internal_channel`) to follow renewals."""
        if self.internal is None:
            return None
        return self.internal.channel_credentials()

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
        own user and password, gamehall.runtime.nats_access); None without a CA. A renewed CA bundle is added to
        the context, so reconnections trust a rotated CA while the old one still verifies."""
        if self.internal is None or self.ca is None:
            return None
        context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cadata=self.ca.decode())

        def trust(material: Material) -> None:
            if material.ca is not None:
                context.load_verify_locations(cadata=material.ca.decode())

        self.internal.on_change(trust)
        return context


def _readable(path: Path | None, what: str) -> None:
    if path is None:
        return
    try:
        with path.open("rb"):
            pass
    except OSError as exc:
        raise MissingSecret(f"{what} {path} cannot be read: {exc.strerror}") from exc


def _path(path: Path | None) -> Path | None:
    return None if path is None or str(path) == "" else path


def _files(what: str, key: Path | None, cert: Path | None, ca: Path | None, every: float) -> CertificateFiles | None:
    if key is None or cert is None:
        return None
    return CertificateFiles(what, key, cert, ca, check_every=every)


def transport(settings: Settings) -> Transport:
    """The process's transport from its settings; raises MissingSecret where plaintext is not allowed, or when a
    file cannot be read or its key is not its certificate's."""
    cert, key, ca = _path(settings.tls_cert_file), _path(settings.tls_key_file), _path(settings.tls_ca_file)
    public_cert, public_key = _path(settings.public_tls_cert_file), _path(settings.public_tls_key_file)
    for name, path in (("CA", ca), ("CERT", cert), ("KEY", key)):
        _readable(path, f"GAMEHALL_TLS_{name}_FILE")
    for name, path in (("CERT", public_cert), ("KEY", public_key)):
        _readable(path, f"GAMEHALL_PUBLIC_TLS_{name}_FILE")
    partial = [n for n, v in (("CERT", cert), ("KEY", key), ("CA", ca)) if v is not None]
    if partial and len(partial) < 3:
        raise MissingSecret(
            f"internal mTLS needs GAMEHALL_TLS_CERT_FILE, GAMEHALL_TLS_KEY_FILE and GAMEHALL_TLS_CA_FILE; only "
            f"{', '.join('GAMEHALL_TLS_' + n + '_FILE' for n in partial)} is set"
        )
    if (public_cert is None) != (public_key is None):
        raise MissingSecret(
            "the gateway's TLS needs both GAMEHALL_PUBLIC_TLS_CERT_FILE and GAMEHALL_PUBLIC_TLS_KEY_FILE"
        )
    every = settings.tls_reload_seconds
    found = Transport(
        service=settings.service,
        internal=_files("GAMEHALL_TLS_KEY_FILE/CERT_FILE/CA_FILE", key, cert, ca, every),
        public_files=_files("GAMEHALL_PUBLIC_TLS_KEY_FILE/CERT_FILE", public_key, public_cert, None, every),
        nats_user=settings.nats_user,
        nats_password=settings.nats_password.get_secret_value(),
    )
    if not is_embedded(settings) and not settings.allow_plaintext:
        missing = (found.public and found.public_files is None) or (not found.public and not found.mutual)
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
