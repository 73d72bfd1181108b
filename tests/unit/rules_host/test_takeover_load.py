"""A replica's load of a match (projection, then the log tail) never caches a copy the log has moved past."""

from __future__ import annotations

from gamehall.engine import get_game
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches.owner import MatchOwner
from gamehall.matches.ports import Loaded, Logged
from gamehall.matches.testing import MemoryLog, MemoryStore
from tests.unit.rules_host.records import match_record

GAME = get_game("grimmoir")


def _record(status: str) -> ppb.MatchRecord:
    return match_record(
        GAME,
        [ppb.SeatRecord(seat=0, kind="human", account_id="a"), ppb.SeatRecord(seat=1, kind="human", account_id="b")],
        status=status,
    )


class _Persistence(MemoryStore):
    """A load answers from a list of projections, one per read (the last one repeats)."""

    def __init__(self, *statuses: str) -> None:
        super().__init__()
        self.statuses = list(statuses)
        self.reads = 0

    async def load(self, match_id: str) -> Loaded:
        status = self.statuses[min(self.reads, len(self.statuses) - 1)]
        self.reads += 1
        return Loaded(record=_record(status), log_seq=5)


class _EmptiedLog(MemoryLog):
    """The match's subject after its entries were purged."""

    async def tail(self, game: str, match_id: str, after_seq: int) -> list[Logged]:
        return []

    async def last_seq(self, game: str, match_id: str) -> int:
        return 0


def _matches(persistence: _Persistence) -> MatchOwner:
    return MatchOwner(GAME, persistence, _EmptiedLog())


async def test_a_close_projected_and_purged_while_loading_is_read_again_not_cached_as_running() -> None:
    """The race that once showed a finished match's replay two steps short: the projection was read at
    a running version, then the close was projected and every entry purged before the tail was read."""
    persistence = _Persistence("running", "aborted")
    held = await _matches(persistence).held("m1")
    assert held.live.facts.status == "aborted"
    assert persistence.reads == 2


async def test_entries_aged_out_under_a_projection_that_stays_put_still_load() -> None:
    persistence = _Persistence("running")
    held = await _matches(persistence).held("m1")
    assert held.live.facts.status == "running" and held.seq == 5
    assert persistence.reads == 2
