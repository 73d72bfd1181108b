"""The transactional outbox: events written in the same transaction as the state they announce,
published to NATS JetStream after commit by a relay (`pending_outbox` → publish → `mark_published`).

A crash between publish and mark republishes; JetStream drops the duplicate by `msg_id`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from gamehall.store.core import StoreCore
from gamehall.store.errors import InvalidArgument
from gamehall.store.records import OutboxMessage, OutboxRow
from gamehall.store.rows import OUTBOX_COLUMNS, outbox_from
from gamehall.store.transaction import Tx

_CHUNK = 1000


async def write_outbox(tx: Tx, messages: Sequence[OutboxMessage], now: datetime) -> None:
    """Insert `messages` inside `tx`; a duplicate msg_id raises AlreadyExists and rolls back the whole transaction."""
    if not messages:
        return
    for message in messages:
        if not message.subject or not message.msg_id:
            raise InvalidArgument("an outbox message needs a subject and a msg_id")
    await tx.executemany(
        "INSERT INTO outbox (subject, msg_id, payload, created_at) VALUES (?, ?, ?, ?)",
        [(m.subject, m.msg_id, bytes(m.payload), now) for m in messages],
    )


class OutboxOps(StoreCore):
    async def enqueue(self, messages: Sequence[OutboxMessage]) -> None:
        """Queue events that are not tied to another write (the other operations take `outbox=`)."""
        async with self._write() as tx:
            await write_outbox(tx, messages, self._now())

    async def pending_outbox(self, limit: int = 100) -> list[OutboxRow]:
        """Unpublished messages, oldest first (commit order for messages of one match)."""
        if limit < 1:
            raise InvalidArgument(f"limit must be positive, not {limit}")
        async with self._read() as tx:
            rows = await tx.fetch(
                f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE published_at IS NULL ORDER BY id LIMIT ?", limit
            )
        return [outbox_from(r, self.dialect) for r in rows]

    async def mark_published(self, ids: Sequence[int]) -> int:
        """Mark rows published; returns how many were still pending (already-marked ids are ignored)."""
        wanted = [int(i) for i in ids]
        marked = 0
        async with self._write() as tx:
            now = self._now()
            for start in range(0, len(wanted), _CHUNK):  # stay far below the drivers' bind-parameter limits
                chunk = wanted[start : start + _CHUNK]
                rows = await tx.fetch(
                    f"UPDATE outbox SET published_at = ? WHERE published_at IS NULL "
                    f"AND id IN ({self._placeholders(chunk)}) RETURNING id",
                    now,
                    *chunk,
                )
                marked += len(rows)
        return marked

    async def purge_published(self, before: datetime) -> int:
        """Delete rows published before `before`; returns how many."""
        async with self._write() as tx:
            rows = await tx.fetch(
                "DELETE FROM outbox WHERE published_at IS NOT NULL AND published_at < ? RETURNING id", before
            )
        return len(rows)
