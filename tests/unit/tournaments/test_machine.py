"""The tournament state machine: each transition validates and raises its named error; data round-trips."""

from __future__ import annotations

import random

import pytest

from gamehall.tournaments import (
    AlreadyRegistered,
    IllegalTransition,
    InvalidConfig,
    InvalidResult,
    NotRegistered,
    RegistrationClosed,
    ResultAlreadyRecorded,
    RoundNotComplete,
    TooFewPlayers,
    Tournament,
    TournamentConfig,
    TournamentFull,
    UnknownPairing,
    adjudicate,
    cancel,
    check_in,
    create,
    current_pairings,
    decode,
    drop,
    encode,
    finish,
    machine,
    next_round,
    pause,
    record_forfeit,
    record_result,
    record_results,
    register,
    repair,
    resume,
    round_pairings,
    standings,
    start,
    unregister,
)
from tests.unit.tournaments.helpers import build, play_round

CONFIG = TournamentConfig("grimmoir", "duel", "swiss", registration_opens=10.0, registration_closes=20.0, rounds=3)


def registered(n: int, config: TournamentConfig = CONFIG) -> Tournament:
    t = create("cup", config)
    for k in range(n):
        t = check_in(register(t, f"p{k}", 1500 + k, now=15.0), f"p{k}")
    return t


def test_registration_rules() -> None:
    t = create("cup", CONFIG)
    with pytest.raises(RegistrationClosed):
        register(t, "early", 1500, now=9.0)
    t = register(t, "a", 1500, now=10.0)
    with pytest.raises(AlreadyRegistered):
        register(t, "a", 1500, now=11.0)
    with pytest.raises(NotRegistered):
        unregister(t, "ghost")
    with pytest.raises(NotRegistered):
        check_in(t, "ghost")
    assert unregister(t, "a").entrants == []
    full = create("cup", TournamentConfig("g", "m", "swiss", 0.0, 1.0, max_players=1))
    full = register(full, "x", 1500, now=0.5)
    with pytest.raises(TournamentFull):
        register(full, "y", 1500, now=0.5)


def test_only_checked_in_players_start() -> None:
    t = registered(3)
    t = register(t, "late", 2000, now=16.0)
    with pytest.raises(TooFewPlayers):
        start(create("cup", CONFIG), now=21.0)
    started = start(t, now=21.0)
    assert {e.player for e in started.entrants} == {"p0", "p1", "p2"}
    assert [e.seed for e in started.entrants] == [1, 2, 3]
    assert started.entrants[0].player == "p2"  # best rating is seed 1
    with pytest.raises(RegistrationClosed):
        register(started, "z", 1500, now=21.0)
    with pytest.raises(IllegalTransition):
        start(started, now=22.0)


def test_invalid_configs_are_refused() -> None:
    with pytest.raises(InvalidConfig):
        create("x", TournamentConfig("g", "m", "swiss", 5.0, 1.0))
    with pytest.raises(InvalidConfig):
        create("x", TournamentConfig("g", "m", "swiss", 0.0, 1.0, seats=4))
    with pytest.raises(InvalidConfig):
        create("x", TournamentConfig("g", "m", "pods", 0.0, 1.0, seats=6))


def test_results_and_round_flow() -> None:
    t = start(registered(6), now=21.0)
    assert t.round == 1 and len(current_pairings(t)) == 3
    first, second, third = current_pairings(t)
    with pytest.raises(UnknownPairing):
        record_result(t, "nope", [1, 2])
    with pytest.raises(InvalidResult):
        record_result(t, first.id, [1, 2, 3])
    with pytest.raises(InvalidResult):
        record_result(t, first.id, [0, 2])
    before = encode(t)
    t2 = record_result(t, first.id, [1, 2])
    assert encode(t) == before, "transitions never mutate their input"
    with pytest.raises(ResultAlreadyRecorded):
        record_result(t2, first.id, [2, 1])
    with pytest.raises(RoundNotComplete):
        next_round(t2)
    t2 = record_forfeit(t2, second.id, [second.players[0]], "clock")
    with pytest.raises(InvalidResult):
        record_forfeit(t2, third.id, ["stranger"], "no-show")
    t2 = record_forfeit(t2, third.id, list(third.players), "no-show")
    points = {row.player: row.points for row in standings(t2)}
    assert points[second.players[1]] == 1.0 and points[second.players[0]] == 0.0
    assert points[third.players[0]] == points[third.players[1]] == 0.0, "a double forfeit scores nothing"
    t3 = next_round(t2)
    assert t3.round == 2 and len(current_pairings(t3)) == 3
    with pytest.raises(UnknownPairing):
        record_result(t3, first.id, [1, 2])


def test_pause_resume_drop_repair_adjudicate_finish() -> None:
    t = start(registered(6), now=21.0)
    paused = pause(t)
    pairing = current_pairings(paused)[0]
    with pytest.raises(IllegalTransition):
        record_result(paused, pairing.id, [1, 2])
    with pytest.raises(IllegalTransition):
        pause(paused)
    t = resume(paused)
    with pytest.raises(IllegalTransition):
        resume(t)
    # Re-pair before results: unchanged field gives the same pairings; a drop changes them.
    assert [p.players for p in round_pairings(repair(t))] == [p.players for p in round_pairings(t)]
    loser = pairing.players[1]
    dropped = drop(t, loser)
    assert next(p for p in round_pairings(dropped) if p.id == pairing.id).result is not None
    with pytest.raises(IllegalTransition):
        drop(dropped, loser)
    repaired = repair(dropped)
    assert all(loser not in p.players for p in round_pairings(repaired)), "re-pairing leaves the dropped out"
    assert sum(len(p.players) for p in round_pairings(repaired)) == 5
    with pytest.raises(IllegalTransition):
        repair(record_result(repaired, current_pairings(repaired)[0].id, [1, 2]))
    rng = random.Random(2)
    t = next_round(play_round(dropped, rng))
    assert all(loser not in p.players for p in round_pairings(t)), "a dropped player is never paired again"
    some = round_pairings(t)[0]
    t = record_result(t, some.id, [1, 2])
    t = adjudicate(t, some.id, [2, 1])
    adjudicated = next(p for p in t.pairings if p.id == some.id)
    assert adjudicated.result is not None and adjudicated.result.adjudicated and adjudicated.result.ranks == (2, 1)
    with pytest.raises(RoundNotComplete):
        finish(t)
    t = play_round(t, rng)
    done = finish(t)
    assert done.status == "finished"
    with pytest.raises(IllegalTransition):
        next_round(done)
    with pytest.raises(IllegalTransition):
        cancel(done)


def test_tournament_round_trips_through_msgspec() -> None:
    t = play_round(build("double-elimination", 9), random.Random(4), draws=False)
    assert decode(encode(t)) == t


def test_a_swiss_tournament_finishes_after_its_rounds() -> None:
    t = start(registered(5), now=21.0)
    rng = random.Random(5)
    while t.status == "running":
        t = next_round(play_round(t, rng))
    assert t.round == 3 and t.status == "finished"
    byes = [p.players[0] for p in t.pairings if p.is_bye]
    assert len(byes) == 3 == len(set(byes))


def test_pods_seat_by_standings_and_score_by_placement() -> None:
    t = build("pods", 11, seats=4, rounds=3, min_pod=3)
    sizes = sorted(len(p.players) for p in round_pairings(t))
    assert sizes == [3, 4, 4]
    seeds = {e.player: e.seed for e in t.entrants}
    first = round_pairings(t)[0]
    assert sorted(seeds[p] for p in first.players) == [1, 2, 3, 4]
    t = record_result(t, first.id, [2, 1, 3, 3])
    points = {row.player: row.points for row in standings(t)}
    a, b, c, d = first.players
    assert (points[a], points[b], points[c], points[d]) == (2.0, 3.0, 0.5, 0.5)
    rng = random.Random(6)
    while t.status == "running":
        t = next_round(play_round(t, rng))
    assert t.round == 3
    no_min = build("pods", 6, seats=4, rounds=1)
    assert [len(p.players) for p in round_pairings(no_min)] == [4, 1, 1], "leftovers get byes"


def test_record_results_validates_the_whole_batch_first() -> None:
    t = start(registered(6), now=21.0)
    a, b, c = current_pairings(t)
    with pytest.raises(ResultAlreadyRecorded):
        record_results(t, [(a.id, [1, 2]), (a.id, [2, 1])])
    with pytest.raises(UnknownPairing):
        record_results(t, [(a.id, [1, 2]), ("nope", [1, 2])])
    done = record_results(t, [(a.id, [1, 2]), (b.id, [1, 1]), (c.id, [2, 1])])
    assert current_pairings(done) == [] and current_pairings(t) == [a, b, c]


def test_knockout_ranks_send_the_better_seed_through_a_draw_only_in_elimination() -> None:
    knockout = build("single-elimination", 4)
    pairing = next(p for p in current_pairings(knockout) if not p.is_bye)
    seeds = {e.player: e.seed for e in knockout.entrants}
    better_first = seeds[pairing.players[0]] <= seeds[pairing.players[1]]
    assert machine.knockout_ranks(knockout, pairing, [1, 1]) == ([1, 2] if better_first else [2, 1])
    assert machine.knockout_ranks(knockout, pairing, [2, 1]) == [2, 1]  # a decided game stands
    swiss = build("swiss", 4)
    assert machine.knockout_ranks(swiss, current_pairings(swiss)[0], [1, 1]) == [1, 1]  # a draw counts as one
