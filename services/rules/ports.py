"""The owner's ports over this replica's transports: the store as calls to persistence (gRPC, within the
caller's budget), the match log on JetStream once NATS is reached, views on core NATS, and the counters the
owner reports to. The flow itself is `gamehall.matches.owner.MatchOwner`."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, cast

import grpc

from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.internal.v1 import persistence_pb2_grpc
from gamehall.matches.errors import LogUnavailable
from gamehall.matches.heads import Head, MatchHeads
from gamehall.matches.owner import MatchOwner
from gamehall.matches.ports import Logged
from gamehall.runtime import budget, metrics
from gamehall.runtime.bus import view_subject
from gamehall.runtime.matchlog import MatchLog
from gamehall.runtime.store_errors import as_domain
from gamehall.runtime.upstream import translate, translate_store_call
from gamehall.wire.store_port import Call, PersistenceStore
from gamehall_sdk.v1 import match_pb2

LOG_WAIT_SECONDS = 5.0
"""How long a call waits for this replica's first NATS connection before it is UNAVAILABLE."""

Stub = Callable[[], persistence_pb2_grpc.PersistenceServiceStub]


def persistence_calls(stub: Stub, timeout: float) -> Call:
    """`call(method, request)` on persistence within the caller's budget, failures as the domain's errors."""

    async def call(method: str, request: Any) -> Any:
        try:
            return await getattr(stub(), method)(request, timeout=budget.upstream_timeout(timeout))
        except grpc.aio.AioRpcError as exc:
            raise as_domain(translate_store_call(exc)) from exc

    return call


def heads_reader(stub: Stub, timeout: float) -> Callable[[list[str]], Awaitable[dict[str, Head | BaseException]]]:
    """Reads many matches' heads in one GetMatchHeads call (a match the store does not know is left out)."""

    async def read(match_ids: list[str]) -> dict[str, Head | BaseException]:
        reply = await stub().GetMatchHeads(ppb.GetMatchHeadsRequest(match_ids=match_ids), timeout=timeout)
        return {h.match_id: (h.status, int(h.version)) for h in reply.heads}

    return read


def _failed(exc: BaseException) -> BaseException:
    return as_domain(translate(exc)) if isinstance(exc, grpc.aio.AioRpcError) else exc


def persistence_heads(stub: Stub, timeout: float) -> MatchHeads:
    """The checks of many matches' heads, read together from persistence."""
    return MatchHeads(heads_reader(stub, timeout), lambda exc: cast(Exception, _failed(exc)))


def persistence_store(stub: Stub, timeout: float = 10.0) -> PersistenceStore:
    """The store port over persistence."""
    return PersistenceStore(persistence_calls(stub, timeout), persistence_heads(stub, timeout).head)


class WaitingLog:
    """The match log, waiting (a bounded time) for a replica that started before NATS was reachable."""

    def __init__(self, log: Callable[[], MatchLog | None]) -> None:
        self._log = log

    async def _ready(self) -> MatchLog:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + LOG_WAIT_SECONDS
        while (found := self._log()) is None:
            if loop.time() >= deadline:
                raise LogUnavailable("the match log (NATS) is not reachable yet; retry shortly")
            await asyncio.sleep(0.05)
        return found

    async def last_seq(self, game: str, match_id: str) -> int:
        return await (await self._ready()).last_seq(game, match_id)

    async def tail(self, game: str, match_id: str, after_seq: int) -> list[Logged]:
        return await (await self._ready()).tail(game, match_id, after_seq)

    async def append(self, entry: LogEntry, expected_seq: int) -> int:
        return await (await self._ready()).append(entry, expected_seq)


class NatsViews:
    """Views on core NATS, one subject per audience, for the audiences someone watches (`Watched`)."""

    def __init__(self, nats: Callable[[], Any], audiences: Callable[[str], list[int | None]] | None) -> None:
        self._nats = nats
        self._audiences = audiences

    def audiences(self, match_id: str) -> list[int | None] | None:
        return self._audiences(match_id) if self._audiences is not None else None

    async def view(self, match_id: str, seat: int | None, message: match_pb2.WatchMatchResponse) -> None:
        nc = self._nats()
        if nc is not None:
            await nc.publish(view_subject(match_id, seat), message.SerializeToString())


def metered(owner: MatchOwner) -> MatchOwner:
    """The owner with its counters reported to this replica's metrics."""
    game = owner.game.id
    owner.sized = metrics.LIVE_MATCHES_HELD.labels(game).set
    owner.applied = lambda ok: (metrics.ACTIONS_APPLIED if ok else metrics.ACTIONS_REJECTED).labels(game).inc()
    owner.pushed = lambda seat: metrics.VIEWS_PUSHED.labels(game, "spectators" if seat is None else "seat").inc()
    return owner

