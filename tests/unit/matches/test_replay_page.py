"""`replay_page`, the library's cut of a replay into pages: by step count and by bytes of encoded views,
the initial view on the first page only; joined in order, the pages are `replay`'s steps."""

from __future__ import annotations

import json
import random

from gamehall.engine import get_game
from gamehall.matches import LiveMatch, MatchFacts, SeatFacts
from gamehall.matches.live import LoggedAction
from gamehall.matches.replay import ReplayPage, replay, replay_page

GAME = get_game("grimmoir")


def _finished_log(steps: int) -> tuple[MatchFacts, list[LoggedAction]]:
    config = GAME.configure()
    seats = tuple(SeatFacts(s, "human", f"a{s}") for s in range(config.seats))
    running = MatchFacts(id="m1", game=GAME.id, status="running", seed=9, config=config.to_json(), seats=seats)
    live, rng, log = LiveMatch.rebuild(GAME, running, None, 0, []), random.Random(5), []
    while live.outcome() is None and live.version < steps:
        seat = rng.choice(live.to_act)
        step = live.play(seat, rng.choice(live.legal(seat)), f"r{live.version}", now_ms=0)
        live.commit(step)
        log.append(LoggedAction(step.version, seat, step.logged()["action"], step.request_id, step.action_id))
    return MatchFacts(**{**running.__dict__, "status": "finished"}), log


def _all_pages(facts: MatchFacts, log: list[LoggedAction], size: int, max_bytes: int) -> list[ReplayPage]:
    found, start = [], 1
    while start:
        found.append(replay_page(GAME, facts, log, None, True, start, size, max_bytes, encode=json.dumps))
        start = found[-1].next_version
    return found


def test_pages_by_count_and_by_bytes_join_into_the_replay() -> None:
    facts, log = _finished_log(30)
    initial, steps = replay(GAME, facts, log, None, True)
    one_view = len(json.dumps(steps[0].view))
    for size, max_bytes in ((4, 10**9), (0, int(one_view * 2.5)), (0, 1)):
        found = _all_pages(facts, log, size, max_bytes)
        assert len(found) > 2
        assert json.loads(found[0].initial_view_json) == initial
        assert not any(p.initial_view_json for p in found[1:])
        assert [s.version for p in found for s, _ in p.steps] == [s.version for s in steps]
        assert [json.loads(text) for p in found for _, text in p.steps] == [s.view for s in steps]
        assert all(p.steps for p in found)  # a view over the byte bound still makes a page of its own
        if max_bytes == 1:
            assert all(len(p.steps) == 1 for p in found[1:])
        if size:
            assert all(len(p.steps) <= size for p in found)
        else:
            assert all(sum(len(t) for _, t in p.steps) <= max_bytes or len(p.steps) == 1 for p in found[1:])
