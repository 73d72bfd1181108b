#!/usr/bin/env python3
"""gRPC health check of a gamehall service: exits 0 when grpc.health.v1.Health answers SERVING, else 1.

The image installs it as `gamehall-healthcheck` for its HEALTHCHECK, the compose healthchecks and the chart's
`helm test` pod (Kubernetes probes use the kubelet's native gRPC probe instead). Without --addr it checks the
container's own service on 127.0.0.1:$GAMEHALL_GRPC_PORT.
"""

from __future__ import annotations

import argparse
import os
import sys

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc


def check(
    addr: str, service: str = "", timeout: float = 3.0, credentials: grpc.ChannelCredentials | None = None
) -> tuple[bool, str]:
    """Ask `addr` for the health of `service` ("" = the whole server); returns (serving, a one-line message).
    Over TLS with `credentials` (a TLS gateway), else plaintext."""
    channel = grpc.insecure_channel(addr) if credentials is None else grpc.secure_channel(addr, credentials)
    with channel:
        try:
            response = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=service), timeout=timeout
            )
        except grpc.RpcError as error:
            return False, f"{addr}: {error.code().name} {error.details() or ''}".strip()
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)
    return response.status == health_pb2.HealthCheckResponse.SERVING, f"{addr}: {status}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--addr", default=f"127.0.0.1:{os.environ.get('GAMEHALL_GRPC_PORT', '50051')}")
    parser.add_argument("--service", default="", help="service name to ask about; empty: the whole server")
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds")
    parser.add_argument("--tls", action="store_true", help="TLS, verifying the server with the system's roots")
    parser.add_argument("--ca-file", help="TLS, verifying the server with this CA bundle (PEM)")
    args = parser.parse_args(argv)
    credentials = None
    if args.ca_file:
        with open(args.ca_file, "rb") as handle:
            credentials = grpc.ssl_channel_credentials(handle.read())
    elif args.tls:
        credentials = grpc.ssl_channel_credentials()
    serving, message = check(args.addr, args.service, args.timeout, credentials)
    print(message)
    return 0 if serving else 1


if __name__ == "__main__":
    sys.exit(main())
