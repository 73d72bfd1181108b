"""The first try of a join or leave, by (account, request id), recorded in the transaction that made it: a seat's
claim or release, or the projection of a leave's forfeit (issue 37). SQLite and PostgreSQL."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from gamehall.store import Store
from gamehall.store.projection import LogRecord
from gamehall.store.seats import LifecycleRequest
from tests.integration.store.helpers import DUEL, account


async def test_a_claim_and_a_release_record_the_request_that_made_them(store: Store) -> None:
    alice, bob = await account(store, "alice"), await account(store, "bob")
    match = await store.create_match(game="high-card", config=DUEL)
    assert await store.lifecycle_request(bob.id, "join", "j1") is None
    await store.claim_seat(match.id, 1, bob.id, request_id="j1")
    await store.claim_seat(match.id, 1, bob.id, request_id="j1")  # a retried claim: the record stays the first
    assert await store.lifecycle_request(bob.id, "join", "j1") == LifecycleRequest(match.id, 1)
    assert await store.lifecycle_request(alice.id, "join", "j1") is None, "scoped to the account"
    assert await store.lifecycle_request(bob.id, "leave", "j1") is None, "and to the kind"

    await store.release_seat(match.id, 1, account_id=bob.id, request_id="l1")
    assert await store.lifecycle_request(bob.id, "leave", "l1") == LifecycleRequest(match.id, 1)
    await store.claim_seat(match.id, 0, bob.id, request_id="j2")
    assert await store.lifecycle_request(bob.id, "join", "j2") == LifecycleRequest(match.id, 0)
    assert await store.lifecycle_request(bob.id, "join", "j1") == LifecycleRequest(match.id, 1), "ids never move"
    await store.claim_seat(match.id, 1, alice.id)  # no id: nothing recorded
    assert await store.lifecycle_request(alice.id, "join", "") is None


async def test_a_projected_leave_forfeit_is_recorded_as_its_seats_account(store: Store) -> None:
    alice, bob = await account(store, "alice"), await account(store, "bob")
    match = await store.create_match(game="high-card", config=DUEL)
    await store.claim_seat(match.id, 0, alice.id)
    await store.claim_seat(match.id, 1, bob.id)
    await store.start_match(match.id)
    outcome = json.dumps({"ranks": [1, 2], "scores": None, "reason": "forfeit: seat 1 resigned"})
    close = LogRecord(
        match_id=match.id,
        seq=1,
        version=0,
        kind="close",
        status="finished",
        created_at=datetime(2030, 1, 1, tzinfo=UTC),
        seat=1,
        request_id="leave:r9",
        outcome=outcome,
    )
    await store.project([close])
    await store.project([close])  # redelivered: nothing changes
    assert await store.lifecycle_request(bob.id, "leave", "r9") == LifecycleRequest(match.id, 1)
    assert await store.lifecycle_request(alice.id, "leave", "r9") is None
