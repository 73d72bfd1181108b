"""Change detection of certificate files (gamehall.runtime.cert_reload): a renewed pair is taken when the files
change and match, never before the check interval, never half-written or mismatched (the previous one stays, with
one warning), and a renewed CA reaches the NATS TLS context."""

from __future__ import annotations

import ssl
from pathlib import Path

import pytest
import structlog
from cryptography import x509

from gamehall.runtime import tls
from gamehall.runtime.cert_reload import CertificateFiles, Material, stamp
from gamehall.runtime.embedded_secrets import MissingSecret
from gamehall.runtime.pki import EmbeddedCA
from gamehall.runtime.settings import Settings


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _setup(tmp_path: Path) -> tuple[EmbeddedCA, CertificateFiles, Clock]:
    ca = EmbeddedCA(tmp_path / "tls")
    ca.ensure()
    pair = ca.issue("persistence")
    clock = Clock()
    return ca, CertificateFiles("test", pair.key, pair.cert, ca.pair.cert, check_every=5.0, clock=clock), clock


def _serial(path: Path) -> int:
    return x509.load_pem_x509_certificate(path.read_bytes()).serial_number


def test_the_stamp_changes_when_a_file_is_replaced_and_only_then(tmp_path: Path) -> None:
    ca, files, _ = _setup(tmp_path)
    before = stamp(files.paths)
    assert stamp(files.paths) == before
    ca.renew("persistence")
    after = stamp(files.paths)
    assert after != before and after[2] == before[2]  # the CA file was not touched
    assert stamp((tmp_path / "missing.crt",)) == (None,)


def test_a_renewed_pair_is_taken_at_the_next_check_not_before(tmp_path: Path) -> None:
    ca, files, clock = _setup(tmp_path)
    first = files.material
    seen: list[Material] = []
    files.on_change(seen.append)
    ca.renew("persistence")
    clock.now += 4.9
    assert files.check() is False and files.material is first  # not looked at yet: no stat per call
    clock.now += 0.2
    assert files.check() is True
    assert files.generation == 1 and seen == [files.material]
    assert files.material.serial == _serial(tmp_path / "tls" / "persistence.crt") != first.serial
    assert files.material.key == first.key  # renewed with the same key
    clock.now += 5.1
    assert files.check() is False and files.generation == 1  # unchanged files: nothing re-read


def test_a_key_without_its_certificate_keeps_the_old_pair_until_the_certificate_comes(tmp_path: Path) -> None:
    ca, files, _ = _setup(tmp_path)
    old = files.material
    new_key = EmbeddedCA(tmp_path / "elsewhere")
    new_key.ensure()
    other = new_key.issue("persistence")
    (tmp_path / "tls" / "persistence.key").write_bytes(other.key.read_bytes())  # the key is there, not its cert
    with structlog.testing.capture_logs() as logs:
        assert files.refresh() is False
        assert files.refresh() is False  # same bad state: no second warning
    assert files.material is old
    warnings = [e for e in logs if e["log_level"] == "warning"]
    assert len(warnings) == 1 and "not the certificate's key" in warnings[0]["problem"]
    ca.renew("persistence", new_key=True)  # now a whole pair
    assert files.refresh() is True and files.material.key != old.key and files.generation == 1


def test_a_half_written_or_missing_certificate_keeps_the_old_pair(tmp_path: Path) -> None:
    _, files, _ = _setup(tmp_path)
    old = files.material
    cert = tmp_path / "tls" / "persistence.crt"
    whole = cert.read_bytes()
    cert.write_bytes(whole[: len(whole) // 2])
    assert files.refresh() is False and files.material is old
    cert.unlink()
    assert files.refresh() is False and files.material is old
    cert.write_bytes(whole)
    assert files.refresh() is True and files.material.cert == old.cert and files.generation == 1


def test_a_mismatched_pair_at_start_refuses(tmp_path: Path) -> None:
    ca, _, _ = _setup(tmp_path)
    other = ca.issue("matchmaking")
    with pytest.raises(MissingSecret, match="not the certificate's key"):
        CertificateFiles("GAMEHALL_TLS", other.key, tmp_path / "tls" / "persistence.crt", ca.pair.cert)


def test_a_renewed_ca_is_trusted_by_the_nats_context(tmp_path: Path) -> None:
    ca, _, _ = _setup(tmp_path)
    pair = ca.issue("ai")
    found = tls.transport(
        Settings(service="ai", tls_cert_file=pair.cert, tls_key_file=pair.key, tls_ca_file=ca.pair.cert)
    )
    context = found.nats_context()
    assert isinstance(context, ssl.SSLContext) and context.cert_store_stats()["x509_ca"] == 1
    rotated = EmbeddedCA(tmp_path / "rotated")
    rotated.ensure()
    bundle = ca.pair.cert.read_bytes() + rotated.pair.cert.read_bytes()  # the old and the new root
    (tmp_path / "tls" / "ca.crt").write_bytes(bundle)
    assert found.check() is True
    assert context.cert_store_stats()["x509_ca"] == 2


def _kubelet_write(volume: Path, version: str, files: dict[str, bytes]) -> None:
    """Write a Secret volume the way the kubelet's atomic writer does: a new timestamped directory, then the
    `..data` symlink renamed over to it; `tls.crt` etc. are symlinks through `..data`."""
    target = volume / f"..{version}"
    target.mkdir()
    for name, data in files.items():
        (target / name).write_bytes(data)
        link = volume / name
        if not link.is_symlink():
            link.symlink_to(Path("..data") / name)
    staged = volume / "..data_tmp"
    staged.symlink_to(target.name)
    staged.replace(volume / "..data")


def test_a_secret_volume_swapped_by_the_kubelet_is_picked_up(tmp_path: Path) -> None:
    ca = EmbeddedCA(tmp_path / "ca")
    ca.ensure()
    pair = ca.issue("gateway")
    volume = tmp_path / "volume"
    volume.mkdir()

    def contents() -> dict[str, bytes]:
        return {
            "tls.key": pair.key.read_bytes(),
            "tls.crt": pair.cert.read_bytes(),
            "ca.crt": ca.pair.cert.read_bytes(),
        }

    _kubelet_write(volume, "2026_12_01", contents())
    files = CertificateFiles("secret", volume / "tls.key", volume / "tls.crt", volume / "ca.crt")
    assert files.refresh() is False
    ca.renew("gateway", new_key=True)
    _kubelet_write(volume, "2026_12_02", contents())
    assert files.refresh() is True
    assert files.material.serial == _serial(pair.cert) and files.material.key == pair.key.read_bytes()
