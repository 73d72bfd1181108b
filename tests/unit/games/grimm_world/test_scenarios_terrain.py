"""Terrain, line of sight and enemy movement skills (SC-W49..SC-W52)."""

from __future__ import annotations

from gamehall.games.grimm_world import GAME
from gamehall.games.grimm_world.actions import Attack, Play
from gamehall.games.grimm_world.board import step_cost
from gamehall.games.grimm_world.moves import plan_towards
from gamehall.games.grimm_world.sight import dodge_modifier, visible

from .builders import FIG95, board, enemy, play, state

NOBODY = enemy("T0")


def c(field, x: int, y: int) -> int:
    return field.at(x, y)


def test_SC_W49_terrain_combinations() -> None:
    hedge_cover = board(3, 1, {(2, 0): "cover"}, [((0, 0), (1, 0), "obstacle")])
    assert dodge_modifier(hedge_cover, c(hedge_cover, 0, 0), c(hedge_cover, 2, 0)) == 2
    hedge_water = board(3, 1, {(2, 0): "water"}, [((0, 0), (1, 0), "obstacle")])
    assert dodge_modifier(hedge_water, c(hedge_water, 0, 0), c(hedge_water, 2, 0)) == 0
    into_water = board(2, 1, {(1, 0): "water"}, [((0, 0), (1, 0), "obstacle")])
    assert step_cost(into_water, c(into_water, 0, 0), c(into_water, 1, 0)) == 3
    two_hedges = board(4, 1, lines=[((0, 0), (1, 0), "obstacle"), ((1, 0), (2, 0), "obstacle")])
    assert dodge_modifier(two_hedges, c(two_hedges, 0, 0), c(two_hedges, 3, 0)) == 1
    same_type = board(2, 1, {(1, 0): "obstacle"}, [((0, 0), (1, 0), "obstacle")])
    assert step_cost(same_type, c(same_type, 0, 0), c(same_type, 1, 0)) == 2  # AMB-8: counted once


def test_SC_W50_elevation() -> None:
    hill = board(3, 1, {(1, 0): "elevation", (2, 0): "elevation"})
    assert step_cost(hill, c(hill, 0, 0), c(hill, 1, 0)) == 2
    assert step_cost(hill, c(hill, 1, 0), c(hill, 2, 0)) == 1
    assert step_cost(hill, c(hill, 1, 0), c(hill, 0, 0)) == 1
    high = board(3, 1, {(0, 0): "elevation"})
    assert dodge_modifier(high, c(high, 0, 0), c(high, 2, 0)) == -1
    both = board(3, 1, {(0, 0): "elevation", (2, 0): "elevation"})
    assert dodge_modifier(both, c(both, 0, 0), c(both, 2, 0)) == 0
    assert dodge_modifier(both, c(both, 2, 0), c(both, 0, 0)) == 0
    ridge = board(3, 1, {(1, 0): "elevation"})
    assert not visible(ridge, c(ridge, 0, 0), c(ridge, 2, 0))  # behind the elevated space
    assert visible(ridge, c(ridge, 0, 0), c(ridge, 1, 0))  # on it
    assert dodge_modifier(ridge, c(ridge, 0, 0), c(ridge, 1, 0)) == 0  # AMB-21


def _fig101(cover: bool = True):
    cells = {(2, 1): "blocked"}
    if cover:
        cells[(3, 0)] = "cover"
    return board(6, 4, cells, [((0, 0), (0, 1), "obstacle"), ((0, 2), (0, 3), "obstacle")])


def test_SC_W51_line_of_sight_fig101() -> None:
    field = _fig101()
    g, black, yellow, pink, turquoise = (c(field, *p) for p in ((0, 0), (2, 2), (3, 0), (5, 0), (0, 3)))
    figures = {black, yellow, pink, turquoise}
    assert not visible(field, g, black, figures - {black})  # exactly through the blocked space's corner
    assert not visible(field, g, pink, figures - {pink})  # yellow and its cover stand in between
    assert dodge_modifier(field, g, yellow, figures=figures - {yellow}) == 1 and field.distance(g, yellow) == 3
    assert dodge_modifier(field, g, turquoise, figures=figures - {turquoise}) == 1
    assert field.distance(g, turquoise) == 3
    assert not visible(field, pink, g)  # enemies ignore yellow, but the cover space still blocks
    assert visible(_fig101(cover=False), c(field, 5, 0), g)
    # in play: with the bow (range 3) Martha may shoot yellow and turquoise only
    s = state(field, (0, 0), [(NOBODY, (2, 2)), (NOBODY, (3, 0)), (NOBODY, (5, 0)), (NOBODY, (0, 3))],
              hand=["A07"], equipped=["bow"])
    s, _ = play(s, Play(("A07",)))
    assert sorted(a.target for a in GAME.legal_actions(s, 0) if isinstance(a, Attack)) == [1, 3]


def test_SC_W52_enemy_movement_skills() -> None:
    hedge = board(2, 1, lines=[((0, 0), (1, 0), "obstacle")])
    assert step_cost(hedge, 0, 1, frozenset({"agile"})) == 1
    assert step_cost(hedge, 0, 1) == 2
    lane = board(5, 1, {(2, 0): "blocked"})
    path = plan_towards(lane, c(lane, 4, 0), c(lane, 0, 0), 3, frozenset({"flying"}), set(), FIG95, lambda: 1)
    assert path == [c(lane, 3, 0), c(lane, 2, 0), c(lane, 1, 0)]  # over the blocked space
    assert plan_towards(lane, c(lane, 4, 0), c(lane, 0, 0), 2, frozenset({"flying"}), set(), FIG95, lambda: 1) \
        == [c(lane, 3, 0)]  # may not end on it: stops short
    assert plan_towards(lane, c(lane, 4, 0), c(lane, 0, 0), 3, frozenset(), set(), FIG95, lambda: 1) is None
    wall = board(2, 1, lines=[((0, 0), (1, 0), "blocked")])
    assert step_cost(wall, 0, 1, frozenset({"flying"})) is None
    cover = board(3, 1, {(2, 0): "cover", (0, 0): "elevation"})
    assert dodge_modifier(cover, 0, 2, huge=True) == -1  # no cover for the Huge, elevation still counts
    assert dodge_modifier(cover, 0, 2) == 1 - 1
    water = board(3, 1, {(2, 0): "water"}, [((0, 0), (1, 0), "obstacle")])
    assert dodge_modifier(water, 0, 2, huge=True) == 0
    assert dodge_modifier(board(2, 1, {(1, 0): "water"}), 0, 1, huge=True) == 0
