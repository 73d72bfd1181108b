"""A match a replica has just started is held from its start: its first calls read no projection and no log
(ARCHITECTURE "the move path": the owner keeps a running match in memory)."""

from __future__ import annotations

from typing import Any

from gamehall.engine import get_game
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall_services.rules.live import LiveMatches
from tests.unit.rules_host.records import match_record

GAME = get_game("grimmoir")


def _record(status: str = "running", version: int = 0, game: str = GAME.id) -> ppb.MatchRecord:
    seats = [
        ppb.SeatRecord(seat=0, kind="human", account_id="a"),
        ppb.SeatRecord(seat=1, kind="bot", bot_difficulty="easy"),
    ]
    return match_record(GAME, seats, status=status, version=version, game_id=game)


class _Counting:
    """Persistence and a match log that count what a load asks them (and answer like the store would)."""

    def __init__(self) -> None:
        self.loads = 0

    async def LoadMatchState(self, request: ppb.LoadMatchStateRequest, timeout: float) -> ppb.LoadMatchStateResponse:
        self.loads += 1
        return ppb.LoadMatchStateResponse(match=_record())

    async def tail(self, game: str, match_id: str, after_seq: int) -> list[Any]:
        return []

    async def last_seq(self, game: str, match_id: str) -> int:
        return 0


def _matches(backend: _Counting) -> LiveMatches:
    return LiveMatches(GAME, lambda: backend, log=lambda: backend)  # type: ignore[arg-type,return-value]


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
