"""Strength on Dice Nim, a fixture where skill matters: hard crushes random and each level beats the one below.

Sample sizes: 200 matches for hard vs random and for the cheap ladder steps, 120 for expert
vs hard (the costly pair). Seats alternate; every match is seeded, so the numbers are
reproducible, and each assertion also demands a Wilson 95% lower bound above one half.
"""

from __future__ import annotations

import pytest

from gamehall.ai import round_robin
from tests.fixtures.dice_nim import GAME as DICE_NIM

CONFIG = DICE_NIM.configure()


def pair(a: str, b: str, matches: int) -> dict:  # type: ignore[type-arg]
    result = round_robin(DICE_NIM, CONFIG, [a, b], matches, seed=7)
    (row,) = result["pairs"]
    return row  # type: ignore[no-any-return]


def test_hard_beats_random() -> None:
    row = pair("hard", "random", 200)
    assert row["rate"] >= 0.8, row
    assert row["low"] > 0.5, row


@pytest.mark.parametrize(
    ("stronger", "weaker", "matches"),
    [("easy", "random", 200), ("normal", "easy", 200), ("hard", "normal", 200), ("expert", "hard", 120)],
)
def test_each_level_beats_the_one_below(stronger: str, weaker: str, matches: int) -> None:
    row = pair(stronger, weaker, matches)
    assert row["rate"] > 0.5, row
    assert row["low"] > 0.5, row
