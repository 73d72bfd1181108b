"""Number and text options have bounds (issue 20, finding 5: GrimmoiR's max_rounds took -5 and 10^12)."""

from __future__ import annotations

import pytest

from gamehall.engine import ConfigError
from gamehall.engine.protocol import NUMBER_LIMIT, TEXT_LIMIT, Option
from gamehall.games.grimmoir import GAME as GRIMMOIR
from gamehall.games.grimslingers import GAME as GRIMSLINGERS


@pytest.mark.parametrize("rounds", [-5, 0, 501, 10**12])
def test_grimmoir_max_rounds_out_of_range_is_refused(rounds: int) -> None:
    with pytest.raises(ConfigError, match="max_rounds must be between 1 and 500"):
        GRIMMOIR.configure(options={"max_rounds": rounds})


def test_grimmoir_max_rounds_in_range_is_kept() -> None:
    assert GRIMMOIR.configure(options={"max_rounds": 500}).options["max_rounds"] == 500


def test_grimslingers_stalemate_turns_is_bounded() -> None:
    assert GRIMSLINGERS.configure("versus-1v1", flags={"stalemate_turns": 0}).flags["stalemate_turns"] == 0
    with pytest.raises(ConfigError):
        GRIMSLINGERS.configure("versus-1v1", flags={"stalemate_turns": -1})


def test_an_option_without_a_declared_range_still_has_one() -> None:
    free = Option("n", 3, "a count")
    assert free.check(NUMBER_LIMIT) == NUMBER_LIMIT
    for bad in (NUMBER_LIMIT + 1, -NUMBER_LIMIT - 1, 10**100):
        with pytest.raises(ConfigError):
            free.check(bad)
    with pytest.raises(ConfigError):
        Option("s", "x", "a name").check("y" * (TEXT_LIMIT + 1))


@pytest.mark.parametrize("game", [GRIMMOIR, GRIMSLINGERS], ids=lambda g: g.id)
def test_number_options_declare_their_range(game) -> None:  # type: ignore[no-untyped-def]
    for option in (*game.options, *game.flags):
        if option.choices is None and isinstance(option.default, int) and not isinstance(option.default, bool):
            assert option.minimum is not None and option.maximum is not None, option.name
            assert option.minimum <= option.default <= option.maximum, option.name
