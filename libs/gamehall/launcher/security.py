"""Transport security of the embedded platform: the data dir's CA and certificates, the gateway's self-signed
public pair, and nats-server's TLS and per-service users.

Everything lives in `<data_dir>/tls` and is made once (the CA, each service's certificate, the public pair);
the NATS passwords are new at every start (the launcher hands them to the services it starts). `gamehall run`
prints how a client trusts the public certificate (`trust_instructions`).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import grpc

from gamehall.runtime.callers import PUBLIC_SERVERS, role_of
from gamehall.runtime.nats_access import TOOLS, nats_users
from gamehall.runtime.pki import EmbeddedCA, Pair, fingerprint, self_signed_pair

WITHOUT_NATS = frozenset({"web"})
"""Services that never talk to NATS (the web bridge forwards to the gateway): no NATS login."""
LAUNCHER_IDENTITY = "launcher"
"""The launcher's own certificate: readiness checks (health) and tools (e.g. tests) talk to services with it."""
NATS_IDENTITY = "nats-server"
TOOLS_LOGIN_FILE = "nats-tools.json"


@dataclass
class PlatformSecurity:
    """The TLS material and NATS logins of one platform start."""

    directory: Path
    ca: EmbeddedCA = field(init=False)
    public: Pair | None = None
    public_created: bool = False
    certificates: dict[str, Pair] = field(default_factory=dict)
    nats_logins: dict[str, str] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.ca = EmbeddedCA(self.directory)

    def prepare(self, services: Iterable[str]) -> None:
        """Make (or reuse) the CA, a certificate per service, nats-server's and the launcher's, and the public pair."""
        self.ca.ensure()
        for name in (*services, NATS_IDENTITY, LAUNCHER_IDENTITY):
            self.certificates[name] = self.ca.issue(name)
            if name not in (NATS_IDENTITY, LAUNCHER_IDENTITY, *WITHOUT_NATS):
                self.nats_logins[name] = secrets.token_urlsafe(24)
        self.nats_logins[TOOLS] = secrets.token_urlsafe(24)  # `gamehall deadletter`: written by `tools_login`
        self.public, self.public_created = self_signed_pair(self.directory)

    def service_env(self, name: str) -> dict[str, str]:
        """The GAMEHALL_* variables that give service `name` its certificates and NATS login (and the web bridge
        the gateway's public certificate to verify it by)."""
        pair, public = self.certificates[name], self._public()
        env = {
            "GAMEHALL_TLS_CERT_FILE": str(pair.cert),
            "GAMEHALL_TLS_KEY_FILE": str(pair.key),
            "GAMEHALL_TLS_CA_FILE": str(self.ca.pair.cert),
        }
        if name in self.nats_logins:
            env.update(GAMEHALL_NATS_USER=name, GAMEHALL_NATS_PASSWORD=self.nats_logins[name])
        if role_of(name) in PUBLIC_SERVERS:
            env.update(GAMEHALL_PUBLIC_TLS_CERT_FILE=str(public.cert), GAMEHALL_PUBLIC_TLS_KEY_FILE=str(public.key))
        if name in WITHOUT_NATS:
            env.update(GAMEHALL_GATEWAY_CA_FILE=str(public.cert))
            # the web pages' port serves HTTPS with the gateway's public pair (same files, same renewal)
            env.update(GAMEHALL_WEB_TLS_CERT_FILE=str(public.cert), GAMEHALL_WEB_TLS_KEY_FILE=str(public.key))
        return env

    def nats_config(self, games: Iterable[str]) -> str:
        """nats-server's `tls` block (certificate from the platform CA) and one user per service."""
        pair = self.certificates[NATS_IDENTITY]
        tls = (
            "tls {\n"
            f'  cert_file: "{pair.cert}"\n  key_file: "{pair.key}"\n  ca_file: "{self.ca.pair.cert}"\n  timeout: 3\n'
            "}\n"
        )
        return tls + nats_users(self.nats_logins, games)

    def tools_login(self, nats_url: str) -> Path:
        """Write the operator tools' NATS login of this start (`<tls dir>/nats-tools.json`, owner-only), which
        `gamehall deadletter` reads: the URL, user, password and the CA that verifies the server."""
        path = self.directory / TOOLS_LOGIN_FILE
        login = {"url": nats_url, "user": TOOLS, "password": self.nats_logins[TOOLS], "ca_file": str(self.ca.pair.cert)}
        path.touch(mode=0o600, exist_ok=True)
        path.chmod(0o600)
        path.write_text(json.dumps(login))
        return path

    def credentials(self, service: str) -> grpc.ChannelCredentials:
        """What a tool or readiness check uses to reach `service`: the public CA for the gateway, else mTLS."""
        if role_of(service) in PUBLIC_SERVERS:
            return grpc.ssl_channel_credentials(self._public().cert.read_bytes())
        mine = self.certificates[LAUNCHER_IDENTITY]
        return self.client_credentials(mine)

    def client_credentials(self, pair: Pair) -> grpc.ChannelCredentials:
        """mTLS credentials presenting `pair` (a service's or the launcher's certificate)."""
        return grpc.ssl_channel_credentials(
            self.ca.pair.cert.read_bytes(), private_key=pair.key.read_bytes(), certificate_chain=pair.cert.read_bytes()
        )

    def _public(self) -> Pair:
        if self.public is None:
            raise RuntimeError("prepare() first")
        return self.public


def trust_instructions(security: PlatformSecurity, gateway: str) -> str:
    """What `gamehall run` prints: the public certificate, its fingerprint and how clients trust it."""
    public = security._public()
    made = "generated now" if security.public_created else "generated on the first start"
    return (
        f"TLS: the gateway serves a self-signed certificate ({made}): {public.cert}\n"
        f"  SHA-256 fingerprint {fingerprint(public.cert)}\n"
        f"  grpcurl:  grpcurl -cacert {public.cert} {gateway} list\n"
        "  Python:   grpc.secure_channel("
        f"'{gateway}', grpc.ssl_channel_credentials(open('{public.cert}', 'rb').read()))\n"
        f"  gamehall play / gamehall audit:  --ca-file {public.cert}\n"
        f"  Python SDK:  Gamehall.connect('{gateway}', ca_file='{public.cert}')\n"
        f"  (or trust it system-wide, then `--system-trust` / `Gamehall.connect(..., tls=True)`: "
        f"sudo cp {public.cert} /usr/local/share/ca-certificates/gamehall.crt && sudo update-ca-certificates)\n"
        f"  Internal services use mTLS with the CA in {security.ca.pair.cert}; NATS is TLS with one user per service."
    )


__all__ = ["LAUNCHER_IDENTITY", "PlatformSecurity", "trust_instructions"]
