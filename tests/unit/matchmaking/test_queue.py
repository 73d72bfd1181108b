"""Queue matching: shapes and parties, widening windows, starvation, bots, determinism, the Queue object."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamehall.engine.protocol import Mode
from gamehall.matchmaking import (
    AlreadyQueued,
    Constraints,
    InvalidTicket,
    Match,
    MatchPolicy,
    MatchShape,
    Member,
    Queue,
    Rating,
    Ticket,
    UnknownTicket,
    match_pass,
    predict_draw,
)

POLICY = MatchPolicy(initial_window=2.0, growth_per_s=0.5, max_window=10.0, max_wait_s=60.0)


def ticket(tid: str, mu: float, at: float = 0.0, party: int = 1, pool: str = "", bots: bool = True) -> Ticket:
    members = tuple(Member(f"{tid}-{k}", Rating(mu, 3.0)) for k in range(party))
    return Ticket(tid, "g", "m", members, at, Constraints(pool, bots))


def random_tickets(rng: random.Random, n: int, shape: MatchShape, party_odds: float) -> list[Ticket]:
    out = []
    largest = shape.team_size if not shape.free_for_all else shape.seats
    for k in range(n):
        party = rng.randint(2, largest) if largest > 1 and rng.random() < party_odds else 1
        out.append(ticket(f"t{k}", rng.gauss(25, 5), rng.uniform(0, 120), party, rng.choice(["", "", "eu"])))
    return out


def check_pass(tickets: list[Ticket], shape: MatchShape, matches: list[Match], remaining: list[Ticket]) -> None:
    by_id = {t.id: t for t in tickets}
    used = [tid for m in matches for tid in m.tickets]
    assert len(used) == len(set(used)), "a ticket is in two matches"
    assert set(used) | {t.id for t in remaining} == set(by_id)
    assert not set(used) & {t.id for t in remaining}
    for m in matches:
        assert len(m.teams) == shape.teams
        assert all(len(team) == shape.team_size for team in m.teams)
        assert len({by_id[tid].constraints.pool for tid in m.tickets}) == 1
        seated = [s.player for team in m.teams for s in team if s.player is not None]
        assert sorted(seated) == sorted(p for tid in m.tickets for p in by_id[tid].players())
        if not shape.free_for_all:
            for tid in m.tickets:
                teams_of_party = {i for i, team in enumerate(m.teams) for s in team if s.ticket == tid}
                assert len(teams_of_party) == 1, "a party was split across teams"
        assert m.quality == pytest.approx(predict_draw([[s.rating for s in team] for team in m.teams]))


SHAPES = [MatchShape(2, 1), MatchShape(4, 1), MatchShape(2, 2), MatchShape(2, 3), MatchShape(3, 2)]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 80), st.sampled_from(SHAPES), st.floats(0, 0.6))
def test_matches_have_the_right_shape_and_parties_stay_together(
    seed: int, n: int, shape: MatchShape, party_odds: float
) -> None:
    rng = random.Random(seed)
    tickets = random_tickets(rng, n, shape, party_odds)
    policy = MatchPolicy(bot_fill_after=100.0 if seed % 2 else None)
    result = match_pass(tickets, shape, 130.0, policy)
    check_pass(tickets, shape, result.matches, result.remaining)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(SHAPES))
def test_a_pass_is_deterministic_and_ignores_input_order(seed: int, shape: MatchShape) -> None:
    rng = random.Random(seed)
    tickets = random_tickets(rng, 40, shape, 0.3)
    first = match_pass(tickets, shape, 90.0, POLICY)
    shuffled = list(tickets)
    rng.shuffle(shuffled)
    second = match_pass(shuffled, shape, 90.0, POLICY)
    assert first.matches == second.matches
    assert match_pass(tickets, shape, 90.0, POLICY) == first


def test_windows_widen_with_waiting_time() -> None:
    a, b = ticket("a", 20.0, at=0.0), ticket("b", 25.0, at=0.0)
    assert match_pass([a, b], MatchShape(2), now=0.0, policy=POLICY).matches == []
    # After 5 s both windows are 2 + 0.5 * 5 = 4.5 < 5; after 6 s they are 5.
    assert match_pass([a, b], MatchShape(2), now=5.0, policy=POLICY).matches == []
    made = match_pass([a, b], MatchShape(2), now=6.0, policy=POLICY).matches
    assert [m.tickets for m in made] == [("a", "b")]
    assert made[0].reason == "window"


def test_both_tickets_must_accept_the_gap() -> None:
    veteran, newcomer = ticket("old", 20.0, at=0.0), ticket("new", 25.0, at=20.0)
    # The veteran's window (12) covers the gap, the newcomer's (2) does not.
    assert match_pass([veteran, newcomer], MatchShape(2), now=20.0, policy=POLICY).matches == []


def test_closest_pairs_are_preferred() -> None:
    tickets = [ticket("a", 20.0, 0), ticket("b", 21.0, 0), ticket("c", 21.2, 0), ticket("d", 22.5, 0)]
    # Closest pair first (b, c); the leftovers a and d still accept each other's 2.5 gap.
    made = match_pass(tickets, MatchShape(2), now=10.0, policy=POLICY).matches
    assert [m.tickets for m in made] == [("b", "c"), ("a", "d")]
    assert made[0].quality > made[1].quality
    # At once, windows of 2 exclude the 2.5 gap of a-d.
    early = match_pass(tickets, MatchShape(2), now=0.0, policy=POLICY).matches
    assert [m.tickets for m in early] == [("b", "c")]


def test_a_long_waiter_is_never_starved() -> None:
    loner = ticket("loner", 45.0, at=0.0)
    crowd = [ticket(f"c{k}", 25.0 + k * 0.1, at=100.0) for k in range(3)]
    shape = MatchShape(2)
    assert all("loner" not in m.tickets for m in match_pass([loner, *crowd], shape, 59.0 + 100 * 0, POLICY).matches)
    made = match_pass([loner, *crowd], shape, now=101.0, policy=POLICY).matches
    forced = [m for m in made if "loner" in m.tickets]
    assert len(forced) == 1 and forced[0].reason == "max-wait"
    assert forced[0].tickets == ("c2", "loner")  # the nearest in skill


def test_starving_ticket_waits_only_while_no_match_is_feasible() -> None:
    shape = MatchShape(4)
    loner = ticket("loner", 40.0, at=0.0)
    assert match_pass([loner, ticket("x", 20.0, 100)], shape, 100.0, POLICY).matches == []
    made = match_pass([loner, *(ticket(f"x{k}", 20.0, 100) for k in range(3))], shape, 100.0, POLICY).matches
    assert len(made) == 1 and made[0].reason == "max-wait"


def test_bots_fill_a_match_after_the_wait() -> None:
    policy = MatchPolicy(bot_fill_after=30.0)
    solo = ticket("solo", 30.0, at=0.0, party=2)
    assert match_pass([solo], MatchShape(2, 2), 29.0, policy).matches == []
    made = match_pass([solo], MatchShape(2, 2), 31.0, policy).matches
    assert len(made) == 1 and made[0].reason == "bot-fill" and made[0].bots == 2
    assert {s.player for s in made[0].teams[0]} == {"solo-0", "solo-1"}
    no_bots = ticket("human-only", 30.0, at=0.0, bots=False)
    assert match_pass([no_bots], MatchShape(2), 31.0, policy).matches == []


def test_pools_never_meet() -> None:
    made = match_pass([ticket("a", 25, pool="eu"), ticket("b", 25, pool="us")], MatchShape(2), 500.0, POLICY).matches
    assert made == []


def test_team_balance_puts_strong_and_weak_together() -> None:
    tickets = [ticket("s1", 30.0), ticket("s2", 30.5), ticket("w1", 29.0), ticket("w2", 29.5)]
    made = match_pass(tickets, MatchShape(2, 2), 30.0, POLICY).matches
    assert len(made) == 1
    teams = [sorted(s.ticket or "" for s in team) for team in made[0].teams]
    assert sorted(teams) == [["s1", "w1"], ["s2", "w2"]] or sorted(teams) == [["s1", "w2"], ["s2", "w1"]]


def test_shape_from_engine_mode() -> None:
    assert MatchShape.from_mode(Mode("teams", "Teams", (4, 6), team_size=2), 6) == MatchShape(3, 2)
    assert MatchShape.from_mode(Mode("ffa", "FFA", (3, 4)), 4) == MatchShape(4, 1)
    with pytest.raises(InvalidTicket):
        MatchShape.from_mode(Mode("ffa", "FFA", (3, 4)), 5)


def test_queue_enforces_one_ticket_per_player_per_game() -> None:
    queue = Queue("g", {"m": MatchShape(2, 2), "duel": MatchShape(2)})
    queue.enqueue(ticket("party", 25, party=2))
    with pytest.raises(AlreadyQueued) as err:
        queue.enqueue(Ticket("again", "g", "duel", (Member("party-1"),), 0.0))
    assert err.value.player == "party-1" and err.value.ticket == "party"
    with pytest.raises(InvalidTicket):
        queue.enqueue(Ticket("other-game", "h", "m", (Member("z"),), 0.0))
    with pytest.raises(InvalidTicket):
        queue.enqueue(Ticket("no-mode", "g", "ranked", (Member("z"),), 0.0))
    with pytest.raises(InvalidTicket):
        queue.enqueue(ticket("too-big", 25, party=3))
    with pytest.raises(UnknownTicket):
        queue.cancel("nope")
    queue.cancel("party")
    queue.enqueue(Ticket("again", "g", "duel", (Member("party-1"),), 0.0))
    assert queue.ticket_of("party-1") is not None and len(queue) == 1


def test_queue_pass_removes_matched_tickets() -> None:
    queue = Queue("g", {"m": MatchShape(2)})
    for k in range(5):
        queue.enqueue(ticket(f"t{k}", 25.0 + k * 0.1, at=0.0))
    made = queue.run_pass(10.0, POLICY)
    assert len(made) == 2 and len(queue) == 1
    assert queue.ticket_of(queue.tickets()[0].players()[0]) is not None
    matched_player = made[0].teams[0][0].player
    assert matched_player is not None and queue.ticket_of(matched_player) is None


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_the_one_on_one_fast_path_equals_the_general_rule(seed: int) -> None:
    from gamehall.matchmaking import queue as impl

    rng = random.Random(seed)
    tickets = [
        Ticket(f"t{k}", "g", "m", (Member(f"p{k}", Rating(rng.gauss(25, 4), rng.uniform(1, 8))),), rng.uniform(0, 50))
        for k in range(60)
    ]
    fast = impl._window_pairs(impl._Pool(list(tickets), 50.0, POLICY), POLICY)
    general = impl._window_groups(impl._Pool(list(tickets), 50.0, POLICY), MatchShape(2), POLICY)
    assert [m.tickets for m in fast] == [m.tickets for m in general]
    assert [m.quality for m in fast] == pytest.approx([m.quality for m in general])
