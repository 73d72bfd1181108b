"""`hard` beats random play on every real game: the quick rows of `make strength`'s table.

Each is Wald's SPRT (H0: rate 0.5, H1: rate 0.9, alpha = beta = 0.05) on paired seeds, with
the match budget the old fixed samples used as its cap: a bot that wins every match settles
it after three seeds (six matches), and a weaker one runs out of budget and fails. The full
table (more levels, more pairs, and the games too slow for the suite) is `make strength`.
"""

from __future__ import annotations

import pytest

from gamehall.bench.strength import CLAIMS, Claim, all_claims, run_claim
from gamehall.engine import all_games

ONLY_IN_MAKE_STRENGTH = {"tiny-epic-quest": "about 2 minutes of hard ISMCTS per run; `make strength` checks it"}
"""Quick claims too slow for the 12-minute suite: `make strength` (and its --quick table) still runs them."""
REAL = [c for c in CLAIMS if c.game != "dice-nim" and c.quick and c.game not in ONLY_IN_MAKE_STRENGTH]


@pytest.mark.slow
@pytest.mark.parametrize("claim", REAL, ids=[c.game for c in REAL])
def test_hard_beats_random(claim: Claim) -> None:
    row = run_claim(claim)
    assert row["decision"] == "H1", row


def test_the_full_table_has_a_row_for_every_game() -> None:
    assert {g.id for g in all_games()} <= {c.game for c in all_claims() if (c.a, c.b) == ("hard", "random")}
