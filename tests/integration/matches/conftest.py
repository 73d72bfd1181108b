"""The persistence service in-process over each backend (SQLite file, throwaway PostgreSQL), with a real nats-server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest

from gamehall.internal.v1 import persistence_pb2_grpc
from gamehall.runtime.service import ServiceApp
from gamehall.runtime.settings import Settings
from gamehall_services.persistence.app import build_app
from tests.support.nats import NatsServer


@dataclass
class Served:
    app: ServiceApp
    stub: persistence_pb2_grpc.PersistenceServiceStub
    channel: grpc.aio.Channel


async def serve(dsn: str, nats_url: str, data_dir: Path) -> Served:
    settings = Settings(
        service="persistence", grpc_port=0, database_url=dsn, nats_url=nats_url, data_dir=data_dir, grace_seconds=1
    )
    app = build_app(settings)
    port = await app.start(metrics=False)
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
    return Served(app, persistence_pb2_grpc.PersistenceServiceStub(channel), channel)


@pytest.fixture
async def persistence(store_dsn: str, nats_server: NatsServer, tmp_path: Path) -> AsyncIterator[Served]:
    served = await serve(store_dsn, nats_server.url, tmp_path)
    try:
        yield served
    finally:
        await served.channel.close()
        await served.app.stop()
