"""Tournaments: the state document changed by revision compare-and-swap, the matches linked to pairings,
and the inbox of their results, folded into the document by the update that consumes them."""

from __future__ import annotations

import asyncio

import pytest

from gamehall.store import (
    AlreadyExists,
    InvalidArgument,
    NewTournament,
    NotFound,
    OutboxMessage,
    RevisionConflict,
    Store,
    TournamentRow,
    open_store,
)
from tests.integration.store.helpers import Clock


def new(tournament_id: str, status: str = "registering", doc: bytes = b"doc-v1") -> NewTournament:
    return NewTournament(
        id=tournament_id,
        name=f"The {tournament_id} cup",
        game="grimmoir",
        mode="duel",
        format="swiss",
        status=status,
        doc=doc,
        created_by="operator",
    )


def msg(msg_id: str) -> OutboxMessage:
    return OutboxMessage(subject="gamehall.v1.tournament", msg_id=msg_id, payload=msg_id.encode())


async def outbox_ids(store: Store) -> list[str]:
    return [r.msg_id for r in await store.pending_outbox(limit=1000)]


async def current(store: Store, tournament_id: str) -> TournamentRow:
    row = await store.get_tournament(tournament_id)
    assert row is not None
    return row


async def unfolded(store: Store, tournament_id: str) -> list[str]:
    return [r.match_id for r in await store.unfolded_results(tournament_id)]


# ----------------------------------------------------------------- the document
async def test_create_and_get(store: Store) -> None:
    doc = bytes(range(256))
    created = await store.create_tournament(new("t1", doc=doc), outbox=[msg("created-t1")])
    assert (created.id, created.name, created.game, created.mode, created.format, created.status) == (
        "t1",
        "The t1 cup",
        "grimmoir",
        "duel",
        "swiss",
        "registering",
    )
    assert (created.revision, created.doc, created.created_by) == (1, doc, "operator")
    assert created.created_at == created.updated_at and created.created_at.tzinfo is not None
    assert await store.get_tournament("t1") == created
    assert await outbox_ids(store) == ["created-t1"]
    with pytest.raises(NotFound):
        await store.get_tournament("nope")


async def test_bad_or_duplicate_creations_write_nothing(store: Store) -> None:
    created = await store.create_tournament(new("t1"))
    with pytest.raises(AlreadyExists):
        await store.create_tournament(new("t1", status="running", doc=b"other"), outbox=[msg("dup")])
    assert await store.get_tournament("t1") == created
    for bad in (new(""), new("t2", doc=b"")):
        with pytest.raises(InvalidArgument):
            await store.create_tournament(bad, outbox=[msg("bad")])
    await store.enqueue([msg("taken")])
    with pytest.raises(AlreadyExists):  # the outbox insert fails: the tournament must not exist
        await store.create_tournament(new("t3"), outbox=[msg("taken")])
    with pytest.raises(NotFound):
        await store.get_tournament("t3")
    assert [t.id for t in await store.list_tournaments()] == ["t1"]
    assert await outbox_ids(store) == ["taken"]


async def test_updates_compare_and_swap_the_revision(store: Store) -> None:
    await store.create_tournament(new("t1"))
    second = await store.update_tournament("t1", 1, b"doc-v2", "running", outbox=[msg("t1@2")])
    assert (second.revision, second.doc, second.status) == (2, b"doc-v2", "running")
    assert second.updated_at >= second.created_at
    assert await store.get_tournament("t1") == second
    for stale in (1, 3, 0):
        with pytest.raises(RevisionConflict, match="revision 2") as conflict:
            await store.update_tournament("t1", stale, b"lost", "finished", outbox=[msg(f"lost@{stale}")])
        assert conflict.value.grpc_status == "ABORTED"
    assert await store.get_tournament("t1") == second
    assert await outbox_ids(store) == ["t1@2"]
    third = await store.update_tournament("t1", 2, b"doc-v3", "finished")
    assert (third.revision, third.doc, third.status) == (3, b"doc-v3", "finished")
    with pytest.raises(NotFound):
        await store.update_tournament("ghost", 1, b"x", "running")


async def test_an_update_whose_outbox_fails_changes_nothing(store: Store) -> None:
    created = await store.create_tournament(new("t1"))
    await store.link_tournament_match("t1", 1, "p1", "m1")
    await store.record_tournament_result("m1", [1, 2], "finished")
    await store.enqueue([msg("taken")])
    with pytest.raises(AlreadyExists):
        await store.update_tournament("t1", 1, b"doc-v2", "running", folded=["m1"], outbox=[msg("taken")])
    assert await store.get_tournament("t1") == created
    assert await unfolded(store, "t1") == ["m1"]


async def test_newer_than_polls_for_changes(store: Store) -> None:
    await store.create_tournament(new("t1"))
    assert (await current(store, "t1")).revision == 1
    assert await store.get_tournament("t1", newer_than=1) is None
    assert await store.get_tournament("t1", newer_than=5) is None
    assert (await store.get_tournament("t1", newer_than=0)) == await current(store, "t1")
    await store.update_tournament("t1", 1, b"doc-v2", "running")
    changed = await store.get_tournament("t1", newer_than=1)
    assert changed is not None and (changed.revision, changed.doc) == (2, b"doc-v2")
    assert await store.get_tournament("t1", newer_than=2) is None
    with pytest.raises(NotFound):
        await store.get_tournament("ghost", newer_than=1)


async def test_list_filters(clocked: tuple[Store, Clock]) -> None:
    store, clock = clocked
    for tournament_id, status in (("a", "registering"), ("b", "running"), ("c", "finished"), ("d", "running")):
        clock.advance(1)
        await store.create_tournament(new(tournament_id, status=status, doc=f"doc-{tournament_id}".encode()))
    await store.create_tournament(new("e", status="running"))  # same instant as d: ties go by id
    clock.advance(1)
    await store.update_tournament("a", 1, b"doc-a2", "running")  # updating does not reorder

    listed = await store.list_tournaments()
    assert [t.id for t in listed] == ["d", "e", "c", "b", "a"]
    assert listed == [await current(store, t.id) for t in listed]
    assert [t.id for t in await store.list_tournaments(statuses=["running"])] == ["d", "e", "b", "a"]
    assert [t.id for t in await store.list_tournaments(statuses=["finished", "registering"])] == ["c"]
    assert await store.list_tournaments(statuses=["cancelled"]) == []
    assert [t.id for t in await store.list_tournaments(limit=2)] == ["d", "e"]

    summaries = await store.list_tournaments(with_docs=False)
    assert [t.id for t in summaries] == ["d", "e", "c", "b", "a"]
    assert all(t.doc == b"" for t in summaries)
    for summary, full in zip(summaries, listed, strict=True):
        assert summary == TournamentRow(**{**{f: getattr(full, f) for f in full.__struct_fields__}, "doc": b""})
    assert [t.id for t in await store.list_tournaments(statuses=["running"], with_docs=False, limit=1)] == ["d"]
    for bad in (0, 1001):
        with pytest.raises(InvalidArgument):
            await store.list_tournaments(limit=bad)


async def test_concurrent_updates_have_one_winner_per_revision(store_dsn: str) -> None:
    stores = [await open_store(store_dsn) for _ in range(2)]
    try:
        await stores[0].create_tournament(new("t1"))
        await stores[0].link_tournament_match("t1", 1, "p1", "m1")
        await stores[0].record_tournament_result("m1", [2, 1], "finished")
        for revision in range(1, 6):
            results = await asyncio.gather(
                *(
                    stores[i].update_tournament(
                        "t1", revision, f"doc-{revision}-by-{i}".encode(), "running", folded=["m1"]
                    )
                    for i in range(2)
                ),
                return_exceptions=True,
            )
            winners = [r for r in results if not isinstance(r, BaseException)]
            losers = [r for r in results if isinstance(r, BaseException)]
            assert len(winners) == 1 and len(losers) == 1, results
            assert isinstance(losers[0], RevisionConflict)
            assert winners[0].revision == revision + 1
            assert await stores[1 - revision % 2].get_tournament("t1") == winners[0]
        assert (await current(stores[0], "t1")).revision == 6
        assert await stores[0].unfolded_results("t1") == []
    finally:
        for store in stores:
            await store.close()


# ----------------------------------------------------------------- pairings' matches
async def test_linking_matches_to_pairings(clocked: tuple[Store, Clock]) -> None:
    store, clock = clocked
    await store.create_tournament(new("t1"))
    await store.create_tournament(new("t2"))
    first = await store.link_tournament_match("t1", 1, "p1", "m-b")
    assert (first.match_id, first.tournament_id, first.round, first.pairing_id) == ("m-b", "t1", 1, "p1")
    assert first.created_at.tzinfo is not None
    clock.advance(5)
    assert await store.link_tournament_match("t1", 1, "p1", "m-b") == first  # idempotent: the first link stays
    for tournament_id, round_no, pairing_id in (("t1", 1, "p2"), ("t1", 2, "p1"), ("t2", 1, "p1")):
        with pytest.raises(AlreadyExists, match="m-b"):
            await store.link_tournament_match(tournament_id, round_no, pairing_id, "m-b")
    assert await store.tournament_match("m-b") == first
    await store.link_tournament_match("t1", 1, "p2", "m-a")
    clock.advance(5)
    await store.link_tournament_match("t1", 1, "p1", "m-c")  # the pairing replayed by another match
    await store.link_tournament_match("t1", 2, "p3", "m-d")
    await store.link_tournament_match("t2", 1, "p1", "m-e")
    round_one = await store.tournament_matches("t1", 1)
    assert [(m.match_id, m.pairing_id) for m in round_one] == [("m-b", "p1"), ("m-a", "p2"), ("m-c", "p1")]
    assert [m.match_id for m in await store.tournament_matches("t1", 2)] == ["m-d"]
    assert [m.match_id for m in await store.tournament_matches("t2", 1)] == ["m-e"]
    assert await store.tournament_matches("t1", 3) == []
    assert await store.tournament_match("unlinked") is None
    with pytest.raises(NotFound):
        await store.link_tournament_match("ghost", 1, "p1", "m-x")
    assert await store.tournament_match("m-x") is None


async def test_concurrent_links_of_one_match(store_dsn: str) -> None:
    stores = [await open_store(store_dsn) for _ in range(2)]
    try:
        await stores[0].create_tournament(new("t1"))
        results = await asyncio.gather(
            stores[0].link_tournament_match("t1", 1, "p1", "m1"),
            stores[1].link_tournament_match("t1", 1, "p2", "m1"),
            return_exceptions=True,
        )
        winners = [r for r in results if not isinstance(r, BaseException)]
        losers = [r for r in results if isinstance(r, BaseException)]
        assert len(winners) == 1 and len(losers) == 1, results
        assert isinstance(losers[0], AlreadyExists)
        assert await stores[1].tournament_match("m1") == winners[0]
        same = await asyncio.gather(*(s.link_tournament_match("t1", 1, "p9", "m2") for s in stores))
        assert same[0] == same[1]
    finally:
        for store in stores:
            await store.close()


# ----------------------------------------------------------------- the results inbox
async def test_results_are_recorded_once(clocked: tuple[Store, Clock]) -> None:
    store, clock = clocked
    await store.create_tournament(new("t1"))
    await store.link_tournament_match("t1", 2, "p7", "m1")
    await store.link_tournament_match("t1", 2, "p8", "m0")
    first = await store.record_tournament_result("m1", [2, 1], "finished")
    assert first is not None
    assert (first.match_id, first.tournament_id, first.pairing_id, first.round) == ("m1", "t1", "p7", 2)
    assert (first.ranks, first.reason) == ((2, 1), "finished")
    assert first.recorded_at.tzinfo is not None
    clock.advance(1)
    assert await store.record_tournament_result("m1", [1, 2], "forfeit") == first  # unchanged
    assert await store.record_tournament_result("m0", [1, 1], "draw") is not None
    assert await store.record_tournament_result("not-a-tournament-match", [1, 2], "finished") is None
    assert await unfolded(store, "t1") == ["m1", "m0"]  # arrival order
    assert [r.ranks for r in await store.unfolded_results("t1")] == [(2, 1), (1, 1)]
    assert len(await store.unfolded_results("t1", limit=1)) == 1
    assert await store.unfolded_results("t2") == []


async def test_folding_happens_with_a_successful_update_only(store: Store) -> None:
    await store.create_tournament(new("t1"))
    await store.create_tournament(new("t2"))
    for match_id in ("m1", "m2", "m3"):
        await store.link_tournament_match("t1", 1, f"p-{match_id}", match_id)
        await store.record_tournament_result(match_id, [1, 2], "finished")
    await store.link_tournament_match("t2", 1, "p-x", "x1")
    await store.record_tournament_result("x1", [1, 2], "finished")

    with pytest.raises(RevisionConflict):
        await store.update_tournament("t1", 7, b"stale", "running", folded=["m1", "m2"])
    assert await unfolded(store, "t1") == ["m1", "m2", "m3"]

    # Another tournament's result and unknown ids are not folded by t1's update.
    await store.update_tournament("t1", 1, b"doc-v2", "running", folded=["m1", "m2", "x1", "ghost"])
    assert await unfolded(store, "t1") == ["m3"]
    assert await unfolded(store, "t2") == ["x1"]
    # Folding again is harmless; a result recorded again after folding stays folded.
    again = await store.record_tournament_result("m1", [2, 1], "late")
    assert again is not None and again.ranks == (1, 2)
    await store.update_tournament("t1", 2, b"doc-v3", "running", folded=["m1", "m3"])
    assert await store.unfolded_results("t1") == []
    assert (await current(store, "t1")).revision == 3
    assert await unfolded(store, "t2") == ["x1"]


async def test_folding_many_results_at_once(store: Store) -> None:
    await store.create_tournament(new("t1"))
    ids = [f"m{i:04d}" for i in range(1200)]
    for i, match_id in enumerate(ids):
        await store.link_tournament_match("t1", 1 + i // 600, f"p{i}", match_id)
    for match_id in ids[:1100]:
        await store.record_tournament_result(match_id, [1, 2], "finished")
    assert len(await store.unfolded_results("t1")) == 1100
    await store.update_tournament("t1", 1, b"doc-v2", "running", folded=ids[:1050])
    assert await unfolded(store, "t1") == ids[1050:1100]
