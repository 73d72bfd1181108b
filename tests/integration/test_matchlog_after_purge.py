"""The match log's compare-and-swap after a closed match was purged. Persistence purges every entry of a
match once its end is projected, which leaves the match's subjects empty, so an append expecting "no entry
yet" (sequence 0) from a copy that never saw the end used to be accepted: the 500-match soak found a
witness's first move acknowledged after the bot had resigned, at the same version, and never projected.
An append now also names its predecessor in the message id, so a second successor of one entry is a
duplicate within the stream's duplicate window, purged or not, and the append a LogConflict."""

from __future__ import annotations

import time

import pytest

from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.runtime.bus import Bus
from gamehall.runtime.matchlog import LOG_STREAM, LogConflict, MatchLog
from tests.support.nats import NatsServer


def _entry(version: int, status: str = "running", request_id: str = "r") -> LogEntry:
    return LogEntry(
        match_id="m-1",
        game="high-card",
        version=version,
        kind=LogEntry.KIND_ACTION,
        request_id=request_id,
        unix_ms=int(time.time() * 1000),
        status=status,
    )


async def test_a_first_entry_after_the_match_was_ended_and_purged_is_a_conflict(nats_server: NatsServer) -> None:
    bus = await Bus.connect(nats_server.url, "test")
    try:
        await bus.ensure_streams()
        log = MatchLog(bus.js)
        ended = await log.append(_entry(1, "finished", "bot:resign"), 0)  # the bot resigns: the match ends
        await log.purge("high-card", "m-1")  # projected: persistence purges the closed match
        assert await log.last_seq("high-card", "m-1") == 0
        with pytest.raises(LogConflict):
            await log.append(_entry(1, request_id="witness"), 0)  # a copy that never saw the end
        info = await bus.js.stream_info(LOG_STREAM)
        assert info.state.last_seq == ended  # nothing was written after the end
    finally:
        await bus.close()


async def test_successive_appends_and_a_stale_one_still_behave(nats_server: NatsServer) -> None:
    bus = await Bus.connect(nats_server.url, "test")
    try:
        await bus.ensure_streams()
        log = MatchLog(bus.js)
        first = await log.append(_entry(1, request_id="a"), 0)
        second = await log.append(_entry(2, request_id="b"), first)
        assert second > first
        with pytest.raises(LogConflict):
            await log.append(_entry(2, request_id="c"), first)  # the compare-and-swap, entries present
        third = await log.append(_entry(3, request_id="d"), second)
        assert third > second
    finally:
        await bus.close()
