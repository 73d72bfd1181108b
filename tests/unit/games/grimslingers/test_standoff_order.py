"""Item 1 of issue 40, R-087: in creature duels the players choose their own Standoff order."""

from __future__ import annotations

from gamehall.games.grimslingers import GAME
from gamehall.games.grimslingers.actions import EndStandoff, Organize, Sacrifice, StopPicking
from gamehall.games.grimslingers.state import Phase

from .builders import C, P, build, build_creature
from .tale_builders import act, place, t_of, tale


def test_R_087_any_player_may_open_the_creature_duel_standoff() -> None:
    """R-087 (item 1): after the creature's step every player may go first, not only seat 0."""
    s = build_creature([P(), P(), P()], C(hp=30))
    assert s.phase == Phase.STANDOFF and GAME.to_act(s) == {0, 1, 2}
    assert Sacrifice(1) in GAME.legal_actions(s, 2)
    s, _ = GAME.apply(s, 2, Sacrifice(1))  # the last seat chooses to go first
    assert s.seats[2].hp == 7 and GAME.to_act(s) == {0, 1}
    s, _ = GAME.apply(s, 1, EndStandoff())
    assert GAME.to_act(s) == {0}
    s, _ = GAME.apply(s, 0, EndStandoff())
    assert s.phase == Phase.FIRE


def test_R_087_order_is_free_again_every_turn() -> None:
    """R-087 (item 1): the choice is made anew each turn (no fixed seat order after a restart)."""
    s = build_creature([P(), P(), P()], C(hp=30))
    for seat in (1, 2, 0):
        s, _ = GAME.apply(s, seat, EndStandoff())
    while s.phase != Phase.STANDOFF or not s.standoff_open:
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, GAME.default_action(s, seat))  # type: ignore[arg-type]
    assert s.turn == 2 and GAME.to_act(s) == {0, 1, 2}


def test_R_087_witch_king_player_finishes_both_actions_before_another_starts() -> None:
    """R-087 with R-085's reading (item 1): in CD-AD a player who starts keeps the Standoff for
    their (up to) two actions; then the others choose again."""
    s = build_creature([P(), P()], C(hp=30, ep=30), key="witch_king", mode="witch-king")
    assert GAME.to_act(s) == {0, 1}
    s, _ = GAME.apply(s, 1, Sacrifice(1))
    assert GAME.to_act(s) == {1}  # its second action is still to come
    s, _ = GAME.apply(s, 1, Sacrifice(1))
    assert GAME.to_act(s) == {0} and s.seats[1].hp == 6


def test_R_087_tall_tale_duel_players_choose_order() -> None:
    """R-087 (item 1): the Tall Tale's creature duels too."""
    s = tale(3, "hard")
    place(s, "gulch")
    assert s.phase == Phase.STANDOFF and t_of(s).duel
    assert GAME.to_act(s) == {0, 1, 2}
    s, _ = act(s, 2, Organize())
    s, _ = act(s, 2, StopPicking())
    assert GAME.to_act(s) == {0, 1}


def test_R_078_versus_keeps_fp_then_clockwise() -> None:
    """R-078: versus duels are unchanged: the FP acts, then clockwise."""
    s = build([P(), P(), P()], fp=1)
    assert GAME.to_act(s) == {1}
