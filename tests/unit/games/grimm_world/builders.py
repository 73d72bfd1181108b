"""Fixtures for Grimm World scenarios: hand-built battlefields, test enemies, stacked decks, forced draws."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec
import pytest

from gamehall.engine import Rng
from gamehall.games.grimm_world import GAME, combat, enemy_ai
from gamehall.games.grimm_world.board import Board
from gamehall.games.grimm_world.catalog import ACTION_CARDS, ENCOUNTERS, ENEMIES, NEXT_CHAPTER, TIME_PASSES
from gamehall.games.grimm_world.content.schema import EnemyDef
from gamehall.games.grimm_world.context import Ctx
from gamehall.games.grimm_world.field import Battlefield, register_fixture
from gamehall.games.grimm_world.state import COLORS, Decks, Fight, FightPhase, Foe, Sheet, State

FIG95 = {"down": 1, "left": 2, "right": 3, "up": 4}
"""The Decision Compass of Figure 95 as both worked examples use it (W-DC-04, AMB-6)."""

_keys = itertools.count(1)


def enemy(number: str, **fields: Any) -> str:
    """Register a test Enemy Card (defaults: a plain melee enemy with no reaction) and return its number."""
    data: dict[str, Any] = {
        "number": number, "name": f"Test {number}", "weapon": "stick", "type": "human", "initiative": 3,
        "range": 1, "attack": 0, "damage": 1, "dodge": 4, "armor": 0, "constitution": 3,
        "lines": [[{"kind": "attack"}], [{"kind": "towards", "value": 3}, {"kind": "attack"}],
                  [{"kind": "towards", "value": 4}]],
        "reaction": {"trigger": "attack", "kind": "dodge", "value": 1, "values": []},
        "reaction_value": 1, "provenance": {"source": "designed", "ref": "test fixture"},
    }
    data.update(fields)
    ENEMIES[number] = msgspec.convert(data, EnemyDef)
    return number


def board(width: int, height: int, cells: Mapping[tuple[int, int], str] | None = None,
          lines: Iterable[tuple[tuple[int, int], tuple[int, int], str]] = (),
          origin: tuple[int, int] = (0, 0)) -> Board:
    return Board.fixture(width, height, cells, lines, origin)


def deck(fates: Sequence[int]) -> list[str]:
    """An Encounter Deck whose top cards carry these Fate Numbers, then the rest, then 'Time Passes'."""
    pool = {f: [k for k in sorted(ENCOUNTERS) if ENCOUNTERS[k].fate == f] for f in range(1, 7)}
    top = [pool[f].pop(0) for f in fates]
    rest = [k for k in sorted(ENCOUNTERS) if k not in top]
    return [*top, *rest, TIME_PASSES]


def state(field: Board, martha: tuple[int, int], foes: Sequence[tuple[str, tuple[int, int]]], *,
          origin: tuple[int, int] = (0, 0), hand: Sequence[str] = ("A01", "A02", "A03", "A04"),
          upgrades: Sequence[str] = (), skills: Sequence[str] = (), equipped: Sequence[str] = (),
          stored: Sequence[str] = (), fates: Sequence[int] = (), compass: Mapping[str, int] = FIG95,
          round_limit: int = 0, phase: FightPhase = FightPhase.CHARACTER, seed: int = 7) -> State:
    """A fight in progress on a fixture battlefield, at the start of a Character Phase unless told otherwise
    (`round_limit`: the rule flag, off as in the book)."""
    key = f"fixture-{next(_keys)}"
    register_fixture(key, Battlefield(field, dict(compass)))
    ox, oy = origin

    def cell(xy: tuple[int, int]) -> int:
        return field.at(xy[0] - ox, xy[1] - oy)

    sheet = Sheet("martha", list(upgrades), list(skills), list(equipped), list(stored), list(hand))
    owned = set(hand)
    decks = Decks(deck(fates), [NEXT_CHAPTER], [k for k in sorted(ACTION_CARDS) if k not in owned])
    fight = Fight(key, cell(martha), [Foe(n, COLORS[i], cell(xy), ENEMIES[n].constitution, False, i)
                                      for i, (n, xy) in enumerate(foes)], phase=phase)
    return State("skirmish", key, 1, Rng(seed).state, sheet, decks, fight, round_limit=round_limit)


def at(s: State, xy: tuple[int, int], origin: tuple[int, int] = (0, 0)) -> int:
    from gamehall.games.grimm_world.field import battlefield

    assert s.fight is not None
    return battlefield(s.fight.conflict).board.at(xy[0] - origin[0], xy[1] - origin[1])


def xy(s: State, cell: int, origin: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    from gamehall.games.grimm_world.field import battlefield

    assert s.fight is not None
    x, y = battlefield(s.fight.conflict).board.xy(cell)
    return x + origin[0], y + origin[1]


def play(s: State, *actions: Any) -> tuple[State, list[Any]]:
    """Apply validated actions in turn; returns the last state and every event."""
    events: list[Any] = []
    for action in actions:
        s, ev = GAME.apply(s, 0, action)
        events += ev
    return s, events


def run_tasks(s: State, *tasks: Any) -> tuple[State, list[Any]]:
    """Schedule automated steps on a copy and run them until Martha must decide."""
    s = GAME.copy(s)
    ctx = Ctx(s)
    ctx.then(*tasks)
    combat.run(ctx)
    return s, ctx.close()


def kinds(events: Sequence[Any], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == kind]


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Force the Enemy Deck's Reaction Values: append the values the next draws must give (log in `.seen`)."""
    queue: list[int] = []

    def fake(ctx: Any, rng: Any = None) -> int:
        if not queue:
            raise AssertionError("an Enemy Deck draw was not expected")
        return queue.pop(0)

    monkeypatch.setattr(combat, "reaction_draw", fake)
    monkeypatch.setattr(enemy_ai, "reaction_draw", fake)
    return queue
