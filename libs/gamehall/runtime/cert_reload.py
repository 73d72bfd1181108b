"""Certificate files that are re-read when they change, so a renewal (cert-manager rewriting a mounted Secret, a
new embedded pair) is served and presented without a restart.

`CertificateFiles` holds one identity's key, certificate chain and optional CA bundle. `check()` stats the files
at most every `check_every` seconds (device, inode, size, mtime: the kubelet swaps a Secret's files by renaming a
directory, which changes the inode) and re-reads them only then. A new set is taken only when it parses and the
key matches the certificate and the files did not change while being read; otherwise the old set stays and one
warning is logged per bad state, so a half-written pair is never served. Each accepted set bumps `generation`:
servers (`server_credentials`, gRPC's dynamic credentials) and channels (gamehall.runtime.renewing_channel) compare
it, which costs nothing per call. The harness runs `check()` periodically (gamehall.runtime.service).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import grpc
import structlog
from cryptography import x509
from cryptography.hazmat.primitives import serialization

from gamehall.runtime.embedded_secrets import MissingSecret

log = structlog.get_logger("gamehall.tls")

CHECK_EVERY_SECONDS = 5.0
Stamp = tuple[tuple[int, int, int, int] | None, ...]


@dataclass(frozen=True)
class Material:
    """One accepted set of PEM bytes, with the leaf certificate's serial and end (for logs and tests)."""

    key: bytes
    cert: bytes
    ca: bytes | None
    serial: int
    not_after: str
    generation: int


def stamp(paths: tuple[Path, ...]) -> Stamp:
    """What identifies the files' current contents cheaply: (device, inode, size, mtime ns) each; None if missing."""
    found: list[tuple[int, int, int, int] | None] = []
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:
            found.append(None)
            continue
        found.append((info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns))
    return tuple(found)


def mismatch(key: bytes, cert: bytes, ca: bytes | None) -> str | None:
    """Why this set cannot be served (unparseable PEM, a key that is not the certificate's), or None."""
    try:
        chain = x509.load_pem_x509_certificates(cert)
    except ValueError as exc:
        return f"the certificate does not parse ({exc})"
    try:
        private = serialization.load_pem_private_key(key, None)
    except (ValueError, TypeError) as exc:
        return f"the private key does not parse ({exc})"
    raw = serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    if private.public_key().public_bytes(*raw) != chain[0].public_key().public_bytes(*raw):
        return "the private key is not the certificate's key"
    if ca is not None:
        try:
            x509.load_pem_x509_certificates(ca)
        except ValueError as exc:
            return f"the CA bundle does not parse ({exc})"
    return None


def _material(key: bytes, cert: bytes, ca: bytes | None, generation: int) -> Material:
    leaf = x509.load_pem_x509_certificates(cert)[0]
    return Material(key, cert, ca, leaf.serial_number, leaf.not_valid_after_utc.isoformat(), generation)


class CertificateFiles:
    """One identity's files (`what` names them in logs and refusals), re-read when they change."""

    def __init__(
        self,
        what: str,
        key: Path,
        cert: Path,
        ca: Path | None = None,
        *,
        check_every: float = CHECK_EVERY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what = what
        self.paths = (key, cert) if ca is None else (key, cert, ca)
        self.check_every = check_every
        self._clock = clock
        self._lock = threading.Lock()  # gRPC calls the server's fetcher on its own threads
        self._listeners: list[Callable[[Material], None]] = []
        self._next_check = clock() + check_every
        self._rejected: Stamp | None = None
        self._stamp = stamp(self.paths)
        contents = self._read(starting=True)
        assert contents is not None  # a file that cannot be read at start raises MissingSecret
        problem = mismatch(*contents)
        if problem is not None:
            raise MissingSecret(f"{what} cannot be served: {problem} ({', '.join(map(str, self.paths[:2]))})")
        self.material = _material(*contents, generation=0)

    @property
    def generation(self) -> int:
        return self.material.generation

    def on_change(self, listener: Callable[[Material], None]) -> None:
        """Call `listener` with each newly accepted set (e.g. to add a renewed CA to an `ssl.SSLContext`)."""
        self._listeners.append(listener)

    def check(self) -> bool:
        """`refresh()` if `check_every` passed since the last look; True when a new set was taken."""
        now = self._clock()
        if now < self._next_check:
            return False
        self._next_check = now + self.check_every
        return self.refresh()

    def refresh(self) -> bool:
        """Re-read the files if their stamp changed; take them if whole and matching. True when taken."""
        with self._lock:
            before = stamp(self.paths)
            if before == self._stamp or before == self._rejected:
                return False
            contents = self._read(starting=False)
            if stamp(self.paths) != before:
                return False  # still being written: look again next time
            problem = "a file cannot be read" if contents is None else mismatch(*contents)
            if problem is not None or contents is None:
                self._rejected = before
                log.warning(
                    "renewed certificate refused; still serving the previous one",
                    what=self.what,
                    problem=problem,
                    serving_serial=f"{self.material.serial:x}",
                )
                return False
            self._stamp, self._rejected = before, None
            self.material = _material(*contents, generation=self.material.generation + 1)
            material = self.material
        log.info("certificate renewed", what=self.what, serial=f"{material.serial:x}", not_after=material.not_after)
        for listener in self._listeners:
            listener(material)
        return True

    def _read(self, *, starting: bool) -> tuple[bytes, bytes, bytes | None] | None:
        """The files' bytes; None (or a refusal at start) when one cannot be read."""
        try:
            key, cert = self.paths[0].read_bytes(), self.paths[1].read_bytes()
            ca = self.paths[2].read_bytes() if len(self.paths) > 2 else None
        except OSError as exc:
            if starting:
                raise MissingSecret(f"{self.what}: {exc.filename} cannot be read: {exc.strerror}") from exc
            return None
        return key, cert, ca

    def server_credentials(self, *, require_client_auth: bool) -> grpc.ServerCredentials:
        """A server port's credentials that switch to each accepted set for new connections (gRPC asks the
        fetcher at every handshake; it answers from memory and stats the files at most every `check_every`)."""
        served = [self.material.generation]

        def fetch() -> grpc.ServerCertificateConfiguration | None:
            self.check()
            material = self.material
            if material.generation == served[0]:
                return None
            served[0] = material.generation
            return _configuration(material)

        return grpc.dynamic_ssl_server_credentials(
            _configuration(self.material), fetch, require_client_authentication=require_client_auth
        )

    def channel_credentials(self) -> grpc.ChannelCredentials:
        """Client credentials of the current set: its certificate, and its CA for the server's."""
        material = self.material
        return grpc.ssl_channel_credentials(material.ca, private_key=material.key, certificate_chain=material.cert)


def _configuration(material: Material) -> grpc.ServerCertificateConfiguration:
    return grpc.ssl_server_certificate_configuration([(material.key, material.cert)], root_certificates=material.ca)


__all__ = ["CHECK_EVERY_SECONDS", "CertificateFiles", "Material", "mismatch", "stamp"]
