"""The finished-match consumer leaves the ratings alone when persistence rated the match with its finish, rates
from the event alone an older persistence's event with seats, and looks the match up only for an event older
still (which carries no seats)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from gamehall.engine import registry
from gamehall.events.v1 import match_pb2
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matchmaking import Rating
from gamehall.testing.high_card import GAME as HIGH_CARD
from gamehall_sdk.v1 import common_pb2
from gamehall_services.matchmaking.finished import FinishedMatches
from gamehall_services.matchmaking.ratings import Ratings


@pytest.fixture(autouse=True)
def _high_card(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(registry, "_games", {HIGH_CARD.id: HIGH_CARD})
    monkeypatch.setattr(registry, "_loaded_entry_points", True)
    yield


class _Store:
    """Ratings as the matchmaking store keeps them (every player starts at the default)."""

    def __init__(self) -> None:
        self.recorded: list[tuple[str, str, str, list[str]]] = []

    async def ratings(self, game: str, mode: str, players: Sequence[str]) -> dict[str, Rating]:
        return {p: Rating() for p in players}

    async def record_ratings(
        self, match_id: str, game: str, mode: str, before: dict[str, Rating], after: dict[str, Rating]
    ) -> bool:
        self.recorded.append((match_id, game, mode, sorted(after)))
        return True


class _Records:
    def __init__(self) -> None:
        self.looked_up: list[str] = []

    async def record(self, match_id: str) -> ppb.MatchRecord:
        self.looked_up.append(match_id)
        seats = [ppb.SeatRecord(seat=k, kind="human", account_id=f"acc{k}") for k in range(2)]
        return ppb.MatchRecord(id=match_id, game=HIGH_CARD.id, mode="duel", seats=seats)


class _Book:
    def __init__(self) -> None:
        self.closed: list[str] = []
        self.woken = 0
        self.stepped: list[str] = []

    async def on_match_closed(self, match: ppb.MatchRecord, ranks: list[int], reason: str) -> bool:
        self.closed.append(match.id)
        return True

    def result_recorded(self, tournament_id: str) -> None:
        self.woken += 1
        self.stepped.append(tournament_id)


def _event(
    match_id: str, *, seats: bool, tournament_id: str = "", second: str = "bot", ratings_settled: bool = False
) -> Any:
    event = match_pb2.MatchEvent(match_id=match_id, version=10, game=HIGH_CARD.id)
    event.finished.outcome.CopyFrom(common_pb2.Outcome(ranks=[1, 2], reason="all cards played"))
    event.finished.ratings_settled = ratings_settled
    if seats:
        event.finished.mode = "duel"
        event.finished.tournament_id = tournament_id
        event.finished.seats.extend(
            [
                match_pb2.SeatJoined(seat=0, account_id="acc0", kind="human"),
                match_pb2.SeatJoined(seat=1, account_id="acc1" if second == "human" else "", kind=second),
            ]
        )
    return SimpleNamespace(data=event.SerializeToString())


def _consumer() -> tuple[FinishedMatches, _Store, _Records, _Book]:
    store, records, book = _Store(), _Records(), _Book()
    return FinishedMatches(records, Ratings(store), book), store, records, book  # type: ignore[arg-type]


async def test_a_finish_persistence_rated_is_not_rated_again_and_its_tournament_still_steps() -> None:
    handler, store, records, book = _consumer()
    await handler.handle(_event("m0", seats=True, second="human", ratings_settled=True))
    await handler.handle(_event("m0t", seats=True, second="human", ratings_settled=True, tournament_id="t1"))
    assert (store.recorded, records.looked_up, book.closed, book.woken) == ([], [], [], 1)
    assert book.stepped == ["t1"]  # the tournament the event names, not every one


async def test_an_older_persistence_s_settled_finish_is_rated_from_the_event_with_no_lookup() -> None:
    handler, store, records, book = _consumer()
    await handler.handle(_event("m1", seats=True, second="human"))
    assert store.recorded == [("m1", HIGH_CARD.id, "duel", ["acc0", "acc1"])]
    assert (records.looked_up, book.closed, book.woken) == ([], [], 0)


async def test_a_settled_tournament_finish_wakes_the_driver_without_recording_again() -> None:
    handler, store, records, book = _consumer()
    await handler.handle(_event("m2", seats=True, tournament_id="t1"))
    assert (records.looked_up, book.closed, book.woken) == ([], [], 1)
    assert store.recorded == []  # one human against a bot: not rated


async def test_an_older_persistence_s_event_is_looked_up_and_recorded_as_before() -> None:
    handler, store, records, book = _consumer()
    await handler.handle(_event("m3", seats=False))
    assert (records.looked_up, book.closed, book.woken) == (["m3"], ["m3"], 0)
    assert store.recorded == [("m3", HIGH_CARD.id, "duel", ["acc0", "acc1"])]
