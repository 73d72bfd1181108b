"""The gateway stand-in: a match creator that keeps its matches in memory.

Storage is NOT faked: the tests run the real persistence service (see conftest.py)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import grpc

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall_sdk.v1 import match_pb2


def rpc_error(code: grpc.StatusCode, details: str) -> grpc.aio.AioRpcError:
    return grpc.aio.AioRpcError(code, grpc.aio.Metadata(), grpc.aio.Metadata(), details=details)


@dataclass
class FakeCreator:
    """Creates matches in memory; the same request id gives the same match (like the gateway).

    `refuse` makes every create fail with that status (a refusal, or the gateway being away);
    `record` serves the created matches as persistence would (status "open" unless set in `status`)."""

    clock: Callable[[], float] = time.time
    created: dict[str, match_pb2.Match] = field(default_factory=dict)
    """Request id → the match created for it."""
    created_at: dict[str, float] = field(default_factory=dict)
    status: dict[str, str] = field(default_factory=dict)
    """Match id → its status for `record` (default "open")."""
    aborted: list[tuple[str, str]] = field(default_factory=list)
    refuse: grpc.StatusCode | None = None
    calls: int = 0

    async def create(self, game, mode, seats, request_id, *, public=True, clock=None, hold_reserved=False):  # type: ignore[no-untyped-def]
        self.calls += 1
        await asyncio.sleep(0)  # a round trip: other replicas run in between
        if self.refuse is not None:
            raise rpc_error(self.refuse, "refused by the fake gateway")
        if request_id not in self.created:
            match = match_pb2.Match(id=f"m{len(self.created) + 1}", game=game)
            for n, spec in enumerate(seats):
                kind = spec.WhichOneof("kind")
                seat_kind = match_pb2.SEAT_KIND_BOT if kind == "bot" else match_pb2.SEAT_KIND_RESERVED
                if kind == "reserved_for" and hold_reserved:
                    seat_kind = match_pb2.SEAT_KIND_HUMAN
                match.seats.add(seat=n, kind=seat_kind, account_id=spec.reserved_for)
            self.created[request_id] = match
            self.created_at[match.id] = self.clock()
        return self.created[request_id]

    def match(self, match_id: str) -> match_pb2.Match:
        found = [m for m in self.created.values() if m.id == match_id]
        if not found:
            raise rpc_error(grpc.StatusCode.NOT_FOUND, f"no match {match_id}")
        return found[0]

    async def record(self, match_id: str) -> ppb.MatchRecord:
        match = self.match(match_id)
        record = ppb.MatchRecord(
            id=match.id,
            game=match.game,
            status=self.status.get(match.id, "open"),
            created_unix_ms=int(self.created_at[match.id] * 1000),
        )
        for seat in match.seats:
            kind = str(match_pb2.SeatKind.Name(seat.kind)).removeprefix("SEAT_KIND_").lower()  # the record's name
            record.seats.add(seat=seat.seat, kind=kind, account_id=seat.account_id)
        return record

    async def abort(self, match_id: str, game: str, reason: str) -> None:
        self.aborted.append((match_id, reason))
        self.status[match_id] = "aborted"
