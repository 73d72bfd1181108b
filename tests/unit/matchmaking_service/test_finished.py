"""The finished-match consumer leaves the ratings and the tournament's inbox to persistence (both written with the
finish) and only wakes the tournament driver for a tournament's match."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from gamehall.events.v1 import match_pb2
from gamehall.runtime.bus import PermanentEventError
from gamehall_sdk.v1 import common_pb2
from gamehall_services.matchmaking.finished import FinishedMatches


class _Book:
    def __init__(self) -> None:
        self.woken = 0
        self.stepped: list[str] = []

    def result_recorded(self, tournament_id: str) -> None:
        self.woken += 1
        self.stepped.append(tournament_id)


def _event(match_id: str, tournament_id: str = "") -> Any:
    event = match_pb2.MatchEvent(match_id=match_id, version=10, game="high-card")
    event.finished.outcome.CopyFrom(common_pb2.Outcome(ranks=[1, 2], reason="all cards played"))
    event.finished.mode = "duel"
    event.finished.tournament_id = tournament_id
    event.finished.ratings_settled = True
    event.finished.seats.extend(
        [match_pb2.SeatJoined(seat=k, account_id=f"acc{k}", kind="human") for k in range(2)]
    )
    return SimpleNamespace(data=event.SerializeToString())


async def test_a_tournament_s_finish_wakes_its_driver_and_another_finish_changes_nothing() -> None:
    book = _Book()
    handler = FinishedMatches(book)
    await handler.handle(_event("m0"))
    assert book.woken == 0
    await handler.handle(_event("m1", tournament_id="t1"))
    assert book.woken == 1 and book.stepped == ["t1"]  # that tournament, not every one


async def test_other_events_are_ignored_and_broken_ones_are_permanent_errors() -> None:
    book = _Book()
    handler = FinishedMatches(book)
    created = match_pb2.MatchEvent(match_id="m2", game="high-card")
    created.created.seats = 2
    await handler.handle(SimpleNamespace(data=created.SerializeToString()))
    with pytest.raises(PermanentEventError, match="not a MatchEvent"):
        await handler.handle(SimpleNamespace(data=b"\xff\xfe not protobuf"))
    with pytest.raises(PermanentEventError, match="without a match id"):
        await handler.handle(_event(""))
    assert book.woken == 0
