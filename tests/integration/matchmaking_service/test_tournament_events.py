"""The tournament driver and `WatchStandings` run on events, not on a timer (issue 37), through the real persistence
service: a result steps its tournament at once with the driver's safety sweep switched off, a no-show deadline
fires from its own timer, a standings watcher hears a result within half a second, another replica's change
reaches it through the notification the `gamehall.v1.tournament.>` subscription delivers, and with nothing
happening neither the driver nor a watcher reads the store."""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from gamehall.auth.tokens import Claims
from gamehall.runtime.bus import Bus
from gamehall.runtime.settings import Settings
from gamehall.tournaments import machine
from gamehall_sdk.v1 import tournament_pb2 as pb
from gamehall_services.matchmaking import tournament_servicer
from gamehall_services.matchmaking.app import TOURNAMENT_NEWS, tournament_news
from gamehall_services.matchmaking.documents import link_key
from gamehall_services.matchmaking.ratings import Ratings
from gamehall_services.matchmaking.store_client import MatchmakingStore
from gamehall_services.matchmaking.tournament_servicer import TournamentServicer
from gamehall_services.matchmaking.tournaments import Tournaments
from gamehall_services.persistence.app import build_app
from tests.integration.matchmaking_service.conftest import Persistence
from tests.integration.matchmaking_service.fakes import FakeCreator
from tests.support.nats import NatsServer

pytestmark = pytest.mark.integration

GAME, MODE = "high-card", "duel"
PLAYERS = ("a", "b", "c", "d")
NO_SWEEP = math.inf
"""The driver's safety sweep switched off: whatever happens, happens on an event."""


class _Counted:
    """Counts the tournament document reads a store client makes (`GetTournament`, `ListTournaments`)."""

    def __init__(self, store: MatchmakingStore) -> None:
        self.reads = 0
        for name in ("tournament", "tournaments"):
            self._wrap(store, name)

    def _wrap(self, store: MatchmakingStore, name: str) -> None:
        read = getattr(store, name)

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.reads += 1
            return await read(*args, **kwargs)

        setattr(store, name, counted)


async def _running(book: Tournaments, no_show_s: float = 120.0) -> str:
    now = time.time()
    doc, _ = await book.create(
        name="cup",
        game=GAME,
        mode=MODE,
        format="swiss",
        rounds=0,
        seats=2,
        opens=0.0,
        closes=now + 3600,
        max_players=0,
        check_in=False,
        no_show_s=no_show_s,
        clock={},
        created_by="op",
    )
    tournament_id = doc.tournament.id
    for k, player in enumerate(PLAYERS):
        await _transition(book, tournament_id, "registered", machine.register, player, 10.0 - k, now)
    await _transition(book, tournament_id, "started", machine.start, now)
    return tournament_id


async def _transition(book: Tournaments, tournament_id: str, kind: str, step: Any, *args: Any) -> int:
    def apply(doc: Any) -> None:
        doc.tournament = step(doc.tournament, *args)

    return (await book.change(tournament_id, kind, apply))[1]


async def _until(check: Callable[[], Awaitable[bool]], within: float) -> float:
    """Seconds until `check()` holds (looked at every 10 ms by the test, not by the code under test)."""
    began = time.monotonic()
    while not await check():
        if time.monotonic() - began > within:
            raise AssertionError(f"not within {within} s")
        await asyncio.sleep(0.01)
    return time.monotonic() - began


@contextlib.asynccontextmanager
async def _driving(book: Tournaments, sweep: float = NO_SWEEP) -> AsyncIterator[asyncio.Task[None]]:
    task = asyncio.create_task(book.run(sweep=sweep))
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def _round_matches(book: Tournaments, tournament_id: str, round_no: int) -> dict[str, str]:
    doc, _ = await book.get(tournament_id)
    if doc.tournament.round != round_no:
        return {}
    made = await book.match_ids(tournament_id, round_no)
    pairings = machine.current_pairings(doc.tournament)
    return made if pairings and all(link_key(p) in made for p in pairings) else {}


async def _finish_round(book: Tournaments, store: MatchmakingStore, tournament_id: str, round_no: int) -> None:
    """Finish every match of the round as persistence and the finished-match consumer do: the outcome is recorded in
    the inbox with the finish (here by the store call), and the consumer steps the tournament its event names."""
    for match_id in (await book.match_ids(tournament_id, round_no)).values():
        assert await store.record_result(match_id, [1, 2], "all cards played") == tournament_id
        book.result_recorded(tournament_id)


async def test_a_result_pairs_the_next_round_with_no_periodic_pass(store: MatchmakingStore) -> None:
    creator = FakeCreator()
    book = Tournaments(store, creator)  # type: ignore[arg-type]
    tid = await _running(book)
    async with _driving(book):
        await _until(lambda: _has(_round_matches(book, tid, 1)), within=2.0)  # the start's one read stepped it
        steps = book.steps_taken
        await asyncio.sleep(1.0)
        assert book.steps_taken == steps  # quiet: no pass at all
        began = time.monotonic()
        await _finish_round(book, store, tid, 1)
        latency = await _until(lambda: _has(_round_matches(book, tid, 2)), within=1.0)
        print(f"result to next round's matches: {time.monotonic() - began:.3f} s (seen after {latency:.3f} s)")
        assert len(creator.created) == 4


async def _has(found: Awaitable[dict[str, str]]) -> bool:
    return bool(await found)


async def test_a_result_whose_event_was_lost_is_folded_by_the_safety_sweep(store: MatchmakingStore) -> None:
    """The sweep (minutes in service; half a second here) steps every running tournament, so a result recorded
    with no event reaching this replica still completes the round."""
    creator = FakeCreator()
    book = Tournaments(store, creator)  # type: ignore[arg-type]
    tid = await _running(book)
    async with _driving(book, sweep=0.5):
        await _until(lambda: _has(_round_matches(book, tid, 1)), within=2.0)
        for match_id in (await book.match_ids(tid, 1)).values():
            assert await store.record_result(match_id, [2, 1], "all cards played")  # and no result_recorded
        await _until(lambda: _has(_round_matches(book, tid, 2)), within=2.0)


async def test_a_no_show_deadline_fires_from_its_timer(store: MatchmakingStore) -> None:
    creator = FakeCreator()
    book = Tournaments(store, creator)  # type: ignore[arg-type]
    tid = await _running(book, no_show_s=0.6)
    async with _driving(book):
        await _until(lambda: _has(_round_matches(book, tid, 1)), within=2.0)
        created = time.monotonic()
        steps = book.steps_taken
        round_one = await book.match_ids(tid, 1)

        async def forfeited() -> bool:
            doc, _ = await book.get(tid)
            ones = [p for p in doc.tournament.pairings if p.round == 1]
            return all(p.result is not None and p.result.reason == "no-show" for p in ones)

        waited = await _until(forfeited, within=3.0)
        print(f"no-show forfeits {time.monotonic() - created:.3f} s after the matches (deadline 0.6 s)")
        assert waited >= 0.3  # not before the deadline
        assert sorted(m for m, _ in creator.aborted) == sorted(round_one.values())
        assert book.steps_taken - steps <= 6  # the timers' steps and the round they complete, not a poll
        await _until(lambda: _has(_round_matches(book, tid, 2)), within=1.0)  # the forfeits completed round 1


async def test_watch_standings_pushes_a_result_and_reads_nothing_while_quiet(
    persistence: Persistence, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def reader_of(context: Any, principals: Any) -> Claims:
        return Claims(sub="v", name="v", role="player", iat=0, exp=2**31, iss="test", jti="v")  # type: ignore[arg-type]

    monkeypatch.setattr(tournament_servicer, "reader_of", reader_of)
    store = persistence.store()
    book = Tournaments(store, FakeCreator())  # type: ignore[arg-type]
    tid = await _running(book)
    watched_store = persistence.store()
    counted = _Counted(watched_store)
    watcher_book = Tournaments(watched_store, FakeCreator())  # type: ignore[arg-type]  # a watcher on its own
    servicer = TournamentServicer(watcher_book, Ratings(watched_store), principals=None)  # type: ignore[arg-type]
    stream = servicer.WatchStandings(pb.WatchStandingsRequest(tournament_id=tid), context=None)  # type: ignore[arg-type]
    async with _driving(book):
        await _until(lambda: _has(_round_matches(book, tid, 1)), within=2.0)
        first = (await anext(stream)).standings  # the standings now, first
        assert first.round == 1 and first.revision >= 6

        quiet_reads = counted.reads
        pending = asyncio.ensure_future(anext(stream))
        await asyncio.sleep(2.0)
        assert not pending.done() and counted.reads == quiet_reads  # 2 s of quiet: the store is not read

        # The driver folds the results on its replica; the watcher's replica hears the committed change as the
        # outbox event the relay publishes (here handed over as the subscription's callback would).
        began = time.monotonic()
        await _finish_round(book, store, tid, 1)
        heard: list[float] = []

        async def relay() -> None:
            revision = first.revision
            while True:
                doc, now = await book.get(tid)
                if now > revision:
                    revision = now
                    watcher_book.changed(tid, now, doc.tournament.status)
                await asyncio.sleep(0.005)

        relaying = asyncio.create_task(relay())
        try:
            pushed = (await asyncio.wait_for(pending, timeout=0.5)).standings
            heard.append(time.monotonic() - began)
        finally:
            relaying.cancel()
        assert pushed.revision > first.revision
        print(f"result to pushed standings: {heard[0] * 1000:.0f} ms")
        assert heard[0] < 0.5
    await stream.aclose()


async def test_a_change_through_this_replica_wakes_its_watchers_without_a_notification(
    store: MatchmakingStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def reader_of(context: Any, principals: Any) -> Claims:
        return Claims(sub="v", name="v", role="player", iat=0, exp=2**31, iss="test", jti="v")  # type: ignore[arg-type]

    monkeypatch.setattr(tournament_servicer, "reader_of", reader_of)
    book = Tournaments(store, FakeCreator())  # type: ignore[arg-type]
    tid = await _running(book)
    servicer = TournamentServicer(book, Ratings(store), principals=None)  # type: ignore[arg-type]
    stream = servicer.WatchStandings(pb.WatchStandingsRequest(tournament_id=tid), context=None)  # type: ignore[arg-type]
    first = (await anext(stream)).standings
    pending = asyncio.ensure_future(anext(stream))
    await asyncio.sleep(0.1)
    assert not pending.done()
    revision = await _transition(book, tid, "dropped", machine.drop, "d")
    pushed = (await asyncio.wait_for(pending, timeout=0.5)).standings
    assert pushed.revision == revision > first.revision
    assert [row.dropped for row in pushed.rows if row.player == "d"] == [True]
    await stream.aclose()


async def test_another_replicas_result_reaches_a_watcher_through_the_relayed_event(
    nats_server: NatsServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two matchmaking replicas and persistence publishing its outbox to a real NATS: the result folded on one
    replica reaches a standings watcher on the other as the event the relay publishes, within 500 ms, and
    the other replica's driver is stepped by that event too (its sweep is off)."""

    async def reader_of(context: Any, principals: Any) -> Claims:
        return Claims(sub="v", name="v", role="player", iat=0, exp=2**31, iss="test", jti="v")  # type: ignore[arg-type]

    monkeypatch.setattr(tournament_servicer, "reader_of", reader_of)
    settings = Settings(
        service="persistence",
        grpc_port=0,
        database_url=f"sqlite://{tmp_path / 'db'}?synchronous=normal",
        data_dir=tmp_path,
        grace_seconds=1,
        nats_url=nats_server.url,
    )
    app = build_app(settings)
    port = await app.start(metrics=False)
    served = Persistence(f"127.0.0.1:{port}")
    bus = await Bus.connect(nats_server.url, "matchmaking-test")
    try:
        here, there = served.store(), served.store()
        book = Tournaments(here, FakeCreator())  # type: ignore[arg-type]
        other = Tournaments(there, FakeCreator())  # type: ignore[arg-type]
        await bus.nc.subscribe(TOURNAMENT_NEWS, cb=tournament_news(other))
        tid = await _running(book)
        servicer = TournamentServicer(other, Ratings(there), principals=None)  # type: ignore[arg-type]
        stream = servicer.WatchStandings(pb.WatchStandingsRequest(tournament_id=tid), context=None)  # type: ignore[arg-type]
        async with _driving(book), _driving(other):
            await _until(lambda: _has(_round_matches(book, tid, 1)), within=2.0)
            first = (await anext(stream)).standings
            while first.round != 1 or first.revision < (await book.get(tid))[1]:
                first = (await anext(stream)).standings  # the changes made before the watch began
            steps = other.steps_taken
            pending = asyncio.ensure_future(anext(stream))
            await asyncio.sleep(0.5)
            assert not pending.done() and other.steps_taken == steps
            began = time.monotonic()
            await _finish_round(book, here, tid, 1)
            pushed = (await asyncio.wait_for(pending, timeout=0.5)).standings
            latency = time.monotonic() - began
            print(f"result on one replica to standings pushed on the other: {latency * 1000:.0f} ms")
            assert pushed.revision > first.revision and latency < 0.5
            assert other.steps_taken > steps  # the other replica's driver heard it too
        await stream.aclose()
    finally:
        await bus.close()
        for channel in served.channels:
            await channel.close()
        await app.stop()


async def test_a_change_is_acted_on_once_however_often_it_is_heard(store: MatchmakingStore) -> None:
    """A change made here is heard again as its relayed event (and a link's `match-created` event repeats the
    revision): the driver steps once for it, and a tournament still in registration is not stepped at all."""
    book = Tournaments(store, FakeCreator())  # type: ignore[arg-type]
    tid = await _running(book)
    async with _driving(book):
        await _until(lambda: _has(_round_matches(book, tid, 1)), within=2.0)
        await asyncio.sleep(0.2)
        steps = book.steps_taken
        revision = await _transition(book, tid, "dropped", machine.drop, "d")  # through an RPC of this replica
        await asyncio.sleep(0.2)
        assert book.steps_taken == steps + 1
        for _ in range(3):
            book.changed(tid, revision, "running")  # the relay's echo, heard more than once
        book.changed(tid, revision - 1, "running")  # an older event arriving late
        await asyncio.sleep(0.2)
        assert book.steps_taken == steps + 1

        doc, _ = await book.create(
            name="later", game=GAME, mode=MODE, format="swiss", rounds=0, seats=2, opens=0.0,
            closes=time.time() + 3600, max_players=0, check_in=False, no_show_s=120.0, clock={}, created_by="op",
        )  # fmt: skip
        await _transition(book, doc.tournament.id, "registered", machine.register, "a", 1.0, time.time())
        await asyncio.sleep(0.2)
        assert book.steps_taken == steps + 1  # registration needs no step
