"""The owner answers a view at a recent version, and a retried move, from the steps it remembers: the state and
events of that version come back from their encoded form, exactly as the step left them, with no load."""

from __future__ import annotations

import json

from gamehall.engine import action_id
from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.matches import Caller, LiveMatch
from gamehall.wire import event_to_proto
from tests.unit.rules_host.test_adopt import GAME, _humans, _matches, _Stored


class _Appending(_Stored):
    """A log that takes every entry, each at the next sequence."""

    async def append(self, entry: LogEntry, expected_seq: int) -> int:
        self.appended.append(expected_seq)
        return len(self.appended)


def _caller(seat: int) -> Caller:
    return Caller(account_id="a" if seat == 0 else "b", role="player")


async def test_a_view_at_a_recent_version_and_a_retried_move_are_served_from_memory() -> None:
    backend = _Appending("running")
    matches = _matches(backend)
    matches.adopt(_humans("running"))
    mirror = LiveMatch.rebuild(GAME, (await matches.held("m1")).live.facts, None, 0, [])
    steps = []
    for n in range(4):
        live = (await matches.held("m1")).live
        seat = live.to_act[0]
        chosen = live.legal(seat)[-1]
        await matches.play("m1", _caller(seat), seat, f"r{n}", None, action_id(chosen))
        steps.append(mirror.play(seat, chosen, f"r{n}", now_ms=0))
        mirror.commit(steps[-1])
    loads = backend.loads
    for step in steps[:-1]:
        for seat in range(2):
            past = await matches.view("m1", _caller(seat), seat, step.version)
            assert past.version == step.version
            assert json.loads(past.view_json) == json.loads(json.dumps(GAME.view(step.state, seat)))
            seen = [event_to_proto(e) for e in step.events if e.visible_to(seat)]
            assert list(past.events) == seen
    first = steps[0]
    again = await matches.play("m1", _caller(first.seat), first.seat, "r0", None, first.action_id)
    assert again.replayed and again.version == first.version and again.action.id == first.action_id
    assert backend.loads == loads, "every answer came from memory"
