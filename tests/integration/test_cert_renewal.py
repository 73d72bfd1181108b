"""Certificate renewal without restarts (issue 20, transport security), over real gRPC on loopback sockets.

An internal mTLS server (persistence) and a client service (a rules host, calling through `internal_channel`) run
on the harness with certificates from the embedded CA. The files are replaced in place, as cert-manager renews a
mounted Secret: first a renewed pair with the same key, then a pair from a new key. New handshakes then show the
new certificates both ways (the server's, read by a TLS client; the client's, read by the server from the call's
auth context), while a call in flight across the renewal finishes on its old connection. A mismatched pair (a key
whose certificate is not written yet) and a half-written certificate keep the old ones. The gateway's public port
follows its renewed pair the same way.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import pytest
from cryptography import x509

from gamehall.internal.v1 import persistence_pb2, persistence_pb2_grpc
from gamehall.runtime import tls
from gamehall.runtime.channels import internal_channel
from gamehall.runtime.pki import EmbeddedCA, Pair
from gamehall.runtime.renewing_channel import RenewingChannel
from gamehall.runtime.service import ServiceApp
from gamehall.runtime.settings import Settings

pytestmark = pytest.mark.integration
RELOAD = 0.1
WAIT = 5.0
CLIENT = "rules-high-card"


def _serial(pem: bytes) -> int:
    return x509.load_pem_x509_certificates(pem)[0].serial_number


def _file_serial(path: Path) -> int:
    return _serial(path.read_bytes())


@dataclass
class _Accounts(persistence_pb2_grpc.PersistenceServiceServicer):
    """Records the serial of each caller's certificate; `slow` calls wait for `release`."""

    callers: list[int] = field(default_factory=list)
    release: asyncio.Event = field(default_factory=asyncio.Event)

    async def GetAccount(
        self, request: object, context: grpc.aio.ServicerContext
    ) -> persistence_pb2.GetAccountResponse:
        self.callers.append(_serial(context.auth_context()["x509_pem_cert"][0]))
        if getattr(request, "username", "") == "slow":
            await self.release.wait()
        return persistence_pb2.GetAccountResponse()


def _handshake(port: int, ca: Path, client: Pair | None) -> int:
    """A fresh TLS handshake with the server: the serial of the certificate it presents."""
    context = ssl.create_default_context(cafile=str(ca))
    context.set_alpn_protocols(["h2"])
    if client is not None:
        context.load_cert_chain(client.cert, client.key)
    with (
        socket.create_connection(("127.0.0.1", port), timeout=5) as raw,
        context.wrap_socket(raw, server_hostname="localhost") as wrapped,
    ):
        der = wrapped.getpeercert(binary_form=True)
    assert der is not None
    return x509.load_der_x509_certificate(der).serial_number


async def _eventually(probe: Callable[[], object], wanted: object) -> object:
    """Probe until it answers `wanted` (renewals are picked up within a few check periods) or WAIT passes."""
    deadline = time.monotonic() + WAIT
    while True:
        found = await asyncio.to_thread(probe) if not asyncio.iscoroutinefunction(probe) else await probe()
        if found == wanted or time.monotonic() > deadline:
            return found
        await asyncio.sleep(RELOAD)


@dataclass
class _Platform:
    ca: EmbeddedCA
    server: ServiceApp
    accounts: _Accounts
    client_app: ServiceApp
    stub: persistence_pb2_grpc.PersistenceServiceStub
    channel: RenewingChannel
    server_pair: Pair
    client_pair: Pair
    probe: Pair
    """The TLS client's own certificate (a handshake needs one; its files are never touched)."""

    def served(self) -> int:
        return _handshake(self.server.port, self.ca.pair.cert, self.probe)

    async def presented(self) -> int:
        """The serial of the certificate the client's channel presents on a new call."""
        await self.stub.GetAccount(persistence_pb2.GetAccountRequest(username="x"), timeout=5)
        return self.accounts.callers[-1]


def _settings(ca: EmbeddedCA, service: str) -> Settings:
    pair = ca.issue(service)
    return Settings(
        service=service,
        tls_cert_file=pair.cert,
        tls_key_file=pair.key,
        tls_ca_file=ca.pair.cert,
        tls_reload_seconds=RELOAD,
        grace_seconds=1,
    )


@pytest.fixture
async def platform(tmp_path: Path) -> AsyncIterator[_Platform]:
    ca = EmbeddedCA(tmp_path / "tls")
    ca.ensure()
    accounts = _Accounts()
    server = ServiceApp(_settings(ca, "persistence"))
    server.add_servicer(
        persistence_pb2_grpc.add_PersistenceServiceServicer_to_server,
        accounts,
        "gamehall.internal.v1.PersistenceService",
    )
    await server.start(metrics=False)
    client_app = ServiceApp(_settings(ca, CLIENT))  # its harness checks its files; it is tls.current()
    await client_app.start(metrics=False)
    channel = internal_channel(f"127.0.0.1:{server.port}")
    assert isinstance(channel, RenewingChannel)
    try:
        stub = persistence_pb2_grpc.PersistenceServiceStub(channel)
        yield _Platform(
            ca,
            server,
            accounts,
            client_app,
            stub,
            channel,
            ca.issue("persistence"),
            ca.issue(CLIENT),
            ca.issue("probe"),
        )
    finally:
        accounts.release.set()
        await channel.close()
        await client_app.stop()
        await server.stop()
        tls.reset()


async def test_renewed_pairs_are_used_by_new_handshakes_without_a_restart(platform: _Platform) -> None:
    server_file, client_file = platform.server_pair.cert, platform.client_pair.cert
    first_server, first_client = _file_serial(server_file), _file_serial(client_file)
    assert await asyncio.to_thread(platform.served) == first_server
    assert await platform.presented() == first_client

    slow = platform.stub.GetAccount(persistence_pb2.GetAccountRequest(username="slow"), timeout=30)
    await _eventually(lambda: len(platform.accounts.callers), 2)  # in flight on the first connection

    platform.ca.renew("persistence")  # same key, new serial (cert-manager's rotationPolicy: Never)
    platform.ca.renew(CLIENT)
    renewed_server, renewed_client = _file_serial(server_file), _file_serial(client_file)
    assert renewed_server != first_server and renewed_client != first_client
    assert await _eventually(platform.served, renewed_server) == renewed_server
    assert await _eventually(platform.presented, renewed_client) == renewed_client
    assert platform.channel.renewals == 1

    platform.accounts.release.set()
    assert await slow == persistence_pb2.GetAccountResponse()  # the call in flight finished on its old channel
    assert platform.accounts.callers[1] == first_client

    old_key = platform.server_pair.key.read_bytes()
    platform.ca.renew("persistence", new_key=True)
    platform.ca.renew(CLIENT, new_key=True)
    assert platform.server_pair.key.read_bytes() != old_key
    rekeyed_server, rekeyed_client = _file_serial(server_file), _file_serial(client_file)
    assert await _eventually(platform.served, rekeyed_server) == rekeyed_server
    assert await _eventually(platform.presented, rekeyed_client) == rekeyed_client
    assert platform.channel.renewals == 2


async def test_a_mismatched_or_half_written_pair_keeps_the_old_one(platform: _Platform, tmp_path: Path) -> None:
    serving, presenting = await asyncio.to_thread(platform.served), await platform.presented()
    elsewhere = EmbeddedCA(tmp_path / "elsewhere")
    elsewhere.ensure()
    foreign = elsewhere.issue("persistence")
    platform.server_pair.key.write_bytes(foreign.key.read_bytes())  # a key whose certificate is not written yet
    client_cert = platform.client_pair.cert
    whole = client_cert.read_bytes()
    client_cert.write_bytes(whole[: len(whole) // 3])  # a half-written certificate
    await asyncio.sleep(RELOAD * 10)  # many checks
    assert await asyncio.to_thread(platform.served) == serving
    assert await platform.presented() == presenting
    assert platform.channel.renewals == 0

    platform.ca.renew("persistence", new_key=True)  # the whole pair arrives
    client_cert.write_bytes(whole)
    wanted = _file_serial(platform.server_pair.cert)
    assert await _eventually(platform.served, wanted) == wanted != serving


async def test_the_gateways_public_port_follows_its_renewed_pair(tmp_path: Path) -> None:
    ca = EmbeddedCA(tmp_path / "tls")
    ca.ensure()
    public = ca.issue("gateway-public", names=("play.example",))
    app = ServiceApp(
        Settings(
            service="gateway",
            public_tls_cert_file=public.cert,
            public_tls_key_file=public.key,
            tls_reload_seconds=RELOAD,
        )
    )
    await app.start(metrics=False)
    try:
        first = _file_serial(public.cert)
        assert await asyncio.to_thread(_handshake, app.port, ca.pair.cert, None) == first
        ca.renew("gateway-public", names=("play.example",), new_key=True)
        renewed = _file_serial(public.cert)
        assert await _eventually(lambda: _handshake(app.port, ca.pair.cert, None), renewed) == renewed != first
    finally:
        await app.stop()
        tls.reset()
