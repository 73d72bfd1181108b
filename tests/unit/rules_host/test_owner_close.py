"""A match closed from outside its rules (a no-show, an operator's abort) is closed by its owner: a running match
by a close entry in its log, guarded by the version; an open one (not in the log yet) in the store, judged again on
the log when a join started it meanwhile; a log that refuses the entry is a retryable `Unavailable` (issue 20)."""

from __future__ import annotations

import json

import pytest

from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches.errors import BadRequest, StoreRefused, Unavailable, VersionConflict
from gamehall.matches.owner import MatchOwner
from gamehall.matches.ports import Loaded
from gamehall.matches.testing import MemoryLog, MemoryStore
from gamehall.testing.high_card import GAME
from tests.unit.rules_host.records import match_record

SEATS = [ppb.SeatRecord(seat=0, kind="human", account_id="a"), ppb.SeatRecord(seat=1, kind="human", account_id="b")]


class Backend(MemoryStore):
    """The store and the log in memory; the store's status is `statuses` in turn (an open match that starts)."""

    def __init__(self, *statuses: str, refuse: bool = False) -> None:
        super().__init__()
        self.statuses = list(statuses)
        self.log = MemoryLog()
        if refuse:
            self.log.refuse = "nats: permissions violation for publish"
        self.store_closes: list[ppb.CloseMatchRequest] = []

    @property
    def entries(self) -> list[LogEntry]:
        return self.log.entries()

    def _status(self) -> str:
        return self.statuses[0] if len(self.statuses) == 1 else self.statuses.pop(0)

    async def load(self, match_id: str) -> Loaded:
        return Loaded(record=match_record(GAME, SEATS, status=self._status()))

    async def head(self, match_id: str) -> tuple[str, int]:
        return "running", 0

    async def close_open(self, request: ppb.CloseMatchRequest) -> ppb.MatchRecord:
        if self.statuses[0] != "open":
            raise StoreRefused("running: its owner closes it")
        self.store_closes.append(request)
        return match_record(GAME, SEATS, status=request.status)


def _matches(backend: Backend) -> MatchOwner:
    return MatchOwner(GAME, backend, backend.log)


async def test_a_running_match_is_closed_by_a_close_entry_its_owner_appends() -> None:
    backend = Backend("running")
    matches = _matches(backend)
    outcome = {"ranks": [1, 2], "scores": None, "reason": "adjudicated"}
    assert await matches.close_match("m1", "finished", outcome, 0) == 0
    [entry] = backend.entries
    assert (entry.kind, entry.status, entry.version, entry.request_id) == (
        LogEntry.KIND_CLOSE,
        "finished",
        0,
        "close:finished:0",
    )
    assert json.loads(entry.outcome_json) == outcome and backend.store_closes == []
    assert (await matches.held("m1")).live.facts.status == "finished"


async def test_a_close_at_another_version_is_refused() -> None:
    matches = _matches(Backend("running"))
    with pytest.raises(VersionConflict):
        await matches.close_match("m1", "aborted", None, 3)


async def test_an_open_match_is_aborted_in_the_store_and_one_that_started_meanwhile_in_the_log() -> None:
    waiting = Backend("open")
    await _matches(waiting).close_match("m1", "aborted", None, None)
    assert [c.status for c in waiting.store_closes] == ["aborted"] and waiting.entries == []

    started = Backend("open", "running")  # read open, then a join starts it before the store's close
    await _matches(started).close_match("m1", "aborted", None, None)
    assert started.store_closes == [] and [e.status for e in started.entries] == ["aborted"]


async def test_a_close_the_log_refuses_is_unavailable_and_a_finish_needs_an_outcome() -> None:
    matches = _matches(Backend("running", refuse=True))
    with pytest.raises(Unavailable, match="permissions"):
        await matches.close_match("m1", "aborted", None, None)
    with pytest.raises(BadRequest, match="needs an outcome"):
        await matches.close_match("m1", "finished", None, None)
