"""The engine-protocol conformance kit over hundreds of random GrimmoiR matches of every rule set."""

from __future__ import annotations

import pytest

from gamehall.engine.conformance import assert_conforms
from gamehall.games.grimmoir import GAME
from tests.support.sizes import simulations

CONFIGS = [
    GAME.configure(),
    GAME.configure(flags={"team_secrecy": "secret"}),
    GAME.configure(flags={"faction_exclusivity": "none", "shift_choice": "first_column", "team_secrecy": "secret"}),
    GAME.configure(
        flags={
            "swap_columns": "moves_only",
            "back_row_moves": False,
            "coin_refill": "reset",
            "simultaneous_elimination": "active_player_wins",
        },
        options={"max_rounds": 12},
    ),
]


@pytest.mark.slow
def test_conformance_many_matches() -> None:
    """150 random matches of each rule set (the one mode, two seats) under `make simulate`, a quarter of that in
    `make test`; deep checks every 8 steps."""
    matches = simulations(600, 150)
    report = assert_conforms(GAME, matches=matches, configs=CONFIGS, deep_every=8, seed=11)
    assert report.matches == matches
    assert report.hidden_differs > 0
    assert len(report.outcomes) >= 2  # both seats win some matches


@pytest.mark.slow
def test_conformance_fully_deep() -> None:
    """Every check at every step: 60 matches under `make simulate`, 20 in `make test`."""
    matches = simulations(60, 20)
    report = assert_conforms(GAME, matches=matches, configs=CONFIGS, deep_every=1, seed=5)
    assert report.matches == matches
