"""Turning a finished platform match into a tournament result: ranks, clock forfeits, knockout draws."""

from __future__ import annotations

import pytest

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.tournaments import TournamentConfig, machine
from gamehall_services.matchmaking.documents import PairingMatch, TournamentDoc
from gamehall_services.matchmaking.kv import Unchanged
from gamehall_services.matchmaking.tournaments import _record


def _doc(fmt: str = "swiss") -> TournamentDoc:
    t = machine.create(
        "t1",
        TournamentConfig(
            game="g", mode="duel", format=fmt, registration_opens=0, registration_closes=10, check_in=False
        ),
    )  # type: ignore[arg-type]
    for k, player in enumerate(("a", "b", "c", "d")):
        t = machine.register(t, player, 10.0 - k, 1.0)
    t = machine.start(t, 2.0)
    doc = TournamentDoc(t, "cup", "op", 0.0)
    for n, pairing in enumerate(machine.current_pairings(t)):
        doc.matches[pairing.id] = PairingMatch(f"m{n}", 0.0)
    return doc


def _match(doc: TournamentDoc, n: int) -> tuple[str, ppb.MatchRecord]:
    pairing = machine.current_pairings(doc.tournament)[n]
    return pairing.id, ppb.MatchRecord(id=doc.matches[pairing.id].match_id)


def test_ranks_are_recorded_once() -> None:
    doc = _doc()
    pairing_id, match = _match(doc, 0)
    _record(doc, pairing_id, match, [2, 1], "")
    recorded = next(p for p in doc.tournament.pairings if p.id == pairing_id)
    assert recorded.result is not None and recorded.result.ranks == (2, 1)
    with pytest.raises(Unchanged):  # the same outcome delivered again
        _record(doc, pairing_id, match, [2, 1], "")


def test_a_clock_forfeit_names_the_seat_that_ran_out() -> None:
    doc = _doc()
    pairing_id, match = _match(doc, 1)
    _record(doc, pairing_id, match, [1, 2], "forfeit: seat 1 ran out of time")
    pairing = next(p for p in doc.tournament.pairings if p.id == pairing_id)
    assert pairing.result is not None and pairing.result.reason == "clock"
    assert pairing.result.forfeited == (pairing.players[1],)


def test_a_drawn_knockout_game_sends_the_better_seed_through() -> None:
    doc = _doc("single-elimination")
    pairing_id, match = _match(doc, 0)
    _record(doc, pairing_id, match, [1, 1], "")
    pairing = next(p for p in doc.tournament.pairings if p.id == pairing_id)
    seeds = {e.player: e.seed for e in doc.tournament.entrants}
    winner = pairing.players[pairing.result.ranks.index(1)]  # type: ignore[union-attr]
    assert seeds[winner] == min(seeds[p] for p in pairing.players)


def test_a_result_for_another_match_is_ignored() -> None:
    doc = _doc()
    pairing_id, _ = _match(doc, 0)
    with pytest.raises(Unchanged):
        _record(doc, pairing_id, ppb.MatchRecord(id="not-this-one"), [1, 2], "")
