"""The store's status and version of the matches a rules replica is about to extend, read many at a time.

Before it logs a match's first move, a replica checks its copy against the store (`LiveMatches._unclosed`: a
close at version 0 leaves nothing in the log once it is projected and purged). Matches start together (a
tournament round, the bench's 200 tables), and one GetMatch each cost persistence more than the moves that
followed. Here the checks that come while a read is on the wire go together in the next one (`GetMatchHeads`),
as the play stream does with moves: one check alone goes at once, many share a read. A persistence of an older
release, which does not serve GetMatchHeads, is asked with GetMatch from then on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import grpc

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.internal.v1 import persistence_pb2_grpc
from gamehall.runtime.errors import ClientError
from gamehall.runtime.upstream import translate
from gamehall_sdk.v1 import common_pb2

MAX_PER_READ = 500
"""Persistence answers at most this many matches in one GetMatchHeads."""

Head = tuple[str, int]
"""(status, version)."""


class MatchHeads:
    """`head(match_id)`: the match's (status, version) in the store, checks that come together read together."""

    def __init__(self, persistence: Callable[[], persistence_pb2_grpc.PersistenceServiceStub], timeout: float) -> None:
        self._persistence = persistence
        self._timeout = timeout
        self._waiting: dict[str, list[asyncio.Future[Head]]] = {}
        self._reader: asyncio.Task[None] | None = None
        self.batched = True
        """False once persistence answered GetMatchHeads with UNIMPLEMENTED (an older release)."""

    async def head(self, match_id: str) -> Head:
        """(status, version) of the match; NOT_FOUND (a ClientError) when the store has none."""
        answer: asyncio.Future[Head] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(match_id, []).append(answer)
        if self._reader is None or self._reader.done():
            self._reader = asyncio.create_task(self._read_waiting())
        return await answer

    async def _read_waiting(self) -> None:
        """Read whatever waits, a batch at a time, until nothing does."""
        while self._waiting:
            batch = {}
            for match_id in list(self._waiting)[:MAX_PER_READ]:
                batch[match_id] = [f for f in self._waiting.pop(match_id) if not f.done()]
            wanted = [match_id for match_id, waiting in batch.items() if waiting]
            if not wanted:
                continue
            try:
                found = await self._read(wanted)
            except Exception as exc:  # each waiting call fails as its own GetMatch would have
                _settle(batch, exc)
                continue
            for match_id, waiting in batch.items():
                head = found.get(match_id)
                for answer in waiting:
                    if answer.done():
                        continue
                    if isinstance(head, BaseException):
                        answer.set_exception(head)
                    elif head is None:
                        answer.set_exception(_not_found(match_id))
                    else:
                        answer.set_result(head)

    async def _read(self, match_ids: list[str]) -> dict[str, Head | BaseException]:
        stub = self._persistence()
        if self.batched:
            try:
                reply = await stub.GetMatchHeads(ppb.GetMatchHeadsRequest(match_ids=match_ids), timeout=self._timeout)
            except grpc.aio.AioRpcError as exc:
                if exc.code() is not grpc.StatusCode.UNIMPLEMENTED:
                    raise
                self.batched = False
            else:
                return {h.match_id: (h.status, int(h.version)) for h in reply.heads}
        records = await asyncio.gather(
            *(stub.GetMatch(ppb.GetMatchRequest(match_id=m), timeout=self._timeout) for m in match_ids),
            return_exceptions=True,
        )
        found: dict[str, Head | BaseException] = {}
        for match_id, record in zip(match_ids, records, strict=True):
            if isinstance(record, grpc.aio.AioRpcError):
                if record.code() is not grpc.StatusCode.NOT_FOUND:
                    found[match_id] = translate(record)
            elif isinstance(record, BaseException):
                found[match_id] = record
            else:
                found[match_id] = (record.match.status, int(record.match.version))
        return found


def _settle(batch: dict[str, list[asyncio.Future[Head]]], exc: Exception) -> None:
    """Fail every call of a batch whose read failed (a failed RPC translated anew for each: a raised exception
    gathers its traceback, and each call raises its own)."""
    for waiting in batch.values():
        for answer in waiting:
            if not answer.done():
                answer.set_exception(translate(exc) if isinstance(exc, grpc.aio.AioRpcError) else exc)


def _not_found(match_id: str) -> ClientError:
    return ClientError(grpc.StatusCode.NOT_FOUND, f"no match {match_id}", common_pb2.ERROR_REASON_NOT_FOUND)


__all__ = ["MAX_PER_READ", "Head", "MatchHeads"]
