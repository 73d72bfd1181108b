"""The conformance kit over every mode and seat count: 1,050 random matches in total (each config 40 or more)."""

from __future__ import annotations

import pytest

from gamehall.engine.conformance import assert_conforms
from gamehall.engine.protocol import MatchConfig
from gamehall.games.grimslingers import GAME
from tests.support.sizes import simulations

ALL = {"items": True, "archetypes": True}

CONFIGS: list[tuple[str, list[MatchConfig], int, int]] = [
    (
        "1v1",
        [
            GAME.configure("versus-1v1", 2),
            GAME.configure("versus-1v1", 2, options={**ALL, "draft": "pass"}),
            GAME.configure("versus-1v1", 2, options={**ALL, "light_and_dark": True}),
        ],
        300,
        25,
    ),
    (
        "advanced",
        [GAME.configure("advanced-duels", 2), GAME.configure("advanced-duels", 2, flags={"ad_repeat_actions": False})],
        200,
        25,
    ),
    (
        "ffa",
        [GAME.configure("versus-ffa", n, options=ALL if n % 2 else {"draft": "pass"}) for n in range(2, 9)],
        280,
        40,
    ),
    (
        "teams",
        [
            GAME.configure("versus-teams", 4, options=ALL),
            GAME.configure("versus-teams-3v3", 6, options=ALL),
            GAME.configure("versus-teams", 4, options={"draft": "pass", "light_and_dark": True}),
        ],
        150,
        40,
    ),
    (
        "flags",
        [
            GAME.configure(
                "versus-ffa",
                3,
                options=ALL,
                flags={
                    "element_cycle": "B",
                    "wind_water_damage": "2/1",
                    "amnesia_pile": "discard",
                    "blood_feast_pass_bonus": False,
                    "sacrifice_to_zero": True,
                    "reactivate_up_to": False,
                    "revenant_immediate": False,
                    "fx_netting": False,
                    "equilibrium_copy_cost": False,
                    "cheat_after_pass": False,
                    "cheat_pays_spell_cost": False,
                    "item_reshuffle": False,
                },
            )
        ],
        120,
        30,
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "configs", "matches", "deep_every"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_conforms(name: str, configs: list[MatchConfig], matches: int, deep_every: int) -> None:
    matches = simulations(matches, max(4 * len(configs), matches // 4))
    report = assert_conforms(GAME, matches=matches, configs=configs, deep_every=deep_every, seed=len(name))
    assert report.matches == matches and report.hidden_differs > 0
    assert sum(report.outcomes.values()) == matches


def test_deep_checks_every_step() -> None:
    configs = [
        GAME.configure("versus-1v1", 2, options=ALL),
        GAME.configure("versus-ffa", 3, options=ALL),
        GAME.configure("advanced-duels", 2),
        GAME.configure("versus-teams", 4, options=ALL),
    ]
    assert_conforms(GAME, matches=24, configs=configs, deep_every=1, seed=7)


def test_teams_and_modes() -> None:
    assert GAME.teams(GAME.configure("versus-teams-3v3", 6)) == ((0, 2, 4), (1, 3, 5))
    assert GAME.teams(GAME.configure("versus-ffa", 3)) == ((0,), (1,), (2,))
    assert {"versus-1v1", "versus-ffa", "versus-teams", "versus-teams-3v3", "advanced-duels"} <= {
        m.id for m in GAME.modes
    }


CREATURE_CONFIGS = [
    GAME.configure("creature-duel", n, options={"archetypes": n % 2 == 0, "modifiers": n % 3}) for n in (1, 2, 3, 4)
] + [
    GAME.configure("witch-king", n, options={"difficulty": d})
    for n, d in ((1, "easy"), (2, "normal"), (3, "hard"), (4, "impossible"))
]


def test_creature_modes_conform() -> None:
    report = assert_conforms(GAME, matches=64, configs=CREATURE_CONFIGS, deep_every=4, seed=5)
    assert report.matches == 64 and report.hidden_differs > 0
    assert {k.split("/")[0] for k in report.by_config} == {"creature-duel", "witch-king"}


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["creature-duel", "witch-king"])
def test_random_bots_finish_many_matches(mode: str) -> None:
    """500 matches per new mode under `make simulate` (120 in `make test`), random bots on views only
    (gamehall.ai), every seat count."""
    from gamehall.ai.arena import play_match
    from gamehall.ai.bot import RandomBot

    configs = [c for c in CREATURE_CONFIGS if c.mode == mode] + [GAME.configure(mode, n) for n in (1, 2, 3, 4)]
    for i in range(simulations(500, 120)):
        config = configs[i % len(configs)]
        result = play_match(GAME, config, [RandomBot() for _ in range(config.seats)], seed=i)
        assert len(result.outcome.ranks) == config.seats
