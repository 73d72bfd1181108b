"""How a fight ends (issue 40, item 12, W-CB-07): only by its Conflict Card's win and loss conditions; the round
limit is a rule flag, off by default, and a match that only times out still ends the book's way."""

from __future__ import annotations

from typing import Any

import pytest

from gamehall.games.grimm_world import GAME
from gamehall.games.grimm_world.actions import EndPhase
from gamehall.games.grimm_world.catalog import CONFLICTS
from gamehall.games.grimm_world.state import State

from .builders import board, enemy, kinds, play, state


def _far_fight(round_limit: int = 0) -> State:
    foe = enemy("T95", lines=[[{"kind": "towards", "value": 1}]])
    return state(board(12, 1), (0, 0), [(foe, (11, 0))], round_limit=round_limit)


def _end_round(s: State) -> tuple[State, list[Any]]:
    """End the Character Phase and let the turn clock answer every prompt until the next round or the end."""
    start = s.fight.round
    s, events = play(s, EndPhase())
    while s.fight.round == start and not s.fight.result:
        s, more = GAME.apply(s, 0, GAME.default_action(s, 0))
        events += more
    return s, events


def test_W_CB_07_item_12_a_fight_has_no_round_limit() -> None:
    """Item 12: "These three phases are repeated until one of the end conditions is reached" (8.2): round 40 ends
    and round 41 begins; no conflict carries a limit."""
    s = _far_fight()
    s.fight.round = 40
    s, events = _end_round(s)
    assert not s.fight.result and s.fight.round == 41 and not kinds(events, "round_limit")
    assert all("round limit" not in c.defeat for c in CONFLICTS.values())


def test_W_CB_07_item_12_the_round_limit_is_a_rule_flag_off_by_default() -> None:
    """Item 12: the bound exists only behind the `round_limit` rule flag (not the book's); with it a fight still on
    after that many rounds is lost."""
    assert GAME.configure("skirmish", 1).flags == {"round_limit": 0}
    flagged = GAME.new_match(GAME.configure("skirmish", 1, {}, {"round_limit": 12}), seed=1)
    assert flagged.round_limit == 12 and GAME.config_of(flagged).flags == {"round_limit": 12}
    assert GAME.view(flagged, 0)["round_limit"] == 12
    s = _far_fight(round_limit=12)
    s.fight.round = 12
    s, events = _end_round(s)
    assert s.fight.result == "defeat" and kinds(events, "round_limit") == [{"round": 12}]


@pytest.mark.parametrize("conflict", sorted(CONFLICTS))
def test_W_CB_07_item_12_a_match_that_only_times_out_ends_by_the_cards_conditions(conflict: str) -> None:
    """Item 12: with no round limit, a player who only times out (the turn clock plays `default_action`: decline,
    stop, end the phase) still loses the book's way: the enemies come and every Action Card ends under the
    Damage Card (W-CD-02), at every placement column."""
    for chapter in (1, 5, 10):
        s = GAME.new_match(GAME.configure("skirmish", 1, {"conflict": conflict, "chapter": chapter}), seed=chapter)
        steps, seen = 0, []
        while GAME.outcome(s) is None:
            action = GAME.default_action(s, 0)
            assert action is not None and steps < 2000
            s, events = GAME.apply(s, 0, action)
            seen += events
            steps += 1
        assert s.fight.result == "defeat" and not s.sheet.hand and s.sheet.damaged, (conflict, chapter)
        assert not kinds(seen, "round_limit")
