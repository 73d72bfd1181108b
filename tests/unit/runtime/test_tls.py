"""Transport security from settings (gamehall.runtime.tls) and the embedded certificates (gamehall.runtime.pki):
a production or non-loopback start without certificates refuses like the signing key check does; certificates
are made once per data dir, name their service, and chain to the data dir's CA; one in-process mTLS server
refuses a caller the table does not allow and a caller without a certificate."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import pytest
from cryptography import x509

from gamehall.internal.v1 import persistence_pb2, persistence_pb2_grpc
from gamehall.runtime import tls
from gamehall.runtime.embedded_secrets import MissingSecret
from gamehall.runtime.pki import SPIFFE_PREFIX, EmbeddedCA, self_signed_pair
from gamehall.runtime.service import ServiceApp
from gamehall.runtime.settings import Settings


@pytest.fixture(autouse=True)
def _forget_transport() -> object:
    yield
    tls.reset()


def _ca(tmp_path: Path) -> EmbeddedCA:
    ca = EmbeddedCA(tmp_path / "tls")
    ca.ensure()
    return ca


def _mtls(ca: EmbeddedCA, service: str, **extra: object) -> Settings:
    pair = ca.issue(service)
    return Settings(service=service, tls_cert_file=pair.cert, tls_key_file=pair.key, tls_ca_file=ca.pair.cert, **extra)


@pytest.mark.parametrize("overrides", [{"host": "0.0.0.0"}, {"environment": "production"}], ids=["public", "prod"])
@pytest.mark.parametrize("service", ["persistence", "gateway"])
def test_a_non_embedded_start_without_certificates_refuses(overrides: dict[str, str], service: str) -> None:
    with pytest.raises(MissingSecret) as refused:
        tls.transport(Settings(service=service, **overrides))  # type: ignore[arg-type]
    wanted = "GAMEHALL_PUBLIC_TLS_CERT_FILE" if service == "gateway" else "GAMEHALL_TLS_CERT_FILE"
    assert wanted in str(refused.value) and "GAMEHALL_ALLOW_PLAINTEXT" in str(refused.value)


def test_plaintext_is_allowed_embedded_or_when_declared() -> None:
    assert tls.transport(Settings(service="persistence")).server_credentials() is None
    declared = Settings(service="persistence", host="0.0.0.0", allow_plaintext=True)
    assert tls.transport(declared).server_credentials() is None


def test_a_production_start_with_certificates_serves_mtls(tmp_path: Path) -> None:
    found = tls.transport(_mtls(_ca(tmp_path), "persistence", environment="production"))
    assert found.mutual and not found.public
    assert found.server_credentials() is not None and found.channel_credentials() is not None


def test_half_a_configuration_refuses(tmp_path: Path) -> None:
    ca = _ca(tmp_path)
    pair = ca.issue("ai")
    with pytest.raises(MissingSecret, match="GAMEHALL_TLS_KEY_FILE"):
        tls.transport(Settings(service="ai", tls_cert_file=pair.cert))
    with pytest.raises(MissingSecret, match="cannot be read"):
        tls.transport(Settings(service="ai", tls_cert_file=tmp_path / "missing.crt"))


def test_certificates_are_made_once_name_their_service_and_chain_to_the_ca(tmp_path: Path) -> None:
    ca = _ca(tmp_path)
    assert ca.ensure() is False  # already there
    first = ca.issue("rules-grimmoir")
    again = ca.issue("rules-grimmoir")
    issued = first.cert.read_bytes()
    assert issued == again.cert.read_bytes()
    assert oct(first.key.stat().st_mode & 0o777) == "0o600" and oct(ca.pair.key.stat().st_mode & 0o777) == "0o600"
    cert = x509.load_pem_x509_certificate(first.cert.read_bytes())
    cert.verify_directly_issued_by(x509.load_pem_x509_certificate(ca.pair.cert.read_bytes()))
    sans = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert SPIFFE_PREFIX + "rules-grimmoir" in sans.get_values_for_type(x509.UniformResourceIdentifier)
    assert "localhost" in sans.get_values_for_type(x509.DNSName)
    other = EmbeddedCA(tmp_path / "other")
    other.ensure()
    (tmp_path / "tls" / "ca.crt").write_bytes(other.pair.cert.read_bytes())
    (tmp_path / "tls" / "ca.key").write_bytes(other.pair.key.read_bytes())
    assert ca.issue("rules-grimmoir").cert.read_bytes() != issued  # a new CA reissues


def test_the_public_pair_is_self_signed_once(tmp_path: Path) -> None:
    pair, created = self_signed_pair(tmp_path, hosts=("play.example",))
    again, created_again = self_signed_pair(tmp_path)
    assert created and not created_again and pair == again
    cert = x509.load_pem_x509_certificate(pair.cert.read_bytes())
    assert cert.issuer == cert.subject
    sans = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert {"localhost", "play.example"} <= set(sans.get_values_for_type(x509.DNSName))


async def _account(address: str, credentials: grpc.ChannelCredentials | None) -> grpc.StatusCode:
    channel = grpc.aio.secure_channel(address, credentials) if credentials else grpc.aio.insecure_channel(address)
    async with channel:
        try:
            await persistence_pb2_grpc.PersistenceServiceStub(channel).GetAccount(
                persistence_pb2.GetAccountRequest(username="x"), timeout=5
            )
        except grpc.aio.AioRpcError as exc:
            return exc.code()
    return grpc.StatusCode.OK


class _Accounts(persistence_pb2_grpc.PersistenceServiceServicer):
    async def GetAccount(
        self, request: object, context: grpc.aio.ServicerContext
    ) -> persistence_pb2.GetAccountResponse:
        return persistence_pb2.GetAccountResponse()


def test_an_mtls_server_checks_each_callers_certificate(tmp_path: Path) -> None:
    ca = _ca(tmp_path)

    def as_(name: str) -> grpc.ChannelCredentials:
        pair = ca.issue(name)
        return grpc.ssl_channel_credentials(
            ca.pair.cert.read_bytes(), private_key=pair.key.read_bytes(), certificate_chain=pair.cert.read_bytes()
        )

    async def scenario() -> dict[str, grpc.StatusCode]:
        app = ServiceApp(_mtls(ca, "persistence"))
        app.add_servicer(
            persistence_pb2_grpc.add_PersistenceServiceServicer_to_server,
            _Accounts(),
            "gamehall.internal.v1.PersistenceService",
        )
        port = await app.start(metrics=False)
        address = f"127.0.0.1:{port}"
        try:
            return {
                "rules": await _account(address, as_("rules-grimmoir")),
                "launcher": await _account(address, as_("launcher")),
                "no certificate": await _account(address, grpc.ssl_channel_credentials(ca.pair.cert.read_bytes())),
                "plaintext": await _account(address, None),
            }
        finally:
            await app.stop()

    codes = asyncio.run(scenario())
    assert codes == {
        "rules": grpc.StatusCode.OK,
        "launcher": grpc.StatusCode.PERMISSION_DENIED,
        "no certificate": grpc.StatusCode.UNAVAILABLE,
        "plaintext": grpc.StatusCode.UNAVAILABLE,
    }


def test_the_health_port_answers_probes_in_plaintext_beside_the_mtls_port(tmp_path: Path) -> None:
    """The kubelet cannot present a certificate: GAMEHALL_HEALTH_PORT serves only gRPC health, in plaintext."""
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from gamehall.launcher.ports import free_port

    async def scenario() -> tuple[int, grpc.StatusCode]:
        app = ServiceApp(_mtls(_ca(tmp_path), "persistence", health_port=free_port()))
        app.add_servicer(
            persistence_pb2_grpc.add_PersistenceServiceServicer_to_server,
            _Accounts(),
            "gamehall.internal.v1.PersistenceService",
        )
        await app.start(metrics=False)
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{app.health_port}") as channel:
                reply = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5)
            return reply.status, await _account(f"127.0.0.1:{app.health_port}", None)
        finally:
            await app.stop()

    status, other = asyncio.run(scenario())
    assert status == health_pb2.HealthCheckResponse.SERVING
    assert other == grpc.StatusCode.UNIMPLEMENTED  # nothing but health there
