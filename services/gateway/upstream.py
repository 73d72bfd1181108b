"""Channels to the internal services, and their failures translated for the public caller
(`gamehall.runtime.upstream.translate`: nothing a client does becomes INTERNAL).

Each game's rules service may run several replicas; `gamehall.runtime.rules_replicas` routes a
live match to its owner.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

import grpc

from gamehall.internal.v1 import persistence_pb2_grpc
from gamehall.runtime.channels import CHANNEL_OPTIONS, internal_channel
from gamehall.runtime.errors import ClientError
from gamehall.runtime.play_stream import LINGER_SECONDS
from gamehall.runtime.rules_replicas import RulesReplicas
from gamehall.runtime.upstream import translate
from gamehall_sdk.v1 import common_pb2

T = TypeVar("T")
__all__ = ["CHANNEL_OPTIONS", "RulesReplicas", "Upstream", "call", "upstream_code"]


class Upstream:
    """The persistence stub and each hosted game's rules replicas (channels opened by `connect`,
    inside the service's event loop)."""

    def __init__(
        self,
        persistence_addr: str,
        rules_addrs: dict[str, str],
        timeout: float = 10.0,
        linger: float = LINGER_SECONDS,
    ) -> None:
        self._persistence_addr = persistence_addr
        self.linger = linger
        self._rules_addrs = dict(rules_addrs)
        self._channels: list[grpc.aio.Channel] = []
        self.persistence: persistence_pb2_grpc.PersistenceServiceStub  # set by connect()
        self._games: dict[str, RulesReplicas] = {}
        self.timeout = timeout

    def connect(self) -> None:
        channel = internal_channel(self._persistence_addr, deadline=self.timeout)
        self._channels.append(channel)
        self.persistence = persistence_pb2_grpc.PersistenceServiceStub(channel)
        self._games = {g: RulesReplicas(g, spec, self.timeout, self.linger) for g, spec in self._rules_addrs.items()}

    @property
    def games(self) -> list[str]:
        return sorted(self._rules_addrs)

    def replicas(self, game: str) -> RulesReplicas:
        replicas = self._games.get(game)
        if replicas is None:
            raise ClientError(
                grpc.StatusCode.NOT_FOUND,
                f"no game {game!r} is hosted here; games: {self.games}",
                common_pb2.ERROR_REASON_UNKNOWN_GAME,
            )
        return replicas

    async def close(self) -> None:
        for channel in self._channels:
            await channel.close()
        for replicas in self._games.values():
            await replicas.close()


async def call(awaitable: Awaitable[T]) -> T:
    """Await an upstream call, turning its failure into the status the public caller should get."""
    try:
        return await awaitable
    except grpc.aio.AioRpcError as exc:
        raise translate(exc) from exc


def upstream_code(exc: BaseException) -> grpc.StatusCode | None:
    """The status code of a translated (or raw) upstream failure, for callers that retry on some."""
    if isinstance(exc, ClientError):
        return exc.code
    if isinstance(exc, grpc.aio.AioRpcError):
        code: grpc.StatusCode = exc.code()
        return code
    return None
