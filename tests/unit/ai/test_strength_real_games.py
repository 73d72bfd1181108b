"""`hard` beats random play on every real game (seats rotate; sample sizes stated per case).

Each case asserts the point estimate (>= 80%) and a Wilson 95% lower bound above one half;
the samples are what a CI run affords (a Tiny Epic Quest match lasts ~120 decisions). The
full ladders (`gamehall arena`) are in the issue notes.
"""

from __future__ import annotations

import pytest

from gamehall.ai import round_robin
from gamehall.engine import get_game

CASES = [
    # (game, stronger level, matches, minimum rate, seats)
    ("grimslingers", "hard", 30, 0.8, 2),
    ("grimmoir", "hard", 16, 0.8, 2),
    ("tiny-epic-quest", "hard", 8, 0.8, 2),
]


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "level", "matches", "minimum", "seats"), CASES)
def test_search_beats_random(game_id: str, level: str, matches: int, minimum: float, seats: int) -> None:
    game = get_game(game_id)
    result = round_robin(game, game.configure(None, seats), [level, "random"], matches, seed=11)
    (row,) = result["pairs"]
    assert row["rate"] >= minimum, row
    assert row["low"] > 0.5, row
