"""Every registered game passes the conformance kit (a game that lands later is covered with no new test).

Each game's own test folder runs the kit at full size (2,000+ matches); this is the
platform-level guarantee that nothing registered escapes it.
"""

from __future__ import annotations

import pytest

from gamehall.engine import Game, all_games
from gamehall.engine.conformance import assert_conforms, default_configs

GAMES = all_games()


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_registered_game_conforms(game: Game) -> None:  # type: ignore[type-arg]
    configs = default_configs(game)
    report = assert_conforms(game, matches=max(40, 4 * len(configs)), deep_every=3)
    assert set(report.by_config) == {f"{c.mode}/{c.seats}" for c in configs}


def test_some_game_is_registered() -> None:
    assert GAMES, "no game is registered under the gamehall.games entry points"
