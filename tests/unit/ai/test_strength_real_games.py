"""Search beats random play on the real games (seats rotate; sample sizes stated per case).

The full "hard beats random on every game" table is produced by `gamehall arena`; here are
the cases cheap enough for every CI run. Each asserts the point estimate and a Wilson 95%
lower bound above one half.
"""

from __future__ import annotations

import pytest

from gamehall.ai import round_robin
from gamehall.engine import get_game

CASES = [
    # (game, stronger level, matches, minimum rate)
    ("grimslingers", "hard", 30, 0.8),
    ("grimmoir", "easy", 16, 0.75),
]


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "level", "matches", "minimum"), CASES)
def test_search_beats_random(game_id: str, level: str, matches: int, minimum: float) -> None:
    game = get_game(game_id)
    result = round_robin(game, game.configure(), [level, "random"], matches, seed=11)
    (row,) = result["pairs"]
    assert row["rate"] >= minimum, row
    assert row["low"] > 0.5, row
