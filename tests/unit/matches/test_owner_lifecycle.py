"""A match's whole life through its owner (`MatchOwner`) on in-memory ports: open → join → start → moves, and
each way a match ends (a leave, an abandonment its timer fires, a timeout, a no-show, an operator's abort).

After each step the test counts the log's new entries and projects them into a real store (persistence's
servicer and projection on SQLite), then reads the SQL rows: the match's status and version, its seats, its
action rows. Issue 37 ("one author per match") wants every step to be one log entry. Today a running match's
steps are (a move, a timeout, a forfeit or leave, an abandonment, an operator's abort: one entry each), while
opening, joining, starting, leaving an open match and a no-show of an open match are still the lobby's writes
to the store (no entry): the test says which is which at each step, so the day they become entries it fails
where the rows must then follow from the log instead.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
from google.protobuf import duration_pb2

from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.internal.v1 import live_pb2
from gamehall.matches import Caller
from gamehall.matches.owner import MatchOwner
from gamehall.matches.owner_clocks import OwnerClocks
from gamehall.matches.ports import Fire
from gamehall.matches.testing import FakeClock, FakeTimers, MemoryLog, RecordingPublisher
from gamehall.testing.high_card import GAME
from gamehall_sdk.v1 import match_pb2
from tests.support.owner_ports import ProjectedStore

T = TypeVar("T")
IDLE_MS = 3_600_000


@dataclass
class Hall:
    """One owner on in-memory ports, the real projection behind its log, and two players."""

    owner: MatchOwner
    clocks: OwnerClocks
    timers: FakeTimers
    log: MemoryLog
    store: ProjectedStore
    views: RecordingPublisher
    clock: FakeClock
    alice: Caller
    bob: Caller

    async def step(self, entries: int, call: Awaitable[T]) -> T:
        """Run one step and check it appended exactly `entries` log entries (0: a store write of the lobby's);
        then project them, as persistence's projector does."""
        before = len(self.log.logged)
        result = await call
        assert len(self.log.logged) - before == entries, f"{entries} log entries expected"
        assert await self.store.catch_up(self.log) == entries
        return result

    def match(self, match_id: str) -> tuple[str, int]:
        [(status, version)] = self.store.rows("SELECT status, version FROM matches WHERE id = ?", match_id)
        return str(status), int(version)

    def seats(self, match_id: str) -> list[tuple[int, str, str | None]]:
        sql = "SELECT seat, kind, account_id FROM seats WHERE match_id = ? ORDER BY seat"
        return [(int(s), str(k), a) for s, k, a in self.store.rows(sql, match_id)]

    def actions(self, match_id: str) -> list[tuple[int, int, str]]:
        sql = "SELECT version, seat, request_id FROM action_log WHERE match_id = ? ORDER BY version"
        return [(int(v), int(s), str(r)) for v, s, r in self.store.rows(sql, match_id)]

    def outcome(self, match_id: str) -> dict[str, Any]:
        [(outcome,)] = self.store.rows("SELECT outcome FROM matches WHERE id = ?", match_id)
        found: dict[str, Any] = json.loads(outcome)
        return found

    async def open(self, match_id: str, per_move_ms: int = 0) -> str:
        """Alice opens a two-seat match and takes seat 0; seat 1 is open."""
        request = live_pb2.OpenMatchRequest(match_id=match_id, join_seat=0)
        if per_move_ms:
            request.clock.per_move.CopyFrom(duration_pb2.Duration(seconds=per_move_ms // 1000))
        opened = await self.step(0, self.owner.open(request, self.alice))
        assert opened.match.status == "open"
        return match_id

    async def start(self, match_id: str, per_move_ms: int = 0) -> str:
        """Open, then Bob's join fills the match and starts it."""
        await self.open(match_id, per_move_ms)
        joined = await self.step(0, self.owner.join(match_id, self.bob, None, "join-1"))
        assert (joined.seat, joined.match.status) == (1, "running")
        return match_id

    async def move(self, match_id: str, caller: Caller, request_id: str) -> match_pb2.SubmitActionResponse:
        """The caller's seat plays its first legal action: one log entry."""
        legal = await self.owner.legal(match_id, caller, None)
        return await self.step(1, self.owner.play(match_id, caller, None, request_id, None, legal.actions[0].id))


@pytest.fixture
async def hall(tmp_path: Path) -> AsyncIterator[Hall]:
    store = await ProjectedStore.open(tmp_path)
    log, views, clock = MemoryLog(), RecordingPublisher(), FakeClock()
    owner = MatchOwner(GAME, store, log, views, now_ms=clock, idle_ms=IDLE_MS)
    timers: list[FakeTimers] = []

    def fake_timers(fire: Fire) -> FakeTimers:
        timers.append(FakeTimers(fire))
        return timers[-1]

    clocks = OwnerClocks(owner, timers=fake_timers)
    alice = Caller(account_id=await store.account("alice"), role="player")
    bob = Caller(account_id=await store.account("bob"), role="player")
    try:
        yield Hall(owner, clocks, timers[0], log, store, views, clock, alice, bob)
    finally:
        clocks.close()
        await store.close()


async def test_open_join_start_moves_and_a_leave_each_step_once_with_the_rows_following(hall: Hall) -> None:
    m = await hall.open("m-life")
    assert hall.match(m) == ("open", 0)
    again = await hall.step(0, hall.owner.open(live_pb2.OpenMatchRequest(match_id=m, join_seat=0), hall.alice))
    assert again.existed, "a retried open finds the match its first try made"
    assert hall.seats(m) == [(0, "human", hall.alice.account_id), (1, "open", None)]

    await hall.step(0, hall.owner.join(m, hall.bob, None, "join-1"))  # the join that fills it starts it
    assert hall.match(m) == ("running", 0)
    assert hall.seats(m) == [(0, "human", hall.alice.account_id), (1, "human", hall.bob.account_id)]
    assert hall.log.entries(m) == [], "open, join and start are the lobby's store writes, not log entries yet"

    played = [await hall.move(m, hall.alice, "a-1"), await hall.move(m, hall.bob, "b-1")]
    assert [p.version for p in played] == [1, 2]
    assert hall.match(m) == ("running", 2)
    assert hall.actions(m) == [(1, 0, "a-1"), (2, 1, "b-1")]
    assert all(e.kind == LogEntry.KIND_ACTION for e in hall.log.entries(m))
    assert {seat for _, seat, _ in hall.views.pushed} == {0, 1, None}, "each step's views went to every audience"

    again = await hall.step(0, hall.owner.play(m, hall.alice, None, "a-1", None, "anything"))
    assert again.replayed and again.version == 1, "a retried move is answered, never logged twice"

    left = await hall.step(1, hall.owner.leave(m, hall.alice, "resigned", "leave-1"))
    assert left.match.status == "finished"
    assert hall.match(m) == ("finished", 2)
    assert hall.outcome(m)["reason"] == "forfeit: seat 0 resigned"
    close = hall.log.entries(m)[-1]
    assert (close.kind, close.request_id, close.seat) == (LogEntry.KIND_CLOSE, "leave:leave-1", 0)
    retried = await hall.step(0, hall.owner.leave(m, hall.alice, "resigned", "leave-1"))
    assert retried.replayed and retried.match.status == "finished"


async def test_a_match_nobody_moves_in_is_abandoned_when_its_timer_fires(hall: Hall) -> None:
    m = await hall.start("m-idle")
    deadline = hall.timers.deadline(m)
    assert deadline == hall.clock() + IDLE_MS, "the owner's timer is armed at the inactivity limit"
    hall.clock.advance(IDLE_MS - 1)
    assert await hall.step(0, hall.timers.fire_due(hall.clock())) == []
    hall.clock.advance(1)
    assert await hall.step(1, hall.timers.fire_due(hall.clock())) == [m]
    assert hall.match(m) == ("aborted", 0)
    assert hall.log.entries(m)[-1].request_id == "abandon:0"
    assert m not in hall.timers, "a closed match's timer is dropped"


async def test_a_seat_out_of_time_gets_its_default_action_as_one_entry(hall: Hall) -> None:
    m = await hall.start("m-clock", per_move_ms=60_000)
    await hall.move(m, hall.alice, "a-1")  # Bob does not answer
    hall.clock.advance(60_000)
    assert await hall.step(1, hall.timers.fire_due(hall.clock())) == [m]
    assert hall.actions(m) == [(1, 0, "a-1"), (2, 1, "clock:1:1")]
    assert hall.match(m) == ("running", 2)


async def test_a_no_show_aborts_an_open_match_in_the_store_and_an_operator_aborts_a_running_one_in_the_log(
    hall: Hall,
) -> None:
    waiting = await hall.open("m-no-show")
    assert await hall.step(0, hall.owner.close_match(waiting, "aborted", None, None)) == 0
    assert hall.match(waiting) == ("aborted", 0), "an open match has no log yet: its no-show is a store write"

    running = await hall.start("m-abort")
    await hall.move(running, hall.alice, "a-1")
    assert await hall.step(1, hall.owner.close_match(running, "aborted", None, 1)) == 1
    assert hall.match(running) == ("aborted", 1)
    assert hall.log.entries(running)[-1].request_id == "close:aborted:1"


async def test_leaving_an_open_match_frees_the_seat_in_the_store(hall: Hall) -> None:
    m = await hall.open("m-leave-open")
    await hall.step(0, hall.owner.join(m, hall.bob, 1, "join-1"))
    assert hall.match(m)[0] == "running"

    other = await hall.open("m-leave-early")
    left = await hall.step(0, hall.owner.leave(other, hall.alice, "resigned", "leave-1"))
    assert left.match.status == "open"
    assert hall.seats(other) == [(0, "open", None), (1, "open", None)]

