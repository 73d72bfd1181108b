"""Tournament results through the real persistence service: a finished match's outcome goes to the
tournament's inbox and the driver folds it into the document: ranks once, clock forfeits, knockout draws,
stale results after a re-pairing ignored, results while paused kept until the tournament resumes."""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
import pytest

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.tournaments import Pairing, machine
from gamehall_sdk.v1 import match_pb2
from gamehall_services.matchmaking.documents import link_key
from gamehall_services.matchmaking.store_client import MatchmakingStore
from gamehall_services.matchmaking.tournaments import Tournaments
from tests.integration.matchmaking_service.conftest import Persistence
from tests.integration.matchmaking_service.fakes import FakeCreator, rpc_error

pytestmark = pytest.mark.integration

NOW = 1_000_000.0
GAME, MODE = "high-card", "duel"
PLAYERS = ("a", "b", "c", "d")  # seeds 1..4 (ratings 10, 9, 8, 7)


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


def _book(store: MatchmakingStore, clock: Clock | None = None) -> tuple[Tournaments, FakeCreator]:
    clock = clock or Clock()
    creator = FakeCreator(clock=clock)
    return Tournaments(store, creator, clock=clock), creator  # type: ignore[arg-type]


async def _transition(book: Tournaments, tournament_id: str, kind: str, step: Any, *args: Any) -> int:
    def apply(doc: Any) -> None:
        doc.tournament = step(doc.tournament, *args)

    return (await book.change(tournament_id, kind, apply))[1]


async def _running(book: Tournaments, fmt: str = "swiss") -> str:
    doc, revision = await book.create(
        name="cup",
        game=GAME,
        mode=MODE,
        format=fmt,
        rounds=0,
        seats=2,
        opens=0.0,
        closes=NOW + 3600,
        max_players=0,
        check_in=False,
        no_show_s=120.0,
        clock={},
        created_by="op",
    )
    assert revision == 1
    tournament_id = doc.tournament.id
    for k, player in enumerate(PLAYERS):
        await _transition(book, tournament_id, "registered", machine.register, player, 10.0 - k, NOW)
    await _transition(book, tournament_id, "started", machine.start, NOW)
    return tournament_id


async def _pairings(book: Tournaments, tournament_id: str) -> list[Pairing]:
    return machine.round_pairings((await book.get(tournament_id))[0].tournament)


async def _pairing(book: Tournaments, tournament_id: str, pairing_id: str) -> Pairing:
    """A pairing of any round, as stored now."""
    return next(p for p in (await book.get(tournament_id))[0].tournament.pairings if p.id == pairing_id)


async def _match_of(book: Tournaments, tournament_id: str, pairing: Pairing) -> str:
    return (await book.match_ids(tournament_id, pairing.round))[link_key(pairing)]


async def _finish(book: Tournaments, match_id: str, ranks: list[int], reason: str = "") -> bool:
    return await book.on_match_closed(ppb.MatchRecord(id=match_id), ranks, reason)


async def test_ranks_are_recorded_once(store: MatchmakingStore) -> None:
    book, creator = _book(store)
    tid = await _running(book)
    await book.drive(tid)  # a match per pairing
    first, second = await _pairings(book, tid)
    assert len(creator.created) == 2 and creator.calls == 2
    match_id = await _match_of(book, tid, first)
    assert await _finish(book, match_id, [2, 1])
    assert [r.match_id for r in await store.unfolded(tid)] == [match_id]
    await book.drive(tid)
    recorded = await _pairing(book, tid, first.id)
    assert recorded.result is not None and recorded.result.ranks == (2, 1)
    assert await store.unfolded(tid) == []
    revision = (await book.get(tid))[1]

    assert await _finish(book, match_id, [2, 1])  # the same outcome delivered again
    assert await _finish(book, match_id, [1, 2])  # or another one for the same match: the first stands
    assert await store.unfolded(tid) == []
    await book.drive(tid)
    assert (await book.get(tid))[1] == revision  # nothing written
    again = await _pairing(book, tid, first.id)
    assert again.result is not None and again.result.ranks == (2, 1)
    assert (await _pairing(book, tid, second.id)).result is None
    assert creator.calls == 2  # no second match for either pairing


async def test_a_result_for_a_match_of_no_tournament_is_ignored(store: MatchmakingStore) -> None:
    book, _ = _book(store)
    tid = await _running(book)
    await book.drive(tid)
    revision = (await book.get(tid))[1]
    assert not await _finish(book, "not-this-one", [1, 2])
    assert await store.unfolded(tid) == []
    await book.drive(tid)
    assert (await book.get(tid))[1] == revision
    assert all(p.result is None for p in await _pairings(book, tid))


async def test_a_clock_forfeit_names_the_seat_that_ran_out(store: MatchmakingStore) -> None:
    book, _ = _book(store)
    tid = await _running(book)
    await book.drive(tid)
    pairing = (await _pairings(book, tid))[1]
    await _finish(book, await _match_of(book, tid, pairing), [1, 2], "forfeit: seat 1 ran out of time")
    await book.drive(tid)
    result = (await _pairing(book, tid, pairing.id)).result
    assert result is not None and result.reason == "clock"
    assert result.forfeited == (pairing.players[1],)
    assert result.ranks == (1, 2)


async def test_a_drawn_knockout_game_sends_the_better_seed_through(store: MatchmakingStore) -> None:
    book, creator = _book(store)
    tid = await _running(book, "single-elimination")
    await book.drive(tid)
    top, bottom = await _pairings(book, tid)
    assert top.players == ["a", "d"] and bottom.players == ["b", "c"]
    await _finish(book, await _match_of(book, tid, top), [2, 1])  # d knocks a out
    await _finish(book, await _match_of(book, tid, bottom), [1, 1])  # drawn: b (seed 2) beats c (seed 3)
    await book.drive(tid)  # folds both, pairs the final and starts its match
    doc, _ = await book.get(tid)
    drawn = await _pairing(book, tid, bottom.id)
    assert drawn.result is not None and drawn.result.ranks == (1, 2)
    assert doc.tournament.round == 2
    (final,) = machine.current_pairings(doc.tournament)
    assert final.players == ["d", "b"]  # the worse seed sits first: the draw is not decided by seat
    assert len(creator.created) == 3
    await _finish(book, await _match_of(book, tid, final), [1, 1])
    await book.drive(tid)
    doc, _ = await book.get(tid)
    decided = await _pairing(book, tid, final.id)
    assert decided.result is not None and decided.result.ranks == (2, 1)  # b through
    assert doc.tournament.status == "finished"


async def test_a_result_of_a_match_re_paired_away_is_ignored(store: MatchmakingStore) -> None:
    book, creator = _book(store)
    tid = await _running(book)
    await book.drive(tid)
    old_top, old_bottom = await _pairings(book, tid)
    assert (old_top.players, old_bottom.players) == (["a", "c"], ["d", "b"])
    stale_top, stale_bottom = await _match_of(book, tid, old_top), await _match_of(book, tid, old_bottom)
    await _transition(book, tid, "dropped", machine.drop, "d")
    await _transition(book, tid, "repaired", machine.repair)
    top = await _pairing(book, tid, old_top.id)
    assert top.players == ["a", "b"]  # the same pairing id, other players

    # the old matches finish after the re-pairing: their results must not count for the new pairings
    assert await _finish(book, stale_top, [1, 2])
    assert await _finish(book, stale_bottom, [2, 1])
    await book.drive(tid)
    assert await store.unfolded(tid) == []  # looked at, and dropped
    assert (await _pairing(book, tid, top.id)).result is None
    fresh = await _match_of(book, tid, top)
    assert fresh not in (stale_top, stale_bottom) and len(creator.created) == 3
    assert (await book.get(tid))[0].tournament.round == 1

    await _finish(book, fresh, [2, 1])
    await book.drive(tid)
    result = (await _pairing(book, tid, top.id)).result
    assert result is not None and result.ranks == (2, 1)


async def test_results_while_paused_wait_in_the_inbox_until_resumed(store: MatchmakingStore) -> None:
    book, _ = _book(store)
    tid = await _running(book)
    await book.drive(tid)
    first, second = await _pairings(book, tid)
    seen_running = await book.get(tid)  # what a driver read a moment before the pause
    await _transition(book, tid, "paused", machine.pause)
    match_id = await _match_of(book, tid, first)
    assert await _finish(book, match_id, [2, 1])
    revision = (await book.get(tid))[1]
    await book.drive(tid)
    inbox = await store.unfolded(tid)
    assert [r.match_id for r in inbox] == [match_id]
    # a driver that saw it running a moment before the pause folds nothing either
    await book._fold(*seen_running, inbox)
    assert (await book.get(tid))[1] == revision
    assert [r.match_id for r in await store.unfolded(tid)] == [match_id]
    assert (await _pairing(book, tid, first.id)).result is None

    await _transition(book, tid, "resumed", machine.resume)
    await book.drive(tid)
    assert await store.unfolded(tid) == []
    result = (await _pairing(book, tid, first.id)).result
    assert result is not None and result.ranks == (2, 1)
    assert (await _pairing(book, tid, second.id)).result is None


async def test_players_who_never_join_forfeit_and_the_match_is_aborted(store: MatchmakingStore) -> None:
    clock = Clock()
    book, creator = _book(store, clock)
    tid = await _running(book)
    await book.drive(tid)
    first, second = await _pairings(book, tid)
    joined = creator.match(await _match_of(book, tid, first))
    joined.seats[0].kind = match_pb2.SEAT_KIND_HUMAN  # first.players[0] sat down; first.players[1] never came
    clock.now = NOW + 60
    await book.drive(tid)  # not late yet
    assert all(p.result is None for p in await _pairings(book, tid)) and creator.aborted == []
    clock.now = NOW + 121
    await book.drive(tid)
    one, both = await _pairing(book, tid, first.id), await _pairing(book, tid, second.id)
    assert one.result is not None and one.result.reason == "no-show"
    assert one.result.forfeited == (first.players[1],) and one.result.ranks == (1, 2)
    assert both.result is not None and set(both.result.forfeited) == set(second.players)
    assert sorted(m for m, _ in creator.aborted) == sorted(
        [await _match_of(book, tid, first), await _match_of(book, tid, second)]
    )


async def test_two_drivers_at_once_make_one_match_per_pairing_and_one_next_round(persistence: Persistence) -> None:
    clock = Clock()
    creator = FakeCreator(clock=clock)
    books = [Tournaments(persistence.store(), creator, clock=clock) for _ in range(2)]  # type: ignore[arg-type]
    tid = await _running(books[0])
    await asyncio.gather(*(b.drive(tid) for b in books))
    first, second = await _pairings(books[0], tid)
    links = await books[0].store.links(tid)
    assert len(links) == 2 and len({link.match_id for link in links}) == 2 and len(creator.created) == 2
    await _finish(books[0], await _match_of(books[0], tid, first), [1, 2])
    await _finish(books[1], await _match_of(books[1], tid, second), [2, 1])
    await asyncio.gather(*(b.drive(tid) for b in books))
    await asyncio.gather(*(b.drive(tid) for b in books))
    doc, _ = await books[1].get(tid)
    assert doc.tournament.round == 2
    round_one = [p for p in doc.tournament.pairings if p.round == 1]
    assert [p.result.ranks for p in round_one if p.result] == [(1, 2), (2, 1)]
    assert len(machine.round_pairings(doc.tournament, 2)) == 2
    assert len(await books[0].store.links(tid, 2)) == 2 and len(creator.created) == 4
    assert await books[0].store.unfolded(tid) == []


async def test_a_result_of_a_newer_round_than_the_driver_saw_stays_in_the_inbox(store: MatchmakingStore) -> None:
    """A driver that read round 1 (and its matches) must not mark a round-2 result folded unrecorded."""
    book, _ = _book(store)
    tid = await _running(book)
    await book.drive(tid)
    for pairing in await _pairings(book, tid):
        assert await _finish(book, await _match_of(book, tid, pairing), [1, 2])
    seen_round_one = await book.get(tid)
    await book.drive(tid)  # folds round 1 and pairs round 2
    await book.drive(tid)  # creates round 2's matches
    doc, _ = await book.get(tid)
    assert doc.tournament.round == 2
    late = machine.current_pairings(doc.tournament)[0]
    late_match = await _match_of(book, tid, late)
    assert await _finish(book, late_match, [2, 1])
    inbox = await store.unfolded(tid)
    assert [r.match_id for r in inbox] == [late_match]
    await book._fold(*seen_round_one, inbox)  # the stale driver's step
    assert [r.match_id for r in await store.unfolded(tid)] == [late_match]  # still waiting
    await book.drive(tid)
    recorded = await _pairing(book, tid, late.id)
    assert recorded.result is not None and recorded.result.ranks == (2, 1)
    assert await store.unfolded(tid) == []


class _FlakyCreator(FakeCreator):
    """Refuses to create the first match it is asked for, once (the gateway hiccups on one pairing)."""

    failed: bool = False

    async def create(self, game, mode, seats, request_id, *, public=True, clock=None):  # type: ignore[no-untyped-def]
        if not self.failed:
            self.failed = True
            raise rpc_error(grpc.StatusCode.UNAVAILABLE, "gateway away")
        return await super().create(game, mode, seats, request_id, public=public, clock=clock)


async def test_one_failing_pairing_does_not_hold_back_the_others(store: MatchmakingStore) -> None:
    clock = Clock()
    creator = _FlakyCreator(clock=clock)
    book = Tournaments(store, creator, clock=clock)  # type: ignore[arg-type]
    tid = await _running(book)
    with pytest.raises(grpc.aio.AioRpcError):
        await book.drive(tid)  # the step reports the failure...
    first, second = await _pairings(book, tid)
    made = await book.match_ids(tid, 1)
    assert len(made) == 1  # ...after the other pairing got its match
    await book.drive(tid)  # the next step retries the one that failed
    assert set(made) < set(await book.match_ids(tid, 1)) and len(await book.match_ids(tid, 1)) == 2
    assert {link_key(first), link_key(second)} == set(await book.match_ids(tid, 1))
