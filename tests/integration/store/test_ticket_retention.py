"""The persistence service's ticket retention: closed tickets older than the history go, open ones stay."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gamehall.store import NewTicket, NotFound, Store
from gamehall_services.persistence.retention import TicketRetention
from tests.integration.store.helpers import Clock

DAY = timedelta(days=1).total_seconds()


def _ticket(ticket_id: str, player: str) -> NewTicket:
    return NewTicket(
        id=ticket_id, game="high-card", mode="duel", ticket=b"t", players=(player,), submitted_by=player, enqueued_at=0
    )


async def test_retention_purges_only_closed_tickets_past_the_history(clocked: tuple[Store, Clock]) -> None:
    store, clock = clocked
    await store.enqueue_ticket(_ticket("old-closed", "ann"))
    await store.enqueue_ticket(_ticket("old-open", "bob"))
    await store.cancel_ticket("old-closed")
    clock.advance(31 * DAY)
    await store.enqueue_ticket(_ticket("new-closed", "ann"))
    await store.cancel_ticket("new-closed")
    retention = TicketRetention(store, timedelta(days=30), clock=clock)
    assert await retention.purge_once() == 1
    with pytest.raises(NotFound):
        await store.get_ticket("old-closed")
    assert (await store.get_ticket("old-open")).state == "queued"  # open tickets are never purged
    assert (await store.get_ticket("new-closed")).state == "cancelled"
    assert await retention.purge_once() == 0
