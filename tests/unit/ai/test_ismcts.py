"""ISMCTS specifics: simultaneous secret choices, availability-aware UCB, and finding wins."""

from __future__ import annotations

import random

import msgspec

from gamehall.ai import GreedyBot, ISMCTSBot, ismcts
from gamehall.ai.ismcts import _Arm, _select
from gamehall.engine import Action, Event, JsonDict, MatchConfig, Mode, Outcome, Rng, StructGame, action_id
from tests.fixtures.dice_nim import GAME as DICE_NIM
from tests.fixtures.dice_nim import State as DiceNimState
from tests.fixtures.dice_nim import Take


class Choose(Action, tag="choose"):
    option: str


class PenniesState(msgspec.Struct):
    rng: int
    picks: list[str | None]
    safe_won: bool | None = None


class Pennies(StructGame[PenniesState]):
    """Both seats choose at once. Seat 1 wins by matching seat 0's "a"/"b"; "safe" wins for seat 0
    on a die roll of 1-2. Against a seat that cannot see its pick, "a"/"b" are worth 1/2 to seat
    0 and "safe" 1/3; if the opponent could react to the hidden pick, "a"/"b" would be worth 0."""

    id = "pennies"
    name = "Pennies"
    modes = (Mode("duel", "Duel", (2,)),)
    action_types = (Choose,)
    state_type = PenniesState

    def new_match(self, config: MatchConfig, seed: int) -> PenniesState:
        return PenniesState(rng=seed, picks=[None, None])

    def config_of(self, state: PenniesState) -> MatchConfig:
        return self.configure()

    def to_act(self, state: PenniesState) -> frozenset[int]:
        if self.outcome(state) is not None:
            return frozenset()
        return frozenset(s for s in (0, 1) if state.picks[s] is None)

    def legal_actions(self, state: PenniesState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [Choose("a"), Choose("b"), *([Choose("safe")] if seat == 0 else [])]

    def _apply(self, state: PenniesState, seat: int, action: Action) -> tuple[PenniesState, list[Event]]:
        assert isinstance(action, Choose)
        s = self.copy(state)
        s.picks[seat] = action.option
        if s.picks[0] == "safe" and s.picks[1] is not None:
            rng = Rng(s.rng)
            s.safe_won = rng.randint(1, 6) <= 2
            s.rng = rng.state
        return s, []

    def outcome(self, state: PenniesState) -> Outcome | None:
        first, second = state.picks
        if first is None or second is None:
            return None
        seat0_wins = state.safe_won if first == "safe" else first != second
        return Outcome((1, 2) if seat0_wins else (2, 1))

    def view(self, state: PenniesState, seat: int | None) -> JsonDict:
        return {"picked": [p is not None for p in state.picks], "mine": None if seat is None else state.picks[seat]}

    def determinize(self, view: JsonDict, seat: int, rng: random.Random) -> PenniesState:
        picks: list[str | None] = [None, None]
        picks[seat] = view["mine"]
        other = 1 - seat
        if view["picked"][other]:
            picks[other] = rng.choice(["a", "b"] if other == 1 else ["a", "b", "safe"])
        return PenniesState(rng=rng.getrandbits(64), picks=picks)

    def resample_hidden(self, state: PenniesState, seat: int | None, rng: random.Random) -> PenniesState:
        return self.determinize(self.view(state, seat), seat if seat is not None else 0, rng)


PENNIES = Pennies()


def test_simultaneous_opponent_does_not_see_the_observers_pick() -> None:
    state = PENNIES.new_match(PENNIES.configure(), seed=1)
    assert PENNIES.to_act(state) == {0, 1}
    view = PENNIES.view(state, 0)
    result = ismcts(PENNIES, view, 0, PENNIES.legal_actions(state, 0), random.Random(3), iterations=3000)
    assert result.action in (Choose("a"), Choose("b")), result.root
    for option in ("a", "b"):
        _visits, mean = result.root[f"choose(option={option})"]
        assert 0.35 < mean < 0.65, result.root  # near 1/2: seat 1 plays blind, as in the real game
    assert 0.2 < result.root["choose(option=safe)"][1] < 0.45


def test_observer_alone_after_a_hidden_opponent_commitment() -> None:
    state, _ = PENNIES.apply(PENNIES.new_match(PENNIES.configure(), seed=1), 1, Choose("a"))
    view = PENNIES.view(state, 0)
    result = ismcts(PENNIES, view, 0, PENNIES.legal_actions(state, 0), random.Random(3), iterations=600)
    assert result.action != Choose("safe"), result.root  # the committed "a" is unknown, so a/b are worth 1/2
    assert abs(result.root["choose(option=a)"][1] - 0.5) < 0.15


def test_unvisited_available_arms_first_then_availability_aware_ucb() -> None:
    arms = {"x": _Arm(), "y": _Arm()}
    arms["x"].visits, arms["x"].reward, arms["x"].available = 10, 6.0, 10
    index, untried = _select(arms, ["x", "y"], random.Random(0), 0.7)
    assert (index, untried) == (1, True)
    # "y" was available only twice (e.g. a card rarely in the sampled hand) and tried once; plain UCB
    # would explore it against the parent's ~100 visits (0.2 + 0.7*sqrt(ln 100) = 1.70 > 0.86),
    # availability-aware UCB uses its 2 availabilities (0.2 + 0.7*sqrt(ln 2) = 0.78 < 0.86) and keeps "x".
    arms["y"].visits, arms["y"].reward, arms["y"].available = 1, 0.2, 1
    arms["x"].visits, arms["x"].reward, arms["x"].available = 90, 63.0, 99
    index, untried = _select(arms, ["x", "y"], random.Random(0), 0.7)
    assert (index, untried) == (0, False)
    assert (arms["x"].available, arms["y"].available) == (100, 2)


def test_bots_take_an_immediate_win() -> None:
    state = DiceNimState(rng=5, piles=[0, 3, 0], to_move=0, regrowths=1)
    view, legal = DICE_NIM.view(state, 0), DICE_NIM.legal_actions(state, 0)
    for bot in (GreedyBot(determinizations=2), ISMCTSBot(iterations=100)):
        assert bot.choose(DICE_NIM, view, 0, legal, random.Random(0)) == Take(1, 3)


def test_ismcts_finds_a_winning_endgame_move() -> None:
    # Piles 4 and 1: only two moves leave a lost position to the opponent, [4, 0] and [1, 1].
    state = DiceNimState(rng=5, piles=[4, 1, 0], to_move=0, regrowths=0)
    view, legal = DICE_NIM.view(state, 0), DICE_NIM.legal_actions(state, 0)
    result = ismcts(DICE_NIM, view, 0, legal, random.Random(2), iterations=1500)
    assert result.action in (Take(1, 1), Take(0, 3)), result.root
    assert result.root[action_id(result.action)][1] > 0.9
