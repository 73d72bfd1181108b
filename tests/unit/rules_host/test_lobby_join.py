"""A join's seat claim carries the match's start: the claim that fills a match starts it in the same
transaction, so a join cut off right after its claim (its caller gone, the replica stopped) cannot
leave a full match open with nobody to start it (found by the faults soak)."""

from __future__ import annotations

import asyncio

import pytest

from gamehall.engine import get_game
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches import Caller
from gamehall.matches.lobby import Lobby
from gamehall.matches.testing import FakeClock, MemoryStore
from tests.unit.rules_host.records import match_record

GAME = get_game("grimmoir")


def _open_match(*, bob_seated: bool) -> ppb.MatchRecord:
    bob = ppb.SeatRecord(seat=0, kind="human", account_id="bob") if bob_seated else ppb.SeatRecord(seat=0, kind="open")
    bot = ppb.SeatRecord(seat=1, kind="bot", bot_difficulty="easy")  # the first to act (seed 3)
    return match_record(GAME, [bob, bot], status="open")


class _CutOffAfterClaim(MemoryStore):
    """A store whose caller is cancelled once its seat claim commits (the gateway killed mid-join)."""

    def __init__(self) -> None:
        super().__init__()
        self.claims: list[ppb.ClaimSeatRequest] = []

    async def record(self, match_id: str) -> ppb.MatchRecord:
        if self.claims:
            raise asyncio.CancelledError
        return _open_match(bob_seated=False)

    async def claim_seat(self, request: ppb.ClaimSeatRequest) -> None:
        self.claims.append(request)


async def test_the_last_seat_claim_carries_the_start_of_the_match() -> None:
    persistence = _CutOffAfterClaim()
    lobby = Lobby(GAME, persistence, FakeClock())
    with pytest.raises(asyncio.CancelledError):
        await lobby.join("m1", Caller(account_id="bob", role="player"), None)
    [claim] = persistence.claims
    assert claim.seat == 0
    assert claim.HasField("start_when_full")
    start = claim.start_when_full
    assert '"to_act":[1]' in start.clock_state_json  # the clock starts with the claim
    assert [e.msg_id for e in start.outbox] == [
        e.msg_id for e in lobby._start_request(_open_match(bob_seated=True)).outbox
    ]
    assert start.outbox  # the bot's first turn is announced by the start


def test_the_start_is_dealt_from_the_committed_seed_and_config() -> None:
    lobby = Lobby(GAME, MemoryStore(), FakeClock())
    first = lobby._start_request(_open_match(bob_seated=True))
    again = lobby._start_request(_open_match(bob_seated=True))
    assert first.outbox
    assert [e.msg_id for e in first.outbox] == [e.msg_id for e in again.outbox]
    assert [e.payload for e in first.outbox] == [e.payload for e in again.outbox]
