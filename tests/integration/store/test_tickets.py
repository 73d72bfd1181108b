"""Matchmaking tickets: one open ticket per player per game, cancel, keyset pages of the queue,
compare-and-swap claims of proposed matches, settling them, the outbox, purging closed history."""

from __future__ import annotations

import asyncio
import itertools
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamehall.store import (
    AlreadyExists,
    AlreadyQueued,
    InvalidArgument,
    NewPending,
    NewTicket,
    NotFound,
    OutboxMessage,
    QueueTicket,
    Store,
    TicketNotOpen,
    open_store,
)
from tests.integration.store.helpers import Clock

GAME = "grimmoir"


def new_ticket(
    ticket_id: str,
    *players: str,
    game: str = GAME,
    mode: str = "duel",
    at: float = 0.0,
    by: str | None = None,
) -> NewTicket:
    return NewTicket(
        id=ticket_id,
        game=game,
        mode=mode,
        ticket=f"blob:{ticket_id}".encode(),
        players=players,
        submitted_by=players[0] if by is None else by,
        enqueued_at=at,
    )


def proposal(request_id: str, *tickets: str, mode: str = "duel") -> NewPending:
    return NewPending(request_id=request_id, mode=mode, match=f"match:{request_id}".encode(), tickets=tickets)


def msg(msg_id: str) -> OutboxMessage:
    return OutboxMessage(subject=f"gamehall.v1.mm.{msg_id}", msg_id=msg_id, payload=msg_id.encode())


async def outbox_ids(store: Store) -> list[str]:
    return [r.msg_id for r in await store.pending_outbox(limit=1000)]


async def states(store: Store, *ticket_ids: str) -> dict[str, str]:
    return {t: (await store.get_ticket(t)).state for t in ticket_ids}


# ----------------------------------------------------------------- enqueueing
async def test_enqueue_and_get(store: Store) -> None:
    blob = bytes(range(256))
    new = NewTicket(
        id="t1", game=GAME, mode="duel", ticket=blob, players=("bob", "alice"), submitted_by="bob", enqueued_at=12.5
    )
    queued = await store.enqueue_ticket(new)
    assert queued == await store.get_ticket("t1")
    assert (queued.id, queued.game, queued.mode, queued.state) == ("t1", GAME, "duel", "queued")
    assert queued.ticket == blob
    assert queued.players == ("alice", "bob")  # by account
    assert (queued.submitted_by, queued.enqueued_at) == ("bob", 12.5)
    assert (queued.match_request, queued.match_id, queued.seats, queued.closed_at) == (None, None, (), None)
    assert queued.created_at.tzinfo is not None
    with pytest.raises(NotFound):
        await store.get_ticket("nope")


async def test_bad_tickets_are_refused(store: Store) -> None:
    for bad in (
        new_ticket("", "alice"),
        new_ticket("t1", "alice", game=""),
        new_ticket("t1", "alice", mode=""),
        new_ticket("t1", by="alice"),
    ):
        with pytest.raises(InvalidArgument):
            await store.enqueue_ticket(bad)
    assert await store.tickets_of("alice") == []


async def test_one_open_ticket_per_player_per_game(store: Store) -> None:
    await store.enqueue_ticket(new_ticket("t1", "alice"))
    with pytest.raises(AlreadyQueued) as refused:
        await store.enqueue_ticket(new_ticket("t2", "alice"))
    assert (refused.value.account, refused.value.ticket_id) == ("alice", "t1")
    assert isinstance(refused.value, AlreadyExists)
    with pytest.raises(AlreadyQueued):  # the rule is per game, whatever the mode
        await store.enqueue_ticket(new_ticket("t3", "alice", mode="ffa"))
    for refused_id in ("t2", "t3"):
        with pytest.raises(NotFound):
            await store.get_ticket(refused_id)
    other = await store.enqueue_ticket(new_ticket("t4", "alice", game="grimslingers"))
    assert other.state == "queued"
    assert {t.id for t in await store.tickets_of("alice")} == {"t1", "t4"}


async def test_a_reused_ticket_id_is_refused(store: Store) -> None:
    await store.enqueue_ticket(new_ticket("t1", "alice"))
    with pytest.raises(AlreadyExists) as refused:
        await store.enqueue_ticket(new_ticket("t1", "bob"))
    assert not isinstance(refused.value, AlreadyQueued)
    assert (await store.get_ticket("t1")).players == ("alice",)
    await store.enqueue_ticket(new_ticket("t2", "bob"))  # bob was not left half-queued


async def test_party_ticket(store: Store) -> None:
    party = await store.enqueue_ticket(new_ticket("p1", "carol", "alice", "bob", "alice", by="carol"))
    assert party.players == ("alice", "bob", "carol")  # duplicates dropped
    for member in ("alice", "bob", "carol"):
        with pytest.raises(AlreadyQueued) as refused:
            await store.enqueue_ticket(new_ticket(f"solo-{member}", member))
        assert (refused.value.account, refused.value.ticket_id) == (member, "p1")
        assert [t.id for t in await store.tickets_of(member)] == ["p1"]
    # A second party sharing one member is refused whole: its other members are not queued.
    with pytest.raises(AlreadyQueued) as refused:
        await store.enqueue_ticket(new_ticket("p2", "dave", "bob", "erin"))
    assert (refused.value.account, refused.value.ticket_id) == ("bob", "p1")
    assert await store.tickets_of("dave") == [] and await store.tickets_of("erin") == []
    await store.enqueue_ticket(new_ticket("p3", "dave", "erin"))


async def test_a_submitter_who_does_not_play_is_not_blocked(store: Store) -> None:
    submitted = await store.enqueue_ticket(new_ticket("t1", "alice", "bob", by="coach"))
    assert submitted.submitted_by == "coach" and submitted.players == ("alice", "bob")
    assert [t.id for t in await store.tickets_of("coach")] == ["t1"]
    own = await store.enqueue_ticket(new_ticket("t2", "coach", at=1.0))
    assert own.players == ("coach",)
    # A second ticket submitted for others is fine too, in the same game.
    await store.enqueue_ticket(new_ticket("t3", "carol", by="coach", at=2.0))
    assert [t.id for t in await store.tickets_of("coach")] == ["t3", "t2", "t1"]
    with pytest.raises(AlreadyQueued) as refused:
        await store.enqueue_ticket(new_ticket("t4", "coach", at=3.0))
    assert refused.value.ticket_id == "t2"


# ----------------------------------------------------------------- cancelling
async def test_cancel_a_queued_ticket_frees_the_player(store: Store) -> None:
    await store.enqueue_ticket(new_ticket("t1", "alice", "bob"))
    cancelled = await store.cancel_ticket("t1", outbox=[msg("cancel-t1")])
    assert cancelled.state == "cancelled" and cancelled.closed_at is not None
    assert cancelled == await store.get_ticket("t1")
    assert await outbox_ids(store) == ["cancel-t1"]
    again = await store.enqueue_ticket(new_ticket("t2", "bob", "alice"))
    assert again.state == "queued"


async def test_cancel_of_tickets_that_are_not_queued(store: Store) -> None:
    for i, player in enumerate(("alice", "bob", "carol", "dave")):
        await store.enqueue_ticket(new_ticket(f"t{i}", player, at=float(i)))
    await store.cancel_ticket("t0")
    assert await store.claim_tickets(GAME, [proposal("r1", "t1", "t2")]) == ["r1"]
    await store.claim_tickets(GAME, [proposal("r2", "t3")])
    await store.settle_match("r2", "m2", {"t3": [0]})
    before = {t: await store.get_ticket(t) for t in ("t0", "t1", "t2", "t3")}
    pending_before = await store.pending_matches(GAME)

    for ticket_id, state in (("t0", "cancelled"), ("t1", "matching"), ("t3", "matched")):
        with pytest.raises(TicketNotOpen, match=state) as refused:
            await store.cancel_ticket(ticket_id, outbox=[msg(f"cancel-{ticket_id}")])
        assert refused.value.grpc_status == "FAILED_PRECONDITION"
    with pytest.raises(NotFound):
        await store.cancel_ticket("ghost", outbox=[msg("cancel-ghost")])

    assert {t: await store.get_ticket(t) for t in before} == before
    assert await store.pending_matches(GAME) == pending_before
    assert await outbox_ids(store) == []
    with pytest.raises(AlreadyQueued):  # bob is still held by the matching ticket
        await store.enqueue_ticket(new_ticket("t9", "bob"))


async def test_a_cancel_whose_outbox_fails_changes_nothing(store: Store) -> None:
    await store.enqueue([msg("taken")])
    await store.enqueue_ticket(new_ticket("t1", "alice"))
    with pytest.raises(AlreadyExists):
        await store.cancel_ticket("t1", outbox=[msg("fresh"), msg("taken")])
    ticket = await store.get_ticket("t1")
    assert (ticket.state, ticket.closed_at) == ("queued", None)
    assert await outbox_ids(store) == ["taken"]
    with pytest.raises(AlreadyQueued):  # alice's open-ticket guard was not released either
        await store.enqueue_ticket(new_ticket("t2", "alice"))
    assert (await store.cancel_ticket("t1", outbox=[msg("fresh")])).state == "cancelled"
    assert await outbox_ids(store) == ["taken", "fresh"]


# ----------------------------------------------------------------- the queue
async def test_queued_tickets_order_and_keyset_pages(store: Store) -> None:
    # Enqueue times with ties; ids inserted out of order so that only (enqueued_at, id) explains the order.
    times = {"k": 1.0, "b": 2.0, "z": 2.0, "a": 2.0, "m": 2.0, "c": 3.0, "y": 0.5, "d": 2.0}
    for ticket_id, at in times.items():
        await store.enqueue_ticket(new_ticket(ticket_id, f"player-{ticket_id}", at=at))
    # Noise that must not show up: another mode, another game, a cancelled and a matching ticket.
    await store.enqueue_ticket(new_ticket("other-mode", "x1", mode="ffa", at=2.0))
    await store.enqueue_ticket(new_ticket("other-game", "x2", game="grimslingers", at=2.0))
    await store.enqueue_ticket(new_ticket("e", "x3", at=2.0))
    await store.cancel_ticket("e")
    await store.enqueue_ticket(new_ticket("f", "x4", at=2.0))
    await store.claim_tickets(GAME, [proposal("r", "f")])

    expected = sorted(times, key=lambda t: (times[t], t))
    everything = await store.queued_tickets(GAME, "duel")
    assert [t.id for t in everything] == expected == ["y", "k", "a", "b", "d", "m", "z", "c"]
    assert all(t.state == "queued" for t in everything)

    for limit in (1, 2, 3, 5):
        seen: list[str] = []
        after: tuple[float, str] | None = None
        for _ in range(len(expected) + 1):  # bounded: a cursor that does not advance must fail, not hang
            page = await store.queued_tickets(GAME, "duel", after=after, limit=limit)
            assert len(page) <= limit
            seen.extend(t.id for t in page)
            if len(page) < limit:
                break
            after = (page[-1].enqueued_at, page[-1].id)
        assert seen == expected, limit

    assert [t.id for t in await store.queued_tickets(GAME, "duel", after=(2.0, "b"))] == ["d", "m", "z", "c"]
    assert await store.queued_tickets(GAME, "duel", after=(3.0, "c")) == []
    assert [t.id for t in await store.queued_tickets(GAME, "ffa")] == ["other-mode"]
    for bad in (0, -1, 10_001):
        with pytest.raises(InvalidArgument):
            await store.queued_tickets(GAME, "duel", limit=bad)


async def test_tickets_of(clocked: tuple[Store, Clock]) -> None:
    store, clock = clocked
    await store.enqueue_ticket(new_ticket("old", "alice", at=1.0))
    await store.cancel_ticket("old")
    clock.advance(60)
    cutoff = clock.advance(1)
    await store.enqueue_ticket(new_ticket("recent", "alice", at=2.0))
    await store.cancel_ticket("recent")
    await store.enqueue_ticket(new_ticket("open", "alice", "bob", at=3.0))
    await store.enqueue_ticket(new_ticket("elsewhere", "alice", game="grimslingers", at=4.0))

    assert [t.id for t in await store.tickets_of("alice")] == ["elsewhere", "open", "recent", "old"]
    assert [t.id for t in await store.tickets_of("alice", closed_since=cutoff)] == ["elsewhere", "open", "recent"]
    assert [t.id for t in await store.tickets_of("alice", game=GAME)] == ["open", "recent", "old"]
    assert [t.id for t in await store.tickets_of("alice", game=GAME, limit=2)] == ["open", "recent"]
    assert [t.id for t in await store.tickets_of("alice", closed_since=clock.advance(1))] == ["elsewhere", "open"]
    assert [t.id for t in await store.tickets_of("bob")] == ["open"]
    assert await store.tickets_of("nobody") == []
    with pytest.raises(InvalidArgument):
        await store.tickets_of("alice", limit=0)


# ----------------------------------------------------------------- claiming
async def test_claim_records_pending_matches(store: Store) -> None:
    for i in range(4):
        await store.enqueue_ticket(new_ticket(f"t{i}", f"p{i}", at=float(i)))
    claimed = await store.claim_tickets(GAME, [proposal("r1", "t2", "t0", "t2"), proposal("r2", "t3", mode="ffa")])
    assert claimed == ["r1", "r2"]
    pending = await store.pending_matches(GAME)
    assert [(p.request_id, p.game, p.mode, p.match, p.tickets) for p in pending] == [
        ("r1", GAME, "duel", b"match:r1", ("t0", "t2")),
        ("r2", GAME, "ffa", b"match:r2", ("t3",)),
    ]
    assert pending[0].claimed_at.tzinfo is not None
    assert await states(store, "t0", "t1", "t2", "t3") == {
        "t0": "matching",
        "t1": "queued",
        "t2": "matching",
        "t3": "matching",
    }
    assert (await store.get_ticket("t0")).match_request == "r1"
    assert [t.id for t in await store.queued_tickets(GAME, "duel")] == ["t1"]
    assert await store.pending_matches("grimslingers") == []
    assert len(await store.pending_matches(GAME, limit=1)) == 1
    with pytest.raises(InvalidArgument):
        await store.pending_matches(GAME, limit=0)


async def test_claim_skips_proposals_whose_tickets_are_taken(store: Store) -> None:
    for name in "abcdefgh":
        await store.enqueue_ticket(new_ticket(name, f"player-{name}"))
    await store.enqueue_ticket(new_ticket("elsewhere", "player-x", game="grimslingers"))
    await store.cancel_ticket("g")
    assert await store.claim_tickets(GAME, [proposal("earlier", "h")]) == ["earlier"]
    claimed = await store.claim_tickets(
        GAME,
        [
            proposal("r1", "a", "b"),
            proposal("r2", "b", "c"),  # b went to r1 in this very call
            proposal("r3", "c", "d"),
            proposal("r4", "e", "g"),  # g was cancelled
            proposal("r5", "e", "h"),  # h is matching for an earlier pass
            proposal("r6", "e", "ghost"),  # no such ticket
            proposal("r7", "e", "elsewhere"),  # a ticket of another game
            proposal("r8", "e", "f"),
        ],
    )
    assert claimed == ["r1", "r3", "r8"]
    pending = {p.request_id: p.tickets for p in await store.pending_matches(GAME)}
    assert pending == {"earlier": ("h",), "r1": ("a", "b"), "r3": ("c", "d"), "r8": ("e", "f")}
    assert (await store.get_ticket("elsewhere")).state == "queued"
    assert (await store.get_ticket("g")).state == "cancelled"


async def test_a_request_id_is_claimed_once(store: Store) -> None:
    for name in "abcdef":
        await store.enqueue_ticket(new_ticket(name, f"player-{name}"))
    assert await store.claim_tickets(GAME, [proposal("r1", "a"), proposal("r1", "b")]) == ["r1"]
    assert await store.claim_tickets(GAME, [proposal("r1", "c"), proposal("r2", "d")]) == ["r2"]
    pending = {p.request_id: p.tickets for p in await store.pending_matches(GAME)}
    assert pending == {"r1": ("a",), "r2": ("d",)}
    assert await states(store, "b", "c") == {"b": "queued", "c": "queued"}
    # Once settled, the request id still belongs to its match: reusing it claims nothing.
    await store.settle_match("r1", "m1", {"a": [0]})
    assert await store.claim_tickets(GAME, [proposal("r1", "e")]) == []
    assert [p.request_id for p in await store.pending_matches(GAME)] == ["r2"]
    assert (await store.get_ticket("e")).state == "queued"
    assert await store.settle_match("r1", "m-other", {"e": [1]}) == []
    settled = await store.get_ticket("a")
    assert (settled.state, settled.match_id, settled.seats) == ("matched", "m1", (0,))


async def test_a_proposal_without_tickets_fails_the_whole_claim(store: Store) -> None:
    await store.enqueue_ticket(new_ticket("a", "alice"))
    with pytest.raises(InvalidArgument):
        await store.claim_tickets(GAME, [proposal("r1", "a"), proposal("r2")])
    assert await store.pending_matches(GAME) == []
    assert (await store.get_ticket("a")).state == "queued"
    assert await store.claim_tickets(GAME, []) == []


async def _race_claims(stores: list[Store], game: str, passes: list[list[NewPending]], tickets: list[str]) -> int:
    """Run one claim_tickets per store at once; check no ticket ended in two pending matches. Returns how many
    tickets were claimed."""
    results = await asyncio.gather(
        *(store.claim_tickets(game, proposals) for store, proposals in zip(stores, passes, strict=True)),
        return_exceptions=True,
    )
    assert not [r for r in results if isinstance(r, BaseException)], results
    claimed = [rid for r in results if not isinstance(r, BaseException) for rid in r]
    for result, proposals in zip(results, passes, strict=True):
        assert not isinstance(result, BaseException)
        assert set(result) <= {p.request_id for p in proposals}
    pending = await stores[1].pending_matches(game)
    assert sorted(p.request_id for p in pending) == sorted(claimed)
    owners: dict[str, str] = {}
    for p in pending:
        assert len(p.tickets) == 2
        for ticket_id in p.tickets:
            assert ticket_id not in owners, (ticket_id, owners.get(ticket_id), p.request_id)
            owners[ticket_id] = p.request_id
    for ticket_id in tickets:
        ticket = await stores[0].get_ticket(ticket_id)
        if ticket_id in owners:
            assert (ticket.state, ticket.match_request) == ("matching", owners[ticket_id])
        else:
            assert (ticket.state, ticket.match_request) == ("queued", None)
    return len(owners)


async def test_concurrent_claims_never_share_a_ticket(store_dsn: str) -> None:
    stores = [await open_store(store_dsn) for _ in range(2)]
    try:
        # Overlapping pairs over the same tickets, proposed in opposite orders by the two passes.
        tickets = [f"t{i:02d}" for i in range(16)]
        for i, ticket_id in enumerate(tickets):
            await stores[0].enqueue_ticket(new_ticket(ticket_id, f"player{i}", at=float(i)))
        pairs = [(tickets[i], tickets[(i + 1) % 16]) for i in range(16)]
        pairs += [(tickets[i], tickets[(i + 5) % 16]) for i in range(16)]
        first = [proposal(f"A{n}", *pair) for n, pair in enumerate(pairs)]
        second = [proposal(f"B{n}", *pair) for n, pair in enumerate(reversed(pairs))]
        # Greedy claiming of overlapping pairs leaves at most one pair's worth of tickets unclaimed.
        assert await _race_claims(stores, GAME, [first, second], tickets) >= 14

        # Partly overlapping ticket sets in another game: each pass may win some of its matches.
        other = "grimslingers"
        tickets = [f"u{i:02d}" for i in range(24)]
        for i, ticket_id in enumerate(tickets):
            await stores[1].enqueue_ticket(new_ticket(ticket_id, f"player{i}", game=other, at=float(i)))
        left = [proposal(f"L{i}", tickets[i], tickets[i + 1]) for i in range(0, 16, 2)]
        right = [proposal(f"R{i}", tickets[i], tickets[i - 1]) for i in range(23, 8, -2)]
        assert await _race_claims(stores, other, [left, right], tickets) >= 16
    finally:
        for store in stores:
            await store.close()


async def test_concurrent_enqueues_of_one_player(store_dsn: str) -> None:
    stores = [await open_store(store_dsn) for _ in range(2)]
    try:
        for round_no in range(5):
            game = f"game-{round_no}"
            results = await asyncio.gather(
                stores[0].enqueue_ticket(new_ticket(f"{game}-a", "alice", "bob", game=game)),
                stores[1].enqueue_ticket(new_ticket(f"{game}-b", "carol", "alice", game=game)),
                return_exceptions=True,
            )
            winners = [r for r in results if isinstance(r, QueueTicket)]
            losers = [r for r in results if not isinstance(r, QueueTicket)]
            assert len(winners) == 1 and len(losers) == 1, results
            assert isinstance(losers[0], AlreadyQueued)
            assert (losers[0].account, losers[0].ticket_id) == ("alice", winners[0].id)
            assert [t.id for t in await stores[0].tickets_of("alice", game=game)] == [winners[0].id]
            loser_only = "carol" if winners[0].id.endswith("-a") else "bob"
            assert await stores[1].tickets_of(loser_only, game=game) == []
    finally:
        for store in stores:
            await store.close()


# ----------------------------------------------------------------- settling
async def test_settle_a_match(store: Store) -> None:
    await store.enqueue_ticket(new_ticket("t1", "alice", "bob", at=1.0))
    await store.enqueue_ticket(new_ticket("t2", "carol", at=2.0))
    await store.claim_tickets(GAME, [proposal("r1", "t1", "t2")])
    closed = await store.settle_match("r1", "m1", {"t1": [0, 2], "t2": [1]}, outbox=[msg("settled-r1")])
    assert [(t.id, t.state, t.match_id, t.seats) for t in closed] == [
        ("t1", "matched", "m1", (0, 2)),
        ("t2", "matched", "m1", (1,)),
    ]
    assert all(t.closed_at is not None and t.match_request == "r1" for t in closed)
    assert closed == [await store.get_ticket("t1"), await store.get_ticket("t2")]
    assert await store.pending_matches(GAME) == []
    assert await outbox_ids(store) == ["settled-r1"]
    # A second settle (a retry) changes nothing and writes no event.
    assert await store.settle_match("r1", None, {}, outbox=[msg("settled-r1-again")]) == []
    assert closed == [await store.get_ticket("t1"), await store.get_ticket("t2")]
    assert await outbox_ids(store) == ["settled-r1"]
    assert await store.settle_match("never-claimed", "m9", {}) == []
    # The players are free to queue again.
    for i, player in enumerate(("alice", "bob", "carol")):
        await store.enqueue_ticket(new_ticket(f"again-{i}", player))
    with pytest.raises(TicketNotOpen):
        await store.cancel_ticket("t1")


async def test_a_refused_match_cancels_its_tickets(store: Store) -> None:
    await store.enqueue_ticket(new_ticket("t1", "alice"))
    await store.enqueue_ticket(new_ticket("t2", "bob"))
    await store.enqueue_ticket(new_ticket("t3", "carol"))
    await store.claim_tickets(GAME, [proposal("r1", "t1", "t2"), proposal("r2", "t3")])
    closed = await store.settle_match("r1", None, {"t1": [0]})
    assert [(t.id, t.state, t.match_id, t.seats) for t in closed] == [
        ("t1", "cancelled", None, (0,)),
        ("t2", "cancelled", None, ()),
    ]
    assert all(t.closed_at is not None for t in closed)
    assert [p.request_id for p in await store.pending_matches(GAME)] == ["r2"]
    assert (await store.get_ticket("t3")).state == "matching"
    assert (await store.enqueue_ticket(new_ticket("t4", "alice", "bob"))).state == "queued"
    with pytest.raises(AlreadyQueued):
        await store.enqueue_ticket(new_ticket("t5", "carol"))


async def test_a_settle_whose_outbox_fails_changes_nothing(store: Store) -> None:
    await store.enqueue([msg("taken")])
    await store.enqueue_ticket(new_ticket("t1", "alice"))
    await store.claim_tickets(GAME, [proposal("r1", "t1")])
    before = await store.get_ticket("t1")
    with pytest.raises(AlreadyExists):
        await store.settle_match("r1", "m1", {"t1": [0]}, outbox=[msg("fresh"), msg("taken")])
    assert await store.get_ticket("t1") == before
    assert [p.request_id for p in await store.pending_matches(GAME)] == ["r1"]
    assert await outbox_ids(store) == ["taken"]
    with pytest.raises(AlreadyQueued):
        await store.enqueue_ticket(new_ticket("t2", "alice"))
    assert len(await store.settle_match("r1", "m1", {"t1": [0]}, outbox=[msg("fresh")])) == 1
    assert await outbox_ids(store) == ["taken", "fresh"]


async def test_concurrent_settles_close_once(store_dsn: str) -> None:
    stores = [await open_store(store_dsn) for _ in range(2)]
    try:
        await stores[0].enqueue_ticket(new_ticket("t1", "alice"))
        await stores[0].claim_tickets(GAME, [proposal("r1", "t1")])
        results = await asyncio.gather(
            stores[0].settle_match("r1", "m1", {"t1": [0]}, outbox=[msg("one")]),
            stores[1].settle_match("r1", "m2", {"t1": [1]}, outbox=[msg("two")]),
        )
        assert sorted(len(r) for r in results) == [0, 1]
        winner = next(r for r in results if r)[0]
        assert await stores[1].get_ticket("t1") == winner
        assert len(await outbox_ids(stores[0])) == 1
    finally:
        for store in stores:
            await store.close()


# ----------------------------------------------------------------- purging
async def test_purge_closed_tickets(clocked: tuple[Store, Clock]) -> None:
    store, clock = clocked
    for name in ("a", "b", "c", "d", "e"):
        await store.enqueue_ticket(new_ticket(name, f"player-{name}", by="coach"))
    await store.cancel_ticket("a")
    await store.claim_tickets(GAME, [proposal("r1", "b"), proposal("r2", "d")])
    await store.settle_match("r1", "m1", {"b": [0]})
    cutoff = clock.advance(10)
    await store.cancel_ticket("c")  # closed at the cutoff: kept
    # d is matching and e queued: open tickets are never purged.
    assert await store.purge_closed_tickets(cutoff - timedelta(days=1)) == 0
    assert await store.purge_closed_tickets(cutoff) == 2
    for purged in ("a", "b"):
        with pytest.raises(NotFound):
            await store.get_ticket(purged)
    assert await states(store, "c", "d", "e") == {"c": "cancelled", "d": "matching", "e": "queued"}
    assert [t.id for t in await store.tickets_of("coach")] == ["e", "d", "c"]
    async with store._read() as tx:  # the purged tickets' account rows went with them
        rows = await tx.fetch("SELECT DISTINCT ticket_id FROM mm_ticket_accounts ORDER BY ticket_id")
    assert [r["ticket_id"] for r in rows] == ["c", "d", "e"]
    # Still guarded: the open tickets keep their players; the purged ones' players are free.
    with pytest.raises(AlreadyQueued):
        await store.enqueue_ticket(new_ticket("e2", "player-e"))
    await store.enqueue_ticket(new_ticket("a2", "player-a"))
    assert await store.purge_closed_tickets(clock.advance(1)) == 1
    assert len(await store.settle_match("r2", None, {})) == 1


# ----------------------------------------------------------------- property
PLAYERS = [f"p{i}" for i in range(4)]
GAMES = ("g-a", "g-b")

# Indexes are taken modulo what exists when the step runs (the last slot naming an unknown ticket), so that
# most steps act on real tickets and pending matches.
enqueue_step = st.tuples(
    st.just("enqueue"),
    st.sampled_from(GAMES),
    st.lists(st.sampled_from(PLAYERS), min_size=1, max_size=2),
    st.sampled_from([*PLAYERS, "coach"]),  # the submitter: often not one of the players
)
cancel_step = st.tuples(st.just("cancel"), st.integers(0, 30))
claim_step = st.tuples(
    st.just("claim"),
    st.sampled_from(["own", "own", "own", "other"]),  # the game of the first ticket, or the other game
    st.lists(st.lists(st.integers(0, 30), min_size=1, max_size=2), min_size=1, max_size=3),
)
settle_step = st.tuples(st.just("settle"), st.integers(0, 30), st.booleans())
operations = st.lists(
    st.one_of(enqueue_step, enqueue_step, cancel_step, claim_step, claim_step, settle_step), min_size=10, max_size=40
)
_examples = itertools.count()


async def _check_invariants(store: Store, prefix: str, known: list[str]) -> None:
    tickets = [await store.get_ticket(ticket_id) for ticket_id in known]
    for game in (f"{prefix}{g}" for g in GAMES):
        open_players = [p for t in tickets if t.game == game and t.state in ("queued", "matching") for p in t.players]
        assert len(open_players) == len(set(open_players)), (game, open_players)
    owners: dict[str, list[str]] = {}
    for game in GAMES:
        for pending in await store.pending_matches(f"{prefix}{game}"):
            for ticket_id in pending.tickets:
                owners.setdefault(ticket_id, []).append(pending.request_id)
    for t in tickets:
        if t.state == "matching":
            assert owners.get(t.id, []) == [t.match_request], (t.id, owners.get(t.id))
        else:
            assert t.id not in owners, t.id
        assert (t.closed_at is not None) == (t.state in ("matched", "cancelled")), t
        if t.state == "queued":
            assert t.match_request is None


@settings(max_examples=30, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=operations)
async def test_random_queue_histories_keep_the_invariants(store: Store, ops: list[tuple[Any, ...]]) -> None:
    prefix = f"x{next(_examples)}-"  # examples share the store: a fresh namespace for each
    missing = f"{prefix}missing"
    tickets: list[str] = []
    model: dict[str, tuple[str, str, tuple[str, ...]]] = {}  # ticket -> (game, state, players)
    pending: list[tuple[str, list[str]]] = []  # (request id, its tickets) in claim order
    settled: list[str] = []
    requests = itertools.count()

    def pick(index: int) -> str:
        index %= len(tickets) + 1
        return tickets[index] if index < len(tickets) else missing

    for op in ops:
        if op[0] == "enqueue":
            game, players, by = f"{prefix}{op[1]}", tuple(op[2]), op[3]
            ticket_id = f"{prefix}t{len(tickets)}"
            busy = sorted(
                p
                for g, state, members in model.values()
                if g == game and state in ("queued", "matching")
                for p in members
                if p in players
            )
            try:
                await store.enqueue_ticket(new_ticket(ticket_id, *players, game=game, at=len(tickets) % 4, by=by))
            except AlreadyQueued as refused:
                assert busy and refused.account == busy[0], (busy, refused)
                continue
            assert not busy, busy
            tickets.append(ticket_id)
            model[ticket_id] = (game, "queued", tuple(sorted(set(players))))
        elif op[0] == "cancel":
            ticket_id = pick(op[1])
            try:
                await store.cancel_ticket(ticket_id)
            except NotFound:
                assert ticket_id not in model
                continue
            except TicketNotOpen:
                assert model[ticket_id][1] != "queued"
                continue
            game, state, members = model[ticket_id]
            assert state == "queued"
            model[ticket_id] = (game, "cancelled", members)
        elif op[0] == "claim":
            first = pick(op[2][0][0])
            game = model[first][0] if first in model else f"{prefix}{GAMES[0]}"
            if op[1] == "other":
                game = f"{prefix}{GAMES[1]}" if game == f"{prefix}{GAMES[0]}" else f"{prefix}{GAMES[0]}"
            proposals = []
            expected: list[str] = []
            taken: set[str] = set()
            for wanted in op[2]:
                request_id = f"{prefix}r{next(requests)}"
                ids = [pick(i) for i in wanted]
                proposals.append(proposal(request_id, *ids))
                unique = set(ids)
                if all(i in model and model[i][0] == game and model[i][1] == "queued" for i in unique) and not (
                    unique & taken
                ):
                    expected.append(request_id)
                    taken |= unique
                    pending.append((request_id, sorted(unique)))
            assert await store.claim_tickets(game, proposals) == expected
            for ticket_id in taken:
                g, _, members = model[ticket_id]
                model[ticket_id] = (g, "matching", members)
        else:
            if not pending:
                stale = settled[op[1] % len(settled)] if settled else f"{prefix}r-unknown"
                assert await store.settle_match(stale, "late", {}) == []
                continue
            request_id, ids = pending.pop(op[1] % len(pending))
            matched = op[2]
            closed = await store.settle_match(request_id, f"m-{request_id}" if matched else None, {})
            assert [(t.id, t.state) for t in closed] == [(i, "matched" if matched else "cancelled") for i in ids]
            settled.append(request_id)
            for ticket_id in ids:
                g, _, members = model[ticket_id]
                model[ticket_id] = (g, "matched" if matched else "cancelled", members)

    for ticket_id in tickets:
        ticket = await store.get_ticket(ticket_id)
        assert (ticket.game, ticket.state, ticket.players) == model[ticket_id]
    assert {p.request_id for g in GAMES for p in await store.pending_matches(f"{prefix}{g}")} == {r for r, _ in pending}
    await _check_invariants(store, prefix, tickets)
