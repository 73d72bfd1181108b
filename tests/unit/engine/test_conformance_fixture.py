"""The conformance kit proven on the High Card fixture, including that it catches breaches."""

from __future__ import annotations

import random

import pytest

from gamehall.engine import IllegalAction, MatchConfig, NotYourTurn
from gamehall.engine.conformance import ConformanceError, assert_conforms, check_game
from tests.fixtures.high_card import GAME, HighCard, Play, State


def test_high_card_conforms() -> None:
    report = assert_conforms(GAME, matches=300)
    assert report.matches == 300
    assert report.hidden_differs > 0
    assert sum(report.outcomes.values()) == 300


def test_flag_changes_play() -> None:
    flagged = GAME.configure("duel", 2, flags={"ties_score": True})
    assert_conforms(GAME, matches=50, configs=[flagged])


class LeakyView(HighCard):
    """Shows seat 0's hand to everyone, within the view type: the kit must notice the leak itself."""

    def view(self, state: State, seat: int | None) -> dict:
        view = super().view(state, seat)
        view["hand"] = list(state.hands[0])
        return view


class StrayView(HighCard):
    """Adds a key its view type does not declare: the kit must notice."""

    def view(self, state: State, seat: int | None) -> dict:
        view = super().view(state, seat)
        view["all_hands"] = [list(h) for h in state.hands]
        return view


class MutatingApply(HighCard):
    def _apply(self, state, seat, action):  # type: ignore[no-untyped-def]
        state.scores[0] += 0  # touch nothing harmful...
        state.hands[seat].sort(reverse=True)  # ...but reorder the input hand in place
        return super()._apply(state, seat, action)


class NonDeterministic(HighCard):
    def new_match(self, config: MatchConfig, seed: int) -> State:
        return super().new_match(config, random.randrange(1 << 30))


class AcceptsAnything(HighCard):
    def validate_action(self, state, seat, action) -> None:  # type: ignore[no-untyped-def]
        return None

    def _apply(self, state, seat, action):  # type: ignore[no-untyped-def]
        if isinstance(action, Play) and action.card not in state.hands[seat]:
            s = self.copy(state)
            s.committed[seat] = action.card
            return s, []
        return super()._apply(state, seat, action)


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (LeakyView(), "leaks a secret"),
        (StrayView(), "strays from high-card's view_type"),
        (MutatingApply(), "mutated its input"),
        (NonDeterministic(), "not deterministic"),
        (AcceptsAnything(), "apply accepted"),
    ],
)
def test_kit_catches_breaches(broken: HighCard, message: str) -> None:
    with pytest.raises(ConformanceError, match=message):
        check_game(broken, matches=20)


def test_illegal_actions_are_named() -> None:
    state = GAME.new_match(GAME.configure(), seed=7)
    foreign = next(c for c in range(1, 13) if c not in state.hands[0])
    with pytest.raises(IllegalAction, match="not in your hand"):
        GAME.apply(state, 0, Play(foreign))
    state, _ = GAME.apply(state, 0, Play(state.hands[0][0]))
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 0, Play(state.hands[0][0]))
