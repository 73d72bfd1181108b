"""Certificates for a platform on one machine: an embedded CA that issues one certificate per service, and the
gateway's self-signed public pair. Made once into `<data_dir>/tls` with the `cryptography` library, then reused.

The CA's certificate and each service's pair are PEM files (keys mode 0600). A service certificate names the
service in its common name and in a URI SAN (`spiffe://gamehall/<service>`), which is the identity the servers
check (gamehall.runtime.callers); it is valid for client and server use on this machine's loopback names.
In a cluster cert-manager issues the same shape of certificate (helm/gamehall/templates/certificates.yaml).
Every file is replaced atomically, so running services can re-read renewed pairs (gamehall.runtime.cert_reload).
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

SPIFFE_PREFIX: Final = "spiffe://gamehall/"
LOOPBACK_NAMES: Final = ("localhost",)
LOOPBACK_IPS: Final = ("127.0.0.1", "::1")
CA_DAYS: Final = 3650
LEAF_DAYS: Final = 825


@dataclass(frozen=True)
class Pair:
    """A certificate and its private key on disk (PEM)."""

    cert: Path
    key: Path


def _key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def _write_private(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Write `data` readable by the owner only, atomically (a reader never sees half a key)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(data)
    os.replace(temporary, path)


def _write_public(path: Path, data: bytes) -> None:
    """Write a certificate atomically (a running service re-reads it when it changes)."""
    _write_private(path, data, 0o644)


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _sans(names: tuple[str, ...], ips: tuple[str, ...], uri: str | None) -> x509.SubjectAlternativeName:
    entries: list[x509.GeneralName] = [x509.DNSName(n) for n in names]
    entries += [x509.IPAddress(ipaddress.ip_address(i)) for i in ips]
    if uri:
        entries.append(x509.UniformResourceIdentifier(uri))
    return x509.SubjectAlternativeName(entries)


def _builder(
    subject: str, issuer: x509.Name, public_key: ec.EllipticCurvePublicKey, days: int
) -> x509.CertificateBuilder:
    now = _now()
    return (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
        .issuer_name(issuer)
        .public_key(public_key)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=days))
    )


@dataclass(frozen=True)
class EmbeddedCA:
    """The CA of one data dir: `ca.crt` is the trust root every service and nats-server verifies peers with."""

    directory: Path

    @property
    def pair(self) -> Pair:
        return Pair(self.directory / "ca.crt", self.directory / "ca.key")

    def ensure(self) -> bool:
        """Create the CA if it is missing; True when this call created it."""
        if self.pair.cert.exists() and self.pair.key.exists():
            return False
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        key = _key()
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "gamehall embedded CA")])
        cert = (
            _builder("gamehall embedded CA", name, key.public_key(), CA_DAYS)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256())
        )
        _write_private(self.pair.key, _key_pem(key))
        _write_public(self.pair.cert, cert.public_bytes(serialization.Encoding.PEM))
        return True

    def issue(self, service: str, *, names: tuple[str, ...] = (), days: int = LEAF_DAYS) -> Pair:
        """The certificate of `service` (client and server use), issued once and reused while the CA is the same."""
        pair = self._pair(service)
        ca_cert = x509.load_pem_x509_certificate(self.pair.cert.read_bytes())
        if pair.cert.exists() and pair.key.exists() and _issued_by(pair.cert, ca_cert):
            return pair
        return self.renew(service, names=names, days=days, new_key=True)

    def renew(self, service: str, *, names: tuple[str, ...] = (), days: int = LEAF_DAYS, new_key: bool = False) -> Pair:
        """Issue `service` a fresh certificate now (a new serial), with a new key or, like cert-manager's
        `rotationPolicy: Never`, the key it has. The key is replaced first, then the certificate, each atomically:
        in between, a reader sees a pair that does not match (gamehall.runtime.cert_reload waits for the second)."""
        pair = self._pair(service)
        ca_cert = x509.load_pem_x509_certificate(self.pair.cert.read_bytes())
        ca_key = serialization.load_pem_private_key(self.pair.key.read_bytes(), None)
        if not isinstance(ca_key, ec.EllipticCurvePrivateKey):
            raise ValueError(f"{self.pair.key} is not the EC key this module makes")
        key = _key() if new_key or not pair.key.exists() else _load_key(pair.key)
        cert = (
            _builder(service, ca_cert.subject, key.public_key(), days)
            .add_extension(_sans((service, *names, *LOOPBACK_NAMES), LOOPBACK_IPS, SPIFFE_PREFIX + service), False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(
                x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]), False
            )
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256())
        )
        _write_private(pair.key, _key_pem(key))
        _write_public(pair.cert, cert.public_bytes(serialization.Encoding.PEM))
        return pair

    def _pair(self, service: str) -> Pair:
        return Pair(self.directory / f"{service}.crt", self.directory / f"{service}.key")


def _load_key(path: Path) -> ec.EllipticCurvePrivateKey:
    key = serialization.load_pem_private_key(path.read_bytes(), None)
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        raise ValueError(f"{path} is not the EC key this module makes")
    return key


def _issued_by(path: Path, ca: x509.Certificate) -> bool:
    try:
        cert = x509.load_pem_x509_certificate(path.read_bytes())
    except ValueError:
        return False
    return (
        cert.issuer == ca.subject
        and cert.not_valid_after_utc > _now() + datetime.timedelta(days=1)
        and _signed(cert, ca)
    )


def _signed(cert: x509.Certificate, ca: x509.Certificate) -> bool:
    try:
        cert.verify_directly_issued_by(ca)
    except (ValueError, TypeError, Exception):  # InvalidSignature is not a ValueError
        return False
    return True


def self_signed_pair(directory: Path, name: str = "gateway", hosts: tuple[str, ...] = ()) -> tuple[Pair, bool]:
    """The gateway's public pair for `make run`: self-signed for localhost, 127.0.0.1 and `hosts`; made once.

    Returns the pair and whether this call created it. Clients trust the certificate itself
    (`grpcurl -cacert <cert>`, `grpc.ssl_channel_credentials(open(cert, 'rb').read())`)."""
    pair = Pair(directory / f"{name}-public.crt", directory / f"{name}-public.key")
    if pair.cert.exists() and pair.key.exists():
        return pair, False
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = _key()
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"gamehall {name} (self-signed, embedded)")])
    cert = (
        _builder(f"gamehall {name} (self-signed, embedded)", subject, key.public_key(), LEAF_DAYS)
        .add_extension(_sans((*LOOPBACK_NAMES, *hosts), LOOPBACK_IPS, None), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    _write_private(pair.key, _key_pem(key))
    _write_public(pair.cert, cert.public_bytes(serialization.Encoding.PEM))
    return pair, True


def fingerprint(path: Path) -> str:
    """SHA-256 fingerprint of a PEM certificate, as `AB:CD:...` (what a browser or openssl shows)."""
    cert = x509.load_pem_x509_certificate(path.read_bytes())
    return cert.fingerprint(hashes.SHA256()).hex(":").upper()


__all__ = ["SPIFFE_PREFIX", "EmbeddedCA", "Pair", "fingerprint", "self_signed_pair"]
