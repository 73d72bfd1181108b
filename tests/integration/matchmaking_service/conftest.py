"""Fixtures of the matchmaking service tests: the `high-card` fixture game in the registry, and the real
persistence service (in-process, over a SQLite file) that stores every ticket, rating and tournament."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import pytest

from gamehall.engine import registry
from gamehall.runtime.settings import Settings
from gamehall_services.matchmaking.store_client import MatchmakingStore
from gamehall_services.persistence.app import build_app
from tests.fixtures.high_card import GAME


@pytest.fixture(autouse=True)
def _high_card() -> Iterator[None]:
    try:
        registry.get_game(GAME.id)
        added = False
    except Exception:
        registry.register(GAME)
        added = True
    yield
    if added:
        registry.unregister(GAME.id)


@dataclass
class Persistence:
    """A running persistence service; `store()` opens a new channel to it, as another replica would."""

    address: str
    channels: list[grpc.aio.Channel] = field(default_factory=list)

    def store(self) -> MatchmakingStore:
        channel = grpc.aio.insecure_channel(self.address)
        self.channels.append(channel)
        return MatchmakingStore(channel)


@pytest.fixture
async def persistence(tmp_path: Path) -> AsyncIterator[Persistence]:
    """The persistence service on a free loopback port over a fresh SQLite file (no NATS: publish=False).

    synchronous=normal: a commit is in the WAL file before it returns, so it survives any process crash, but
    is not fsynced (only an OS crash could lose it); the volume tests here make tens of thousands of commits."""
    settings = Settings(
        service="persistence",
        grpc_port=0,
        database_url=f"sqlite://{tmp_path / 'db'}?synchronous=normal",
        data_dir=tmp_path,
        grace_seconds=1,
    )
    app = build_app(settings, publish=False)
    port = await app.start(metrics=False)
    served = Persistence(f"127.0.0.1:{port}")
    try:
        yield served
    finally:
        for channel in served.channels:
            await channel.close()
        await app.stop()


@pytest.fixture
def store(persistence: Persistence) -> MatchmakingStore:
    """One replica's store client (its own channel)."""
    return persistence.store()
