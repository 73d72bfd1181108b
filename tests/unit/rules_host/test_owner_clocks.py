"""The owner's clocks on in-memory persistence and log: a copy it holds arms its match's timer, which plays the
default action for each seat out of time (request id `clock:<version>:<seat>`) or closes an abandoned match as
aborted, itself, through the log; a start or a change of peers arms the timers of the matches it owns from one
read, and an evicted copy keeps its timer. And the members' leases that say who owns what."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable

from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches import clocks
from gamehall.matches.clocks import ClockSpec
from gamehall.matches.members import LEASE_SECONDS, Members
from gamehall.matches.owner import MatchOwner
from gamehall.matches.owner_clocks import OwnerClocks
from gamehall.matches.routing import owner_of
from gamehall.matches.testing import MemoryLog, MemoryStore
from gamehall.runtime.advertised import advertised
from gamehall.runtime.settings import Settings
from gamehall.testing.high_card import GAME
from tests.unit.rules_host.records import match_record

SEATS = [ppb.SeatRecord(seat=0, kind="human", account_id="a"), ppb.SeatRecord(seat=1, kind="human", account_id="b")]


def _now() -> int:
    return int(time.time() * 1000)


def _clocked(match_id: str, spec: ClockSpec, since_ms: int) -> ppb.MatchRecord:
    record = match_record(GAME, SEATS)
    record.id = match_id
    record.clock_json = json.dumps(spec.to_json())
    to_act = sorted(GAME.to_act(GAME.new_match(GAME.configure(), 3)))
    record.clock_state_json = json.dumps(clocks.initial(spec, 2, to_act, since_ms))
    return record


class Backend(MemoryStore):
    """The store (which knows no match: only adopted copies are played) and the match log, in memory."""

    def __init__(self, clocked: list[tuple[str, int]] | None = None) -> None:
        super().__init__()
        self.log = MemoryLog()
        self.clocked_matches = list(clocked or [])

    @property
    def entries(self) -> list[LogEntry]:
        return self.log.entries()

    async def head(self, match_id: str) -> tuple[str, int]:
        return "running", 0


def _owner(backend: Backend, owns: Callable[[str], bool] = lambda _: True, capacity: int = 100) -> OwnerClocks:
    return OwnerClocks(MatchOwner(GAME, backend, backend.log, capacity=capacity), owns)


async def _until(predicate: Callable[[], bool], timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "not reached in time"
        await asyncio.sleep(0.01)


async def test_each_seat_out_of_time_gets_its_default_action_from_the_owner() -> None:
    backend = Backend()
    owner = _owner(backend)
    owner.matches.adopt(_clocked("m1", ClockSpec(per_move_ms=1000), _now() - 5000))  # both seats late
    try:
        await _until(lambda: len(backend.entries) == 2)
        assert [e.request_id for e in backend.entries] == ["clock:0:0", "clock:1:1"]
        assert all(e.kind == LogEntry.KIND_ACTION and e.status == "running" for e in backend.entries)
        assert [json.loads(e.action_json)["action"] for e in backend.entries] == [
            GAME.action_to_json(GAME.default_action(GAME.new_match(GAME.configure(), 3), s)) for s in (0, 1)
        ]
        next_round = owner.timers.deadline("m1")  # the next round's clock, from the second timeout
        assert 0 < next_round - backend.entries[-1].unix_ms <= 1000
    finally:
        owner.close()


async def test_an_abandoned_match_is_closed_aborted_by_its_owner_and_its_timer_dropped() -> None:
    backend = Backend()
    owner = _owner(backend)
    owner.matches.adopt(_clocked("m1", ClockSpec(idle_ms=2000), _now() - 3000))
    try:
        await _until(lambda: len(backend.entries) == 1)
        [close] = backend.entries
        assert (close.kind, close.status, close.version) == (LogEntry.KIND_CLOSE, "aborted", 0)
        assert close.request_id == "abandon:0"
        assert json.loads(close.outcome_json)["reason"] == "abandoned: no move for 2 s"
        await _until(lambda: "m1" not in owner.timers)
        assert (await owner.matches.held("m1")).live.facts.status == "aborted"
    finally:
        owner.close()


async def test_a_timer_in_the_future_waits_and_an_evicted_copy_keeps_its_timer() -> None:
    backend = Backend()
    owner = _owner(backend, capacity=1)
    start = _now()
    owner.matches.adopt(_clocked("m1", ClockSpec(per_move_ms=60_000), start))
    owner.matches.adopt(_clocked("m2", ClockSpec(per_move_ms=60_000), start))  # evicts m1's copy
    try:
        assert owner.matches.cached("m1") is None
        assert owner.timers.deadline("m1") == owner.timers.deadline("m2") == start + 60_000
        await asyncio.sleep(0.05)
        assert backend.entries == []
    finally:
        owner.close()


async def test_the_timer_of_a_match_the_store_does_not_know_is_dropped() -> None:
    owner = _owner(Backend())
    owner.timers.arm("ghost", _now() - 1)  # listed by a projection that has since forgotten it
    try:
        await _until(lambda: "ghost" not in owner.timers)
    finally:
        owner.close()


async def test_a_rearm_arms_the_owned_matches_from_one_read_and_drops_the_others() -> None:
    far = _now() + 3_600_000
    backend = Backend([("mine", far), ("theirs", far + 1), ("known", far + 2)])
    owner = _owner(backend, owns=lambda m: m != "theirs")
    owner.timers.arm("known", far + 50)  # armed from a copy: fresher than the projection
    owner.timers.arm("gone-elsewhere", far)
    owner.owns = lambda m: m not in ("theirs", "gone-elsewhere")
    try:
        assert await owner.rearm() == 2
        assert {m: owner.timers.deadline(m) for m in owner.timers.armed()} == {"mine": far, "known": far + 50}
    finally:
        owner.close()


def test_members_come_with_their_leases_and_go_when_they_lapse_or_leave() -> None:
    now = [100.0]
    members = Members("10.0.0.1:50060", clock=lambda: now[0])
    peer = Members("10.0.0.2:50060")
    assert members.live() == ["10.0.0.1:50060"] and members.owns("any-match")
    assert members.note(peer.lease()) is True
    assert members.note(peer.lease()) is False  # a renewal changes nothing
    assert members.note(members.lease()) is False  # its own lease, heard back
    assert members.live() == ["10.0.0.1:50060", "10.0.0.2:50060"]
    ids = [f"m{n}" for n in range(50)]
    assert [members.owns(m) for m in ids] == [owner_of(m, members.live()) == members.me for m in ids]
    assert not all(members.owns(m) for m in ids)
    now[0] += LEASE_SECONDS - 0.1
    assert members.lapse() is False
    now[0] += 0.2
    assert members.lapse() is True and members.live() == ["10.0.0.1:50060"]
    members.note(peer.lease())
    assert members.note(peer.lease(leaving=True)) is True and members.live() == ["10.0.0.1:50060"]
    assert members.note(b"not json") is False



def test_a_replica_announces_the_address_the_gateways_route_by() -> None:
    assert advertised(Settings(host="127.0.0.1"), 50070) == "127.0.0.1:50070"  # the launcher's
    assert advertised(Settings(host="0.0.0.0", advertise_addr="10.1.2.3:50051"), 50051) == "10.1.2.3:50051"  # a pod's
    assert advertised(Settings(host="::1"), 50070) == "[::1]:50070"
