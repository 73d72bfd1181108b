"""The operators' audit log: begun before the action, finished with its outcome, paged and filtered."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gamehall.store import InvalidArgument, NotFound, Store
from gamehall.store.audit_log import PENDING, AuditEvent
from tests.integration.store.helpers import Clock


async def _event(
    store: Store, event_id: str, actor: str = "acc-op", action: str = "TournamentService.StartTournament"
) -> AuditEvent:
    return await store.begin_audit_event(
        event_id,
        actor=actor,
        actor_name=actor.removeprefix("acc-"),
        role="operator",
        action=action,
        target="tournament:t1",
        detail={"tournament_id": "t1"},
    )


async def test_an_event_is_pending_until_finished_and_keeps_its_outcome(clocked: tuple[Store, Clock]) -> None:
    store, clock = clocked
    begun = await _event(store, "e1")
    assert begun.outcome == PENDING and begun.finished_at is None and begun.detail == {"tournament_id": "t1"}
    again = await _event(store, "e1")  # a retried begin changes nothing
    assert again == begun
    clock.advance(2)
    done = await store.finish_audit_event("e1", "FAILED_PRECONDITION", "too few players")
    assert (done.outcome, done.message, done.target) == ("FAILED_PRECONDITION", "too few players", "tournament:t1")
    assert done.finished_at is not None and done.finished_at > done.at
    with pytest.raises(NotFound):
        await store.finish_audit_event("missing", "OK")
    with pytest.raises(InvalidArgument):
        await store.finish_audit_event("e1", PENDING)


async def test_the_target_can_be_named_by_the_result(store: Store) -> None:
    await _event(store, "e2", action="TournamentService.CreateTournament")
    done = await store.finish_audit_event("e2", "OK", target="tournament:new-id")
    assert done.target == "tournament:new-id"


async def test_a_huge_detail_is_kept_as_a_bounded_note(store: Store) -> None:
    event = await store.begin_audit_event(
        "big", actor="acc-op", actor_name="op", role="operator", action="X.Y", detail={"blob": "x" * 10_000}
    )
    assert event.detail["truncated"] is True and len(event.detail["head"]) == 512


async def test_listing_filters_by_actor_action_and_time_and_pages_newest_first(clocked: tuple[Store, Clock]) -> None:
    store, clock = clocked
    start = clock.now
    for i in range(5):
        await _event(store, f"a{i}", actor="acc-op")
        clock.advance(10)
    await _event(store, "b0", actor="acc-other", action="MatchmakingService.EnqueueTicket")
    clock.advance(10)
    everything = await store.list_audit_events(limit=100)
    assert [e.id for e in everything.events] == ["b0", "a4", "a3", "a2", "a1", "a0"]
    assert everything.next_cursor is None
    by_name = await store.list_audit_events(actor="other")
    assert [e.id for e in by_name.events] == ["b0"]
    by_prefix = await store.list_audit_events(action="TournamentService.")
    assert len(by_prefix.events) == 5
    window = await store.list_audit_events(since=start + _s(10), until=start + _s(30))
    assert [e.id for e in window.events] == ["a2", "a1"]
    seen: list[str] = []
    cursor = None
    while True:
        page = await store.list_audit_events(limit=2, cursor=cursor)
        seen += [e.id for e in page.events]
        if page.next_cursor is None:
            break
        cursor = page.next_cursor
    assert seen == [e.id for e in everything.events]
    with pytest.raises(InvalidArgument):
        await store.list_audit_events(cursor="not-a-cursor")


def _s(seconds: float) -> timedelta:
    return timedelta(seconds=seconds)
