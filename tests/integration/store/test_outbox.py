"""The outbox relay's view: pending rows in commit order, marking, purging."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gamehall.store import AlreadyExists, OutboxMessage, Store
from tests.integration.store.helpers import event


async def test_pending_mark_and_purge(store: Store) -> None:
    await store.enqueue([event("m", v) for v in range(5)])
    pending = await store.pending_outbox(limit=3)
    assert [r.msg_id for r in pending] == ["m:0", "m:1", "m:2"]
    assert pending[0].payload == b"action@0" and pending[0].subject == "gamehall.v1.match.m.action"
    assert all(r.published_at is None for r in pending)
    assert await store.mark_published([r.id for r in pending]) == 3
    assert await store.mark_published([pending[0].id]) == 0  # already marked
    assert await store.mark_published([]) == 0
    assert [r.msg_id for r in await store.pending_outbox()] == ["m:3", "m:4"]
    assert await store.purge_published(pending[0].created_at - timedelta(days=1)) == 0
    assert await store.purge_published(store._now() + timedelta(seconds=1)) == 3
    assert [r.msg_id for r in await store.pending_outbox()] == ["m:3", "m:4"]


async def test_duplicate_message_ids_are_refused_as_a_batch(store: Store) -> None:
    await store.enqueue([event("m", 1)])
    with pytest.raises(AlreadyExists):
        await store.enqueue([event("m", 2), event("m", 1)])
    assert [r.msg_id for r in await store.pending_outbox()] == ["m:1"]


async def test_binary_payloads_survive(store: Store) -> None:
    payload = bytes(range(256))
    await store.enqueue([OutboxMessage(subject="s", msg_id="bin", payload=payload)])
    assert (await store.pending_outbox())[0].payload == payload


async def test_marking_many_rows_at_once(store: Store) -> None:
    await store.enqueue([event("bulk", v) for v in range(1500)])
    pending = await store.pending_outbox(limit=2000)
    assert len(pending) == 1500
    assert await store.mark_published([r.id for r in pending]) == 1500
    assert await store.pending_outbox() == []
