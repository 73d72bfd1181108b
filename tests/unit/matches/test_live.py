"""A live match in memory: judged moves change nothing until committed, request ids are remembered,
every audience gets its own view, and the state after any step is what the log rebuilds."""

from __future__ import annotations

import gc
import random
from typing import Any

import pytest

from gamehall.engine import Game, get_game
from gamehall.engine.errors import IllegalAction
from gamehall.matches import LiveMatch, MatchFacts, MatchNotRunning, SeatFacts, VersionConflict
from gamehall.matches.clocks import ClockSpec
from gamehall.matches.errors import MatchNotStarted
from gamehall.matches.live import SNAPSHOT_EVERY, LoggedAction, Step
from gamehall.wire import event_to_proto

GAMES = ["grimmoir", "tiny-epic-quest", "grimslingers"]


def new_match(game: Game[Any], seed: int = 7, status: str = "running", clock: ClockSpec | None = None) -> LiveMatch:
    config = game.configure()
    facts = MatchFacts(
        id="m1",
        game=game.id,
        status=status,
        seed=seed,
        config=config.to_json(),
        seats=tuple(SeatFacts(s, "human", f"acct-{s}") for s in range(config.seats)),
        clock=clock or ClockSpec(),
    )
    return LiveMatch.rebuild(game, facts, None, 0, [])


def random_move(live: LiveMatch, rng: random.Random) -> tuple[int, Any]:
    seat = rng.choice(live.to_act)
    return seat, rng.choice(live.legal(seat))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_log_rebuilds_exactly_the_state_the_owner_holds(game_id: str) -> None:
    game, rng = get_game(game_id), random.Random(3)
    live = new_match(game)
    log: list[LoggedAction] = []
    snapshot: tuple[bytes, int] | None = None
    while live.outcome() is None and live.version < 200:
        seat, action = random_move(live, rng)
        step = live.play(seat, action, f"req-{live.version}", now_ms=0)
        live.commit(step)
        log.append(LoggedAction(step.version, seat, step.action_json))
        if step.wants_snapshot():
            snapshot = (step.encoded, step.version)
    from_seed = LiveMatch.rebuild(game, live.facts, None, 0, log)
    assert game.encode(from_seed.state) == game.encode(live.state) and from_seed.version == live.version
    if snapshot is not None:  # a takeover: the newest snapshot plus the tail
        tail = [entry for entry in log if entry.version > snapshot[1]]
        taken = LiveMatch.rebuild(game, live.facts, snapshot[0], snapshot[1], tail)
        assert game.encode(taken.state) == game.encode(live.state)


def test_a_judged_move_changes_nothing_until_it_is_committed() -> None:
    game = get_game("grimmoir")
    live = new_match(game)
    before = game.encode(live.state)
    seat, action = random_move(live, random.Random(1))
    step = live.play(seat, action, "r1", now_ms=1000)
    assert (step.version, live.version) == (1, 0)
    assert game.encode(live.state) == before  # the append may still lose the compare-and-swap
    live.commit(step)
    assert live.version == 1 and game.encode(live.state) == step.encoded
    with pytest.raises(VersionConflict):
        live.commit(step)  # a step is committed once


def test_expected_version_and_status_are_checked_before_the_engine() -> None:
    game = get_game("grimmoir")
    live = new_match(game)
    seat, action = random_move(live, random.Random(1))
    with pytest.raises(VersionConflict, match="version 0, not the expected 4"):
        live.play(seat, action, "r1", now_ms=0, expected_version=4)
    with pytest.raises(MatchNotStarted):
        new_match(game, status="open").play(seat, action, "r1", now_ms=0)
    live.close("finished", {"ranks": [1, 2], "reason": "forfeit"})
    with pytest.raises(MatchNotRunning, match="is finished"):
        live.play(seat, action, "r1", now_ms=0)
    assert live.to_act == [] and live.legal(seat) == []


def test_a_move_on_a_version_gone_by_is_a_conflict_even_when_its_action_is_no_longer_legal() -> None:
    """The cluster soak's case: a client's move at version v landed though its answer was lost, and the
    client's next move, chosen from v's legal actions, names the card it already played. It moved on a version
    gone by: a conflict (ABORTED, re-read and retry), not "no legal action" from the newer state."""
    game = get_game("grimmoir")
    live = new_match(game)
    seat, action = random_move(live, random.Random(1))
    played_id = live.describe(action)[0]
    live.commit(live.play(seat, action, "r1", now_ms=0, expected_version=0))
    with pytest.raises(VersionConflict, match="version 1, not the expected 0"):
        live.require_version(0)
        live.resolve(seat, action_id_=played_id)
    live.require_version(1)  # the current version passes


def test_an_action_that_is_not_legal_is_refused_by_the_engine() -> None:
    live = new_match(get_game("grimmoir"))
    with pytest.raises(IllegalAction, match="no legal action with id 'no-such-move'"):
        live.resolve(live.to_act[0], action_id_="no-such-move")
    assert live.version == 0


def test_a_retried_request_returns_the_first_step_and_another_seats_same_id_is_its_own_request() -> None:
    game = get_game("grimmoir")
    live = new_match(game)
    seat, action = random_move(live, random.Random(1))
    step = live.play(seat, action, "once", now_ms=0)
    live.commit(step)
    again = live.remembered("once", seat)
    assert again is not None and again.version == step.version and again.action_id == step.action_id
    assert live.remembered("never", seat) is None
    other = 1 - seat
    assert live.remembered("once", other) is None and not live.logged_before("once", other)
    while other not in live.to_act:  # play on (fresh ids) until the other seat is to act
        s, a = random_move(live, random.Random(live.version))
        live.commit(live.play(s, a, f"r{live.version}", now_ms=0))
    theirs = live.play(other, live.legal(other)[0], "once", now_ms=0)
    live.commit(theirs)
    assert live.remembered("once", other).version == theirs.version  # type: ignore[union-attr]
    assert live.remembered("once", seat).version == step.version  # type: ignore[union-attr]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_remembered_step_gives_back_the_state_and_events_of_its_version(game_id: str) -> None:
    game, rng = get_game(game_id), random.Random(11)
    live = new_match(game)
    steps: list[Step] = []
    for n in range(30):
        if not live.to_act:
            break
        seat, action = random_move(live, rng)
        steps.append(live.play(seat, action, f"r{n}", now_ms=0))
        live.commit(steps[-1])
    for step in steps:
        kept = live.remembered(step.request_id, step.seat)
        assert kept is not None and kept.version == step.version
        assert game.encode(kept.state(game)) == step.encoded
        assert [event_to_proto(e) for e in kept.events()] == [event_to_proto(e) for e in step.events]
        assert kept.logged_action() == LoggedAction(
            step.version, step.seat, dict(step.action_json), step.request_id, step.action_id, step.label
        )


def _tracked_under(root: object) -> int:
    """Objects the cyclic collector tracks that `root` reaches (itself included), game classes aside."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or not gc.is_tracked(obj) or isinstance(obj, type):
            continue
        seen.add(id(obj))
        stack.extend(gc.get_referents(obj))
    return len(seen)


@pytest.mark.parametrize("game_id", GAMES)
def test_remembered_steps_cost_the_collector_about_one_object_each(game_id: str) -> None:
    """A replica holds thousands of matches: each full collection walks every object they keep. Whole steps
    (a state and its events each) made full collections stall every move for a third of a second."""
    game, rng = get_game(game_id), random.Random(3)
    live = new_match(game)
    for n in range(40):
        if not live.to_act:
            break
        seat, action = random_move(live, rng)
        live.commit(live.play(seat, action, f"r{n}", now_ms=0))
    gc.collect()  # tuples of untracked items are untracked by a collection
    assert _tracked_under(live.recent) <= 3 * len(live.recent) + 1


@pytest.mark.parametrize("game_id", GAMES)
def test_each_audience_sees_only_its_own_view_and_events(game_id: str) -> None:
    game, rng = get_game(game_id), random.Random(5)
    live = new_match(game)
    for _ in range(12):
        if live.outcome() is not None:
            break
        seat, action = random_move(live, rng)
        step = live.play(seat, action, f"r{live.version}", now_ms=0)
        live.commit(step)
        views = live.views(step)
        assert [v.seat for v in views] == [*range(len(live.facts.seats)), None]
        for view in views:
            assert view.view == game.view(step.state, view.seat)
            assert all(e.visible_to(view.seat) for e in view.events)
            hidden = [e for e in step.events if not e.visible_to(view.seat)]
            assert not set(map(id, hidden)) & set(map(id, view.events))


def test_snapshots_every_few_dozen_versions_and_at_the_end() -> None:
    game = get_game("grimmoir")
    live = new_match(game)
    rng, snapshots = random.Random(9), []
    while live.outcome() is None:
        seat, action = random_move(live, rng)
        step = live.play(seat, action, f"r{live.version}", now_ms=0)
        live.commit(step)
        if step.wants_snapshot():
            snapshots.append(step.version)
    assert snapshots[-1] == live.version and live.facts.status == "finished"
    assert all(v % SNAPSHOT_EVERY == 0 for v in snapshots[:-1])


def test_the_clock_follows_each_step() -> None:
    game = get_game("grimmoir")
    live = new_match(game, clock=ClockSpec(per_move_ms=30_000))
    seat, action = random_move(live, random.Random(2))
    step = live.play(seat, action, "r1", now_ms=5_000)
    assert list(step.clock_state["to_act"]) == list(step.to_act)
    assert step.deadlines(live.facts) == {s: 35_000 for s in step.to_act}
