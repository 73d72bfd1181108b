"""Issue 40, item 21: the strength table covers solo and co-op modes and the levels above random.

Solo and co-op claims are paired on seeds: each seed is played once with every seat at level `a` and once
with every seat at level `b` (or `a` at another setting), and a sign test over the seeds where the two
differ says whether `a` wins more often. Co-op bots can only be measured once a co-op defeat is worse
for a seat than a co-op win, which `Outcome.returns` now says.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from gamehall.ai import Bot, RandomBot, Sprt, sequential_cooperative, team_result
from gamehall.bench.strength import CLAIMS, all_claims, claim_text, run_claim
from gamehall.engine import Action, Game, JsonDict, Outcome, get_game


def test_item_21_a_coop_defeat_returns_less_than_a_coop_win() -> None:
    """Every seat ranking 2 means the game beat them all: 0.25 each, below a shared win's 0.5."""
    assert Outcome((1, 1)).returns() == (0.5, 0.5)
    assert Outcome((2, 2)).returns() == (0.25, 0.25)
    assert Outcome((2, 2, 2)).returns() == (1 / 3, 1 / 3, 1 / 3)
    assert Outcome((1,)).returns() == (1.0,) and Outcome((2,)).returns() == (0.0,)  # solo, unchanged
    assert Outcome((1, 2)).returns() == (1.0, 0.0) and Outcome((1, 2, 2)).returns() == (1.0, 0.25, 0.25)  # versus
    assert team_result(Outcome((2, 2), (0.0, 0.0))) == (0.0, 0.0)
    assert team_result(Outcome((1,), (42.0,))) == (1.0, 42.0)


def test_item_21_the_table_has_rows_for_co_op_modes_solo_levels_and_witch_king_difficulties() -> None:
    rows = all_claims()
    modes = {(c.game, c.mode) for c in rows}
    assert {("grimslingers", "creature-duel"), ("grimslingers", "witch-king")} <= modes  # the Tall Tale: see README
    witch_king = [c for c in rows if c.mode == "witch-king"]
    difficulties = {dict(o).get("difficulty") for c in witch_king for o in (c.options, c.b_options or ())}
    assert {"easy", "normal", "hard", "impossible"} <= difficulties
    for game in ("tiny-epic-quest", "grimm-world"):
        assert {"easy", "normal"} <= {c.a for c in rows if c.game == game and c.b == "random"}, game
    assert all(c.kind != "versus" for c in rows if c.game == "grimm-world")  # solo: nothing to play against
    assert not any(c.quick for c in CLAIMS if c.kind != "versus")  # make test's quick rows stay as they were


class _FirstAction:
    name = "first"

    def choose(self, game: Game[Any], view: JsonDict, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[0]


def _factory(level: str) -> Bot:
    return _FirstAction() if level == "first" else RandomBot()


def test_item_21_a_paired_test_looks_only_at_seeds_where_the_two_differ() -> None:
    game = get_game("grimslingers")
    config = game.configure("creature-duel", 2)
    row = sequential_cooperative(
        game, config, "first", "first", sprt=Sprt(p1=0.8), max_matches=8, seed=1, bot_factory=_factory
    )
    assert row["matches"] == 8 and row["trials"] == 0 and row["decision"] == "inconclusive"  # the same play: ties
    rate = sequential_cooperative(game, config, "random", None, max_matches=5, seed=1, bot_factory=_factory)
    assert rate["matches"] == rate["trials"] == 5 and rate["b"] == "-"


@pytest.mark.slow
def test_item_21_easy_beats_random_in_a_creature_duel_of_two() -> None:
    claim = next(c for c in CLAIMS if c.mode == "creature-duel")
    row = run_claim(claim)
    assert row["decision"] == "H1", row
    assert claim_text(row) == "easy > random, paired"
