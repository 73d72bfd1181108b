"""In-memory stand-ins: a JetStream KV bucket with revisions and CAS, and a match creator."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field

from nats.js.errors import KeyNotFoundError, KeyWrongLastSequenceError

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.v1 import gateway_pb2


@dataclass
class Entry:
    value: bytes
    revision: int
    operation: str | None = None


@dataclass
class FakeKV:
    """The subset of `nats.js.kv.KeyValue` the service uses, with the server's CAS semantics."""

    data: dict[str, Entry] = field(default_factory=dict)
    sequence: itertools.count = field(default_factory=lambda: itertools.count(1))
    writes: int = 0
    conflicts: int = 0

    async def get(self, key: str) -> Entry:
        await asyncio.sleep(0)  # a round trip: other replicas run in between
        if key not in self.data:
            raise KeyNotFoundError
        return self.data[key]

    async def create(self, key: str, value: bytes) -> int:
        if key in self.data:
            raise KeyWrongLastSequenceError("exists")
        return self._write(key, value)

    async def update(self, key: str, value: bytes, last: int | None = None) -> int:
        await asyncio.sleep(0)
        if key not in self.data or self.data[key].revision != last:
            self.conflicts += 1
            raise KeyWrongLastSequenceError("wrong last sequence")
        return self._write(key, value)

    async def put(self, key: str, value: bytes) -> int:
        return self._write(key, value)

    def _write(self, key: str, value: bytes) -> int:
        revision = next(self.sequence)
        self.data[key] = Entry(value, revision)
        self.writes += 1
        return revision


@dataclass
class FakeCreator:
    """Creates matches in memory; the same request id gives the same match (like the gateway)."""

    created: dict[str, gateway_pb2.Match] = field(default_factory=dict)
    calls: int = 0

    async def create(self, game, mode, seats, request_id, *, public=True, clock=None):  # type: ignore[no-untyped-def]
        self.calls += 1
        if request_id not in self.created:
            match = gateway_pb2.Match(id=f"m{len(self.created) + 1}", game=game)
            for n, spec in enumerate(seats):
                kind = spec.WhichOneof("kind")
                match.seats.add(seat=n, kind="bot" if kind == "bot" else "reserved", account_id=spec.reserved_for)
            self.created[request_id] = match
        return self.created[request_id]

    async def record(self, match_id: str) -> ppb.MatchRecord:
        raise NotImplementedError

    async def abort(self, match_id: str, reason: str) -> None:
        return None
