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
from tests.support.postgres import PostgresServer, fresh_schema, postgres_server

__all__ = ["postgres_server"]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.integration)


@pytest.fixture(params=["sqlite", "postgres"])
async def dsn(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite://{tmp_path / 'gamehall.db'}"
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    async with fresh_schema(server) as schema_dsn:
        yield schema_dsn


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
async def persistence(dsn: str, nats_server: NatsServer, tmp_path: Path) -> AsyncIterator[Served]:
    served = await serve(dsn, nats_server.url, tmp_path)
    try:
        yield served
    finally:
        await served.channel.close()
        await served.app.stop()
