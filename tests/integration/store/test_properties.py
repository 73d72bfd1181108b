"""Property: whatever batches of a match's log entries the projection is handed (redelivered, out of order,
overlapping), the action log stays a gap-free 1..n sequence with each entry once, and each batch is either
written whole or refused whole (a gap), as a simple model of `Store.project` says."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamehall.store import Store
from gamehall.store.projection import LogRecord, ProjectionGap
from tests.integration.store.helpers import canonical, digest, running_match

# Each step: a batch of log sequences (1..12; an action's version is its sequence), in any order, repeats allowed.
batches = st.lists(st.lists(st.integers(1, 12), min_size=1, max_size=6), min_size=1, max_size=20)


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batches=batches)
async def test_the_log_is_gap_free_whatever_is_delivered(store: Store, batches: list[list[int]]) -> None:
    match = await running_match(store)  # a fresh match per example: examples share the store
    head = 0
    for batch in batches:
        entries = [
            LogRecord(
                match_id=match.id,
                seq=seq,
                version=seq,
                kind="action",
                status="running",
                created_at=store._now(),
                seat=seq % 2,
                action=canonical({"kind": "step", "n": seq}),
                request_id=f"req-{seq}",
                state_digest=digest(match.id, seq),
            )
            for seq in batch
        ]
        new = sorted({seq for seq in batch if seq > head})
        follows = new == list(range(head + 1, head + 1 + len(new)))
        try:
            projected = await store.project(entries)
        except ProjectionGap:
            assert not follows, f"batch {batch} at head {head} was refused"
        else:
            assert follows, f"batch {batch} at head {head} was written"
            assert projected.written == len(new) and projected.skipped == len(entries) - len(new)
            head += len(new)
        assert await store.log_head(match.id) == head
    log = await store.get_actions(match.id)
    assert [a.version for a in log] == list(range(1, head + 1))
    assert [a.request_id for a in log] == [f"req-{v}" for v in range(1, head + 1)]
    assert (await store.get_match(match.id)).version == head
