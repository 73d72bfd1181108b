"""Strength on Dice Nim, where skill matters: hard crushes random and each level beats the one below.

Each claim is Wald's SPRT (H0: rate 0.5, H1: rate p1, alpha = beta = 0.05) on paired seeds
(every seed played with the stronger level in each seat), stopping as soon as the evidence
is in; these are the cheap rows of `make strength`'s table, which also carries expert vs
hard (about 200 matches). Everything is seeded, so the verdicts are reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from gamehall.ai import Bot, RandomBot, Sprt, sequential_pair
from gamehall.bench.strength import CLAIMS, Claim, run_claim
from gamehall.engine import Action, Game, JsonDict
from tests.fixtures.dice_nim import GAME as DICE_NIM

CONFIG = DICE_NIM.configure()
QUICK_DICE_NIM = [c for c in CLAIMS if c.game == DICE_NIM.id and c.quick]


@pytest.mark.parametrize("claim", QUICK_DICE_NIM, ids=[f"{c.a}-{c.b}" for c in QUICK_DICE_NIM])
def test_each_level_beats_the_one_below(claim: Claim) -> None:
    row = run_claim(claim)
    assert row["decision"] == "H1", row
    assert row["matches"] % CONFIG.seats == 0  # whole seat rotations only


def test_the_ladder_covers_every_level_step() -> None:
    """`make strength` holds a row for each adjacent pair of levels (the costly top one only there)."""
    steps = {(c.a, c.b) for c in CLAIMS if c.game == DICE_NIM.id}
    assert {("easy", "random"), ("normal", "easy"), ("hard", "normal"), ("expert", "hard")} <= steps


def test_sprt_bounds_and_verdicts() -> None:
    test = Sprt(p0=0.5, p1=0.75, alpha=0.05, beta=0.05)
    assert test.upper == pytest.approx(2.944, abs=1e-3) and test.lower == pytest.approx(-2.944, abs=1e-3)
    assert test.decide(7, 7) is None and test.decide(8, 8) == "H1"  # 8 x ln(1.5) = 3.24
    assert test.decide(0, 4) is None and test.decide(0, 5) == "H0"  # 5 x ln(0.5) = -3.47
    assert test.decide(5, 10) is None and test.decide(15, 30) == "H0"  # a coin-flip record drifts to H0
    assert test.llr(2.5, 5) == pytest.approx(2.5 * 0.405465 + 2.5 * -0.693147, abs=1e-5)
    with pytest.raises(ValueError):
        Sprt(p0=0.6, p1=0.5)


class _FirstAction:
    """Always the first legal action: a fixed, seat-blind player for the harness tests."""

    name = "first"

    def choose(self, game: Game[Any], view: JsonDict, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[0]


def _factory(level: str) -> Bot:
    return _FirstAction() if level == "first" else RandomBot()


def test_paired_seeds_give_each_seat_the_same_deal() -> None:
    """Two identical players split a seed's rotation exactly: the seat advantage cancels out."""
    row = sequential_pair(DICE_NIM, CONFIG, "first", "first", max_matches=6, seed=3, bot_factory=_factory)
    assert row["matches"] == 6 and row["score"] == 3.0 and row["decision"] == "inconclusive"


def test_the_budget_ends_an_undecided_test() -> None:
    factory: Callable[[str], Bot] = _factory
    row = sequential_pair(
        DICE_NIM, CONFIG, "random", "random", sprt=Sprt(p1=0.55), max_matches=7, seed=1, bot_factory=factory
    )
    assert row["matches"] == 6 and row["decision"] == "inconclusive"  # whole rotations only


def test_a_level_that_is_not_stronger_is_refused() -> None:
    """The test can fail: a fixed first-action player does not beat random play at p1 = 0.75."""
    row = sequential_pair(DICE_NIM, CONFIG, "first", "random", max_matches=200, seed=5, bot_factory=_factory)
    assert row["decision"] == "H0", row

