"""A match a replica has just started is held from its start: its first calls read no projection and no log
(ARCHITECTURE "the move path": the owner keeps a running match in memory)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from gamehall.engine import action_id, get_game
from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches import Caller
from gamehall.matches.errors import LogConflict, MatchNotRunning
from gamehall.matches.owner import MatchOwner
from gamehall.matches.owner_cache import FRESH_SECONDS
from gamehall.matches.ports import Loaded, Logged
from gamehall.matches.testing import MemoryLog, MemoryStore
from tests.unit.rules_host.records import match_record

GAME = get_game("grimmoir")


def _record(status: str = "running", version: int = 0, game: str = GAME.id) -> ppb.MatchRecord:
    seats = [
        ppb.SeatRecord(seat=0, kind="human", account_id="a"),
        ppb.SeatRecord(seat=1, kind="bot", bot_difficulty="easy"),
    ]
    return match_record(GAME, seats, status=status, version=version, game_id=game)


class _Counting(MemoryStore, MemoryLog):
    """The store and a match log that count what a load asks them (and answer like the store would)."""

    def __init__(self) -> None:
        MemoryStore.__init__(self, _record())
        MemoryLog.__init__(self)
        self.loads = 0

    async def load(self, match_id: str) -> Loaded:
        self.loads += 1
        return await super().load(match_id)

    async def tail(self, game: str, match_id: str, after_seq: int) -> list[Logged]:
        return []

    async def last_seq(self, game: str, match_id: str) -> int:
        return 0


def _matches(backend: _Counting) -> MatchOwner:
    return MatchOwner(GAME, backend, backend)


async def test_a_match_started_here_is_served_without_a_load() -> None:
    backend = _Counting()
    matches = _matches(backend)
    matches.adopt(_record())
    held = await matches.held("m1")
    assert backend.loads == 0
    assert (held.live.version, held.seq, held.live.to_act) == (0, 0, sorted(GAME.to_act(held.live.state)))
    assert held.live.state == GAME.new_match(GAME.configure(), 3)  # dealt from the committed seed


async def test_only_a_fresh_running_match_of_this_game_is_adopted() -> None:
    for record in (_record("open"), _record(version=4), _record(game="high-card")):
        backend = _Counting()
        matches = _matches(backend)
        matches.adopt(record)
        await matches.held("m1")
        assert backend.loads == 1, record


async def test_a_copy_already_held_is_kept() -> None:
    backend = _Counting()
    matches = _matches(backend)
    first = await matches.held("m1")
    matches.adopt(_record())
    assert await matches.held("m1") is first


def _humans(status: str) -> ppb.MatchRecord:
    seats = [ppb.SeatRecord(seat=0, kind="human", account_id="a"), ppb.SeatRecord(seat=1, kind="human", account_id="b")]
    return match_record(GAME, seats, status=status)


class _Stored(_Counting):
    """The store and the log as a first move sees them: `status` in the store, nothing in the log."""

    def __init__(self, status: str) -> None:
        super().__init__()
        self.status = status
        self.asked: list[str] = []
        self.appended: list[int] = []

    async def head(self, match_id: str) -> tuple[str, int]:
        self.asked.append("head")
        return self.status, 0

    async def load(self, match_id: str) -> Loaded:
        self.loads += 1
        return Loaded(record=_humans(self.status))

    async def last_seq(self, game: str, match_id: str) -> int:
        self.asked.append("last_seq")
        return 0

    async def append(self, entry: LogEntry, expected_seq: int) -> int:
        self.appended.append(expected_seq)
        return 1


async def _first_move(backend: _Stored) -> Any:
    matches = _matches(backend)
    matches.adopt(_humans("running"))
    held = await matches.held("m1")
    seat = held.live.to_act[0]
    caller = Caller(account_id="a" if seat == 0 else "b", role="player")
    return await matches.play("m1", caller, seat, "r1", None, action_id(held.live.legal(seat)[0]))


async def test_a_first_move_asks_the_store_once_and_not_the_log() -> None:
    """The log's compare-and-set (an empty subject expected) refuses an entry still there; only a close at version
    0 that was projected and purged needs the store to tell."""
    backend = _Stored("running")
    reply = await _first_move(backend)
    assert reply.version == 1
    assert (backend.asked, backend.appended, backend.loads) == (["head"], [0], 0)


async def test_a_first_move_after_an_abort_that_left_no_log_entry_is_refused() -> None:
    backend = _Stored("aborted")
    with pytest.raises(MatchNotRunning):
        await _first_move(backend)
    assert (backend.asked[0], backend.appended, backend.loads) == ("head", [], 1)


class _Hanging(_Stored):
    """A log whose append never answers (the call is cut off while it waits)."""

    async def append(self, entry: LogEntry, expected_seq: int) -> int:
        self.appended.append(expected_seq)
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


async def test_a_move_cut_off_mid_append_drops_the_copy() -> None:
    """The entry may have landed: no read may be served from the copy the move never advanced."""
    backend = _Hanging("running")
    matches = _matches(backend)
    matches.adopt(_humans("running"))
    held = await matches.held("m1")
    seat = held.live.to_act[0]
    caller = Caller(account_id="a" if seat == 0 else "b", role="player")
    move = asyncio.create_task(matches.play("m1", caller, seat, "r1", None, action_id(held.live.legal(seat)[0])))
    while not backend.appended:
        await asyncio.sleep(0.01)
    move.cancel()
    with pytest.raises(asyncio.CancelledError):
        await move
    assert await matches.held("m1") is not held, "the copy was dropped: the next call loads the match afresh"
    assert backend.loads == 1


async def test_a_move_at_a_human_pace_asks_neither_the_log_nor_the_store_but_a_read_asks_the_log() -> None:
    """A copy idle past FRESH_SECONDS is checked against the log before a read; a move skips that read (its
    append's compare-and-swap finds a copy another replica moved past), so every move made at a thinking
    player's pace no longer pays a read of the log."""
    backend = _Stored("running")
    matches = _matches(backend)
    matches.adopt(_humans("running"))
    for request in ("r1", "r2"):
        held = await matches.held("m1")
        held.checked -= 10 * FRESH_SECONDS  # the player thought for a while
        seat = held.live.to_act[0]
        caller = Caller(account_id="a" if seat == 0 else "b", role="player")
        await matches.play("m1", caller, seat, request, None, action_id(held.live.legal(seat)[0]))
    assert (backend.asked, backend.appended) == (["head"], [0, 1])  # the store once, for the first entry
    (await matches.held("m1")).checked -= 10 * FRESH_SECONDS
    await matches.held("m1")
    assert backend.asked[:2] == ["head", "last_seq"]


class _MovedOn(_Stored):
    """A log another replica appended to: the first append loses the compare-and-swap."""

    async def append(self, entry: LogEntry, expected_seq: int) -> int:
        self.appended.append(expected_seq)
        if len(self.appended) == 1:
            raise LogConflict("another replica appended")
        return 7


async def test_a_move_on_a_copy_the_log_moved_past_is_judged_again_on_a_reloaded_copy() -> None:
    backend = _MovedOn("running")
    reply = await _first_move(backend)
    assert reply.version == 1 and backend.loads == 1 and backend.appended == [0, 0]


class _JoinedDuringLoad(_Stored):
    """A store whose first load reads the match open and then stalls; the last seat is taken meanwhile."""

    def __init__(self) -> None:
        super().__init__("open")
        self.reading = asyncio.Event()
        self.release = asyncio.Event()

    async def load(self, match_id: str) -> Loaded:
        self.loads += 1
        record = _humans(self.status)  # read now: a join landing later is not in it
        if self.loads == 1:
            self.reading.set()
            await self.release.wait()
        return Loaded(record=record)


async def test_a_call_after_a_join_is_not_answered_by_a_load_that_read_the_match_open() -> None:
    """A watcher's read began loading the open match; the joiner's next read must see it running (seen in CI as
    an empty ListLegalActions for both seats of a match that had just started)."""
    backend = _JoinedDuringLoad()
    matches = _matches(backend)
    watcher = asyncio.create_task(matches.held("m1"))
    await backend.reading.wait()
    backend.status = "running"  # the join started the match, through the store
    joiner = asyncio.create_task(matches.held("m1"))
    await asyncio.sleep(0.01)
    backend.release.set()
    assert (await watcher).live.facts.status == "open"
    assert (await joiner).live.facts.status == "running"
    assert (await matches.held("m1")) is (await joiner), "the running copy is the one held"
