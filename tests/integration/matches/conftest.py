"""The persistence service in-process over each backend (SQLite file, throwaway PostgreSQL), with a real nats-server."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import nats
import pytest

from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.internal.v1 import persistence_pb2_grpc
from gamehall.runtime.matchlog import MatchLog
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



async def log_action(
    served: Served, nats_url: str, match_id: str, version: int, request_id: str, **fields: Any
) -> None:
    """Write a high-card match's action at `version` the way every action is written: its owner appends the entry
    to the match log (JetStream, with the log's compare-and-swap), and persistence's projector writes it into the
    store; returns once the match is at `version`. `fields`: the entry's other fields (`snapshot`,
    `clock_state_json`, ...)."""
    connection = await nats.connect(nats_url)
    try:
        log = MatchLog(connection.jetstream())
        entry = LogEntry(
            match_id=match_id,
            game="high-card",
            version=version,
            kind=LogEntry.KIND_ACTION,
            action_json=json.dumps({"id": "x", "label": "x", "action": {"kind": "x"}}),
            request_id=request_id,
            state_digest=b"d" * 32,
            unix_ms=int(time.time() * 1000),
            status="running",
            **fields,
        )
        await log.append(entry, await log.last_seq("high-card", match_id))
    finally:
        await connection.close()
    deadline = time.monotonic() + 10
    while (await served.stub.GetMatch(ppb.GetMatchRequest(match_id=match_id))).match.version < version:
        assert time.monotonic() < deadline, f"match {match_id}: version {version} was never projected"
        await asyncio.sleep(0.02)
