"""Item 7 of issue 40: co-op outcomes the bots can read.

All co-op seats share the result; the returns a search maximises are the team's score, equal for
every seat, every win above every loss (see `coop`).
"""

from __future__ import annotations

from gamehall.engine.protocol import Outcome
from gamehall.games.grimslingers import GAME
from gamehall.games.grimslingers.actions import Pass, Play
from gamehall.games.grimslingers.coop import LOSS_CEILING, WIN_FLOOR, TeamOutcome
from gamehall.games.grimslingers.heuristic import evaluate
from gamehall.games.grimslingers.tale_effects import end_campaign

from .builders import C, P, build, build_creature, turn
from .tale_builders import tale


def test_item_7_plain_ranks_tell_a_coop_win_from_a_loss_but_not_how_well() -> None:
    """Item 7: why a team score: rank-based returns (with item 21's fix) tell a shared win (0.5 each) from a shared
    loss (0.25 each), where both were 0.5, but not a narrow win from a clean one."""
    assert Outcome((1, 1)).returns() == (0.5, 0.5)
    assert Outcome((2, 2)).returns() == (0.25, 0.25)


def test_item_7_creature_duel_win_and_loss_are_shared_and_ordered() -> None:
    """Item 7: a won duel returns the same score >= WIN_FLOOR to every seat; a lost one the same
    score <= LOSS_CEILING; the heuristic agrees with the outcome."""
    won = build_creature([P(), P(), P()], C(hp=1, ep=10, hand=["claw", "howl", "lunge"]), key="bandits")
    won = turn(won, fire={0: Play("FIRE"), 1: Pass(), 2: Pass()})
    lost = build_creature(
        [P(hp=1, hand=["EARTH"]), P(hp=1, hand=["EARTH"])], C(hp=30, ep=30), key="witch_king", mode="witch-king"
    )
    while GAME.outcome(lost) is None:
        seat = min(GAME.to_act(lost))
        lost, _ = GAME.apply(lost, seat, GAME.default_action(lost, seat))  # type: ignore[arg-type]
    win, loss = GAME.outcome(won), GAME.outcome(lost)
    assert isinstance(win, TeamOutcome) and isinstance(loss, TeamOutcome)
    assert win.ranks == (1, 1, 1) and loss.ranks == (2, 2)
    assert len(set(win.returns())) == 1 and len(set(loss.returns())) == 1
    assert win.returns()[0] >= WIN_FLOOR and loss.returns()[0] <= LOSS_CEILING
    assert [evaluate(won, i) for i in range(3)] == list(win.returns())


def test_item_7_a_better_win_scores_more() -> None:
    """Item 7: the score reflects how well the team did (HP left in a won duel)."""
    s = build_creature([P(), P()], C(hp=1, ep=10, hand=["claw", "howl", "lunge"]), key="bandits")
    s = turn(s, fire={0: Play("FIRE"), 1: Pass()})
    o = GAME.outcome(s)
    assert o is not None and o.ranks == (1, 1)
    s.seats[1].hp = 1  # the same win with less HP left
    worse = GAME.outcome(s)
    assert worse is not None and WIN_FLOOR <= worse.returns()[0] < o.returns()[0]


def test_item_7_tall_tale_outcome_is_the_team_score() -> None:
    """Item 7: the campaign's shared result: victory >= WIN_FLOOR, defeat <= LOSS_CEILING."""
    won, lost = tale(2, "easy"), tale(2, "easy")
    end_campaign(won, True, "test")
    end_campaign(lost, False, "test")
    victory, defeat = GAME.outcome(won), GAME.outcome(lost)
    assert victory is not None and defeat is not None
    assert victory.returns() == (1.0, 1.0)  # no allowed defeat used
    assert defeat.returns()[0] == defeat.returns()[1] <= LOSS_CEILING


def test_item_7_versus_keeps_rank_returns() -> None:
    """Versus duels are unchanged: returns from ranks."""
    s = build([P(), P(hp=1)])
    s = turn(s, fire={0: Play("FIRE")})
    o = GAME.outcome(s)
    assert o is not None and not isinstance(o, TeamOutcome) and o.returns() == (1.0, 0.0)


def test_item_9_unlabelled_choices_are_labelled_designed() -> None:
    """Item 9: the standalone creature duel's signature draft and the co-op team reading are
    content with provenance `designed`, and the mode's description says so."""
    from gamehall.games.grimslingers import catalog as cat
    from gamehall.games.grimslingers.rules import MODES

    draft, team = cat.READINGS["creature_duel_signature_draft"], cat.READINGS["coop_team"]
    assert draft.provenance.source == team.provenance.source == "designed"
    assert draft.modes == ["creature-duel"] and {"creature-duel", "witch-king", "tall-tale"} <= set(team.modes)
    duel = next(m for m in MODES if m.id == "creature-duel")
    assert "designed" in duel.description.lower() and "deal 4, keep 2" in duel.description
    s = build_creature([P()], C(), key="bandits")
    assert s.draft == "hidden"  # what the reading describes
