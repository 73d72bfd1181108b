"""Which seats a finished match rates: humans only, grouped by team, each team at its best seat's rank;
and a ledger write that applies each match once."""

from __future__ import annotations

import asyncio
import json

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matchmaking import Ledger
from gamehall_services.matchmaking.kv import Documents
from gamehall_services.matchmaking.ratings import Ratings, rated_teams
from tests.unit.matchmaking_service.fakes import FakeKV


def _match(kinds: list[str], match_id: str = "m1") -> ppb.MatchRecord:
    record = ppb.MatchRecord(id=match_id, game="high-card", config_json=json.dumps({"mode": "duel", "seats": 2}))
    for n, kind in enumerate(kinds):
        record.seats.add(seat=n, kind=kind, account_id=f"acc{n}" if kind == "human" else "")
    return record


def test_humans_are_rated_and_bots_are_not() -> None:
    assert rated_teams(_match(["human", "human"]), [2, 1]) == ([["acc0"], ["acc1"]], [2, 1])
    assert rated_teams(_match(["human", "bot"]), [1, 2]) is None


def test_a_match_is_rated_once_however_often_it_arrives() -> None:
    async def scenario() -> None:
        kv = FakeKV()
        ratings = Ratings(Documents(kv, "ledger", Ledger))  # type: ignore[arg-type]
        match = _match(["human", "human"])
        first = await ratings.apply(match, [1, 2])
        assert first is not None and len(first) == 2
        writes = kv.writes
        assert await ratings.apply(match, [1, 2]) is None
        assert kv.writes == writes  # nothing written for the duplicate
        winner = await ratings.rating("high-card", "duel", "acc0")
        assert winner.matches == 1 and winner.mu > 25

    asyncio.run(scenario())
