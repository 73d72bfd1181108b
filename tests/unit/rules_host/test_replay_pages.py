"""The owner's replay pages (GetReplay, AIP-158): in version order, bounded by steps and by bytes of views, the
initial view on the first page only; joined, the pages are exactly the unpaged replay."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gamehall.engine import get_game
from gamehall.matches import LiveMatch, MatchFacts, SeatFacts
from gamehall.matches.live import LoggedAction
from gamehall.matches.owner import MatchOwner
from gamehall.matches.replay import replay
from gamehall.matches.testing import MemoryLog, MemoryStore
from gamehall.wire import pages

GAME = get_game("grimmoir")


def _played(steps: int) -> tuple[MatchFacts, list[LoggedAction]]:
    config = GAME.configure()
    facts = MatchFacts(
        id="m1",
        game=GAME.id,
        status="finished",
        seed=4,
        config=config.to_json(),
        seats=tuple(SeatFacts(s, "human", f"a{s}") for s in range(config.seats)),
    )
    live = LiveMatch.rebuild(GAME, MatchFacts(**{**facts.__dict__, "status": "running"}), None, 0, [])
    rng, log = random.Random(2), []
    while live.outcome() is None and live.version < steps:
        seat = rng.choice(live.to_act)
        step = live.play(seat, rng.choice(live.legal(seat)), f"r{live.version}", now_ms=0)
        live.commit(step)
        log.append(LoggedAction(step.version, seat, step.logged()["action"], step.request_id, step.action_id))
    return facts, log


def _pages(owner: MatchOwner, facts: MatchFacts, log: list[LoggedAction], size: int) -> list[Any]:
    found, start = [], 1
    while start:
        page, start = owner._replay_page(facts, log, None, True, start, size)
        found.append(page)
    return found


def test_pages_by_step_count_join_into_the_whole_replay_in_order() -> None:
    facts, log = _played(40)
    owner = MatchOwner(GAME, MemoryStore(), MemoryLog())
    found = _pages(owner, facts, log, 7)
    assert [len(p.steps) for p in found] == [7] * (len(log) // 7) + ([len(log) % 7] if len(log) % 7 else [])
    assert [s.version for p in found for s in p.steps] == list(range(1, len(log) + 1))
    assert found[0].initial_view_json and not any(p.initial_view_json for p in found[1:])
    initial, steps = replay(GAME, facts, log, None, True)
    assert json.loads(found[0].initial_view_json) == initial
    assert [json.loads(s.view_json) for p in found for s in p.steps] == [s.view for s in steps]
    whole, after = owner._replay_page(facts, log, None, True, 1, 0)  # 0: no count limit
    assert after == 0 and len(whole.steps) == len(log)


def test_a_page_stops_before_its_views_pass_the_byte_budget_but_serves_at_least_one_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    facts, log = _played(30)
    owner = MatchOwner(GAME, MemoryStore(), MemoryLog())
    one_view = len(owner._replay_page(facts, log, None, True, 2, 1)[0].steps[0].view_json)
    monkeypatch.setattr(pages, "REPLAY_PAGE_BYTES", int(one_view * 3.5))
    found = _pages(owner, facts, log, 500)
    assert all(1 <= len(p.steps) <= 3 for p in found) and len(found) > len(log) // 4
    assert all(sum(len(s.view_json) for s in p.steps) <= pages.REPLAY_PAGE_BYTES for p in found[1:])
    assert [s.version for p in found for s in p.steps] == list(range(1, len(log) + 1))
    monkeypatch.setattr(pages, "REPLAY_PAGE_BYTES", 1)  # smaller than any view: still one step a page
    assert [len(p.steps) for p in _pages(owner, facts, log, 500)] == [1] * len(log)
