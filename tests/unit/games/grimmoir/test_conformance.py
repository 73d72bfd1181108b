"""The engine-protocol conformance kit over hundreds of random GrimmoiR matches of every rule set."""

from __future__ import annotations

import pytest

from gamehall.engine.conformance import assert_conforms
from gamehall.games.grimmoir import GAME

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
def test_conformance_600_matches() -> None:
    """150 random matches of each rule set (the one mode, two seats), deep checks every 8 steps."""
    report = assert_conforms(GAME, matches=600, configs=CONFIGS, deep_every=8, seed=11)
    assert report.matches == 600
    assert report.hidden_differs > 0
    assert len(report.outcomes) >= 2  # both seats win some matches


def test_conformance_fully_deep() -> None:
    report = assert_conforms(GAME, matches=60, configs=CONFIGS, deep_every=1, seed=5)
    assert report.matches == 60
