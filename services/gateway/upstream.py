"""Channels to the internal services, and their failures translated for the public caller
(`gamehall.runtime.upstream.translate`: nothing a client does becomes INTERNAL).
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

import grpc

from gamehall.internal.v1 import persistence_pb2_grpc, rules_pb2_grpc
from gamehall.runtime.errors import ClientError
from gamehall.runtime.upstream import translate
from gamehall.v1 import common_pb2

T = TypeVar("T")

CHANNEL_OPTIONS = [("grpc.max_receive_message_length", 64 * 1024 * 1024), ("grpc.enable_retries", 1)]


class Upstream:
    """The persistence stub and one rules stub per hosted game (channels opened by `connect`,
    inside the service's event loop)."""

    def __init__(self, persistence_addr: str, rules_addrs: dict[str, str], timeout: float = 10.0) -> None:
        self._persistence_addr = persistence_addr
        self._rules_addrs = dict(rules_addrs)
        self._channels: list[grpc.aio.Channel] = []
        self.persistence: persistence_pb2_grpc.PersistenceServiceStub = None
        self._rules: dict[str, rules_pb2_grpc.RulesServiceStub] = {}
        self.timeout = timeout

    def connect(self) -> None:
        channel = grpc.aio.insecure_channel(self._persistence_addr, options=CHANNEL_OPTIONS)
        self._channels.append(channel)
        self.persistence = persistence_pb2_grpc.PersistenceServiceStub(channel)
        for game, address in self._rules_addrs.items():
            channel = grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS)
            self._channels.append(channel)
            self._rules[game] = rules_pb2_grpc.RulesServiceStub(channel)

    @property
    def games(self) -> list[str]:
        return sorted(self._rules_addrs)

    def rules(self, game: str) -> rules_pb2_grpc.RulesServiceStub:
        stub = self._rules.get(game)
        if stub is None:
            raise ClientError(
                grpc.StatusCode.NOT_FOUND,
                f"no game {game!r} is hosted here; games: {self.games}",
                common_pb2.ERROR_REASON_UNKNOWN_GAME,
            )
        return stub

    async def close(self) -> None:
        for channel in self._channels:
            await channel.close()


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
        return exc.code()  # type: ignore[no-any-return]
    return None
