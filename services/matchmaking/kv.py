"""Durable matchmaking state in a JetStream key-value bucket, changed only by compare-and-swap.

Every document (a game's queue, a (game, mode) ratings ledger, a tournament) is one key whose
value is msgpack; `mutate` reads it with its revision, applies a pure change and writes it back
only if nobody wrote in between (`update(last=revision)`), retrying on a conflict. That single
CAS is what lets any number of replicas share the work without ever matching a ticket twice or
applying a match outcome twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

import grpc
import msgspec
from nats.js import JetStreamContext, api
from nats.js.errors import APIError, BucketNotFoundError, KeyNotFoundError, KeyWrongLastSequenceError
from nats.js.kv import KeyValue

from gamehall.runtime.errors import ClientError
from gamehall.v1 import common_pb2

BUCKET = "gamehall_matchmaking"
TICKETS_BUCKET = "gamehall_tickets"
"""Records of matched and cancelled tickets: kept a day (the queue documents hold only open tickets)."""
TICKET_RECORD_AGE_S = 24 * 3600.0
MAX_ATTEMPTS = 64
MAX_DOCUMENT_BYTES = 900_000
"""Below nats-server's default max payload (1 MiB): a change that would grow a document past it is refused."""

T = TypeVar("T")
R = TypeVar("R")


class Conflict(Exception):
    """The document changed under us too many times in a row."""


class DocumentFull(ClientError):
    """A document reached the size one KV value may have (a queue or ledger this big needs sharding)."""

    def __init__(self, key: str, size: int) -> None:
        super().__init__(
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            f"{key} is full ({size} bytes); try again later",
            common_pb2.ERROR_REASON_RATE_LIMITED,
        )


class Unchanged(Exception):
    """Raised by a change function to leave the document as it is (no write)."""


async def open_bucket(js: JetStreamContext, name: str = BUCKET, max_age_s: float | None = None) -> KeyValue:
    """A bucket of the service, created on first use (any replica may create it)."""
    try:
        return await js.key_value(name)
    except BucketNotFoundError:
        pass
    config = api.KeyValueConfig(bucket=name, history=1, storage=api.StorageType.FILE, ttl=max_age_s)
    try:
        return await js.create_key_value(config)
    except APIError:
        return await js.key_value(name)  # another replica created it first


class Documents(Generic[T]):
    """Typed documents of one kind under a key prefix."""

    def __init__(self, kv: KeyValue, prefix: str, kind: type[T]) -> None:
        self.kv = kv
        self.prefix = prefix
        self._decoder = msgspec.msgpack.Decoder(kind)
        self._encoder = msgspec.msgpack.Encoder()

    def key(self, name: str) -> str:
        return f"{self.prefix}.{name}"

    async def get(self, name: str) -> tuple[T, int] | None:
        """The document and its revision, or None."""
        try:
            entry = await self.kv.get(self.key(name))
        except KeyNotFoundError:
            return None
        if entry.value is None or entry.operation is not None:
            return None
        return self._decoder.decode(entry.value), int(entry.revision or 0)

    def decode(self, data: bytes) -> T:
        return self._decoder.decode(data)

    async def put(self, name: str, value: T) -> int:
        """Write the document whatever is there (for write-once records and idempotent rewrites)."""
        return int(await self.kv.put(self.key(name), self._encoder.encode(value)))

    async def put_new(self, name: str, value: T) -> int:
        """Create the document; raises KeyWrongLastSequenceError (or APIError) if it exists."""
        return int(await self.kv.create(self.key(name), self._encoder.encode(value)))

    async def mutate(self, name: str, change: Callable[[T | None], tuple[T, R]]) -> tuple[T, R, int]:
        """Apply `change(current) -> (new, result)` atomically; returns (new, result, new revision).

        `change` must be pure (it may run several times); raising `Unchanged` skips the write and
        the exception propagates to the caller.
        """
        for _ in range(MAX_ATTEMPTS):
            found = await self.get(name)
            current, revision = (None, 0) if found is None else found
            new, result = change(current)
            data = self._encoder.encode(new)
            if len(data) > MAX_DOCUMENT_BYTES:
                raise DocumentFull(self.key(name), len(data))
            try:
                if found is None:
                    written = await self.kv.create(self.key(name), data)
                else:
                    written = await self.kv.update(self.key(name), data, last=revision)
            except KeyWrongLastSequenceError:
                continue  # somebody wrote first: read again
            return new, result, int(written)
        raise Conflict(f"{self.key(name)}: too many concurrent writers")
