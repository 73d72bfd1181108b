"""deploy/grpc_healthcheck.py (the image's gamehall-healthcheck) against a real in-process gRPC health server."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from concurrent import futures

import grpc
import grpc_healthcheck
import pytest
from grpc_health.v1 import health, health_pb2, health_pb2_grpc


@pytest.fixture
def server() -> Iterator[tuple[str, health.HealthServicer]]:
    servicer = health.HealthServicer()
    grpc_server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    health_pb2_grpc.add_HealthServicer_to_server(servicer, grpc_server)
    port = grpc_server.add_insecure_port("127.0.0.1:0")
    grpc_server.start()
    yield f"127.0.0.1:{port}", servicer
    grpc_server.stop(None)


def test_serving_exits_zero(server: tuple[str, health.HealthServicer], capsys: pytest.CaptureFixture[str]) -> None:
    addr, servicer = server
    servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    assert grpc_healthcheck.main(["--addr", addr]) == 0
    assert capsys.readouterr().out.strip() == f"{addr}: SERVING"


def test_not_serving_exits_one(server: tuple[str, health.HealthServicer]) -> None:
    addr, servicer = server
    servicer.set("", health_pb2.HealthCheckResponse.NOT_SERVING)
    assert grpc_healthcheck.main(["--addr", addr]) == 1


def test_unknown_service_exits_one(server: tuple[str, health.HealthServicer]) -> None:
    addr, _ = server
    assert grpc_healthcheck.check(addr, "gamehall.v1.Nothing") == (False, f"{addr}: NOT_FOUND")


def test_nothing_listening_exits_one(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("GAMEHALL_GRPC_PORT", str(port))
    assert grpc_healthcheck.main(["--timeout", "0.5"]) == 1


def test_a_tls_server_is_checked_with_its_ca(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    """The chart's `helm test` of a TLS gateway: --ca-file verifies it; plaintext gets no answer."""
    from gamehall.runtime.pki import self_signed_pair

    pair, _ = self_signed_pair(tmp_path)
    servicer = health.HealthServicer()
    servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    grpc_server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    health_pb2_grpc.add_HealthServicer_to_server(servicer, grpc_server)
    credentials = grpc.ssl_server_credentials([(pair.key.read_bytes(), pair.cert.read_bytes())])
    port = grpc_server.add_secure_port("127.0.0.1:0", credentials)
    grpc_server.start()
    try:
        addr = f"127.0.0.1:{port}"
        assert grpc_healthcheck.main(["--addr", addr, "--ca-file", str(pair.cert)]) == 0
        assert grpc_healthcheck.main(["--addr", addr, "--timeout", "1"]) == 1
    finally:
        grpc_server.stop(None)
