"""The action log as the projection writes it (`Store.project`, via `log_action`) and its readers read it:
versions, per-seat request ids, ranges, the last action's finish, snapshots (SQLite and PostgreSQL).

The match's compare-and-swap and request-id idempotency belong to its owner and the match log (JetStream's
expected sequence; tests/unit/matches); the projection's own idempotency and gaps: test_projection.py."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gamehall.store import NotFound, Store
from tests.integration.store.helpers import digest, log_action, running_match


async def test_logged_actions_advance_the_version(store: Store) -> None:
    match = await running_match(store)
    first = await log_action(store, match, 1, "r1")
    second = await log_action(store, match, 2, "r2", seat=1)
    assert (first.version, second.version, second.seat) == (1, 2, 1)
    assert first.action == {"kind": "play", "card": 1}
    assert first.state_digest == digest(match.id, 0)
    assert (await store.get_match(match.id)).version == 2
    assert await store.get_actions(match.id) == [first, second]


async def test_request_ids_are_per_seat(store: Store) -> None:
    """Issue 20, finding 9: an opponent reusing a player's request id makes its own move, takes nothing."""
    match = await running_match(store)
    mine = await log_action(store, match, 1, "guessable", seat=0)
    theirs = await log_action(store, match, 2, "guessable", seat=1)
    assert [(a.seat, a.request_id) for a in await store.get_actions(match.id)] == [(0, "guessable"), (1, "guessable")]
    assert await store.request_keys(match.id) == [(0, "guessable"), (1, "guessable")]
    assert await store.get_action_by_request(match.id, 0, "guessable") == mine
    assert await store.get_action_by_request(match.id, 1, "guessable") == theirs
    assert await store.get_action_by_request(match.id, 0, "r9") is None


async def test_request_ids_are_per_match(store: Store) -> None:
    one, two = await running_match(store), await running_match(store)
    await log_action(store, one, 1, "same")
    await log_action(store, two, 1, "same")
    assert (await store.get_action_by_request(two.id, 0, "same")).match_id == two.id  # type: ignore[union-attr]


async def test_the_final_action_finishes_the_match(store: Store) -> None:
    match = await running_match(store, seed=4242)
    await log_action(store, match, 1, "r1", clock_state={"left": [5, 9]})
    assert (await store.get_match(match.id)).clock_state == {"left": [5, 9]}
    ended = datetime(2030, 1, 2, tzinfo=UTC)
    await log_action(
        store, match, 2, "r2", status="finished", outcome={"ranks": [2, 1], "reason": "x"}, created_at=ended
    )
    done = await store.get_match(match.id)
    assert (done.status, done.version, done.outcome) == ("finished", 2, {"ranks": [2, 1], "reason": "x"})
    assert done.finished_at == ended
    assert done.revealed_seed == 4242


async def test_get_actions_ranges(store: Store) -> None:
    match = await running_match(store)
    for v in range(1, 6):
        await log_action(store, match, v, f"r{v}")
    assert [a.version for a in await store.get_actions(match.id, 2, 4)] == [2, 3, 4]
    assert [a.version for a in await store.get_actions(match.id, 4)] == [4, 5]
    assert await store.get_actions(match.id, 6) == []
    with pytest.raises(NotFound):
        await store.get_actions("nope")


async def test_snapshots(store: Store) -> None:
    match = await running_match(store)
    assert await store.latest_snapshot(match.id) is None
    for v in range(1, 7):
        await log_action(store, match, v, f"r{v}", snapshot=f"s{v}".encode() if v % 3 == 0 else None)
    latest = await store.latest_snapshot(match.id)
    assert latest is not None and (latest.version, latest.state) == (6, b"s6")
    assert (await store.latest_snapshot(match.id, at_most=5)).version == 3  # type: ignore[union-attr]
    assert await store.latest_snapshot(match.id, at_most=2) is None
    with pytest.raises(NotFound):
        await store.latest_snapshot("nope")
