"""Engine rows: random-playout actions/s and encode/decode µs for every registered game."""

from __future__ import annotations

import random
import time
from typing import Any

from gamehall.ai.bench import ismcts_rate, playout_rate
from gamehall.ai.playout import random_playout
from gamehall.bench.rows import Row
from gamehall.engine import Game, MatchConfig, all_games


def bench_configs(game: Game[Any]) -> list[MatchConfig]:
    """Each mode at its smallest and largest seat count."""
    configs = []
    for mode in game.modes:
        for seats in sorted({min(mode.seats), max(mode.seats)}):
            configs.append(game.configure(mode.id, seats))
    return configs


def codec_micros(game: Game[Any], config: MatchConfig, samples: int = 200) -> tuple[float, float, int]:
    """Mean µs to encode and to decode a mid-game state, and its size in bytes."""
    rng = random.Random(1)
    state, _ = random_playout(game, game.new_match(config, 1), rng, max_steps=20)
    blob = game.encode(state)
    start = time.perf_counter()
    for _ in range(samples):
        game.encode(state)
    enc = (time.perf_counter() - start) / samples * 1e6
    start = time.perf_counter()
    for _ in range(samples):
        game.decode(blob)
    dec = (time.perf_counter() - start) / samples * 1e6
    return enc, dec, len(blob)


GOALS = {"grimslingers": 20_000, "grimmoir": 20_000, "tiny-epic-quest": 15_000}
PLAYOUTS = {("grimm-world", "campaign"): (5, 20)}
"""(quick, full) playouts for modes whose matches run hundreds of actions (a whole Grimm World campaign)."""


def engine_rows(games: list[str] | None = None, quick: bool = False) -> list[Row]:
    rows = []
    for game in all_games():
        if games and game.id not in games:
            continue
        for config in bench_configs(game):
            label = f"{game.id} {config.mode}/{config.seats}"
            quick_n, full_n = PLAYOUTS.get((game.id, config.mode), (20, 100))
            rate = playout_rate(game, config, matches=quick_n if quick else full_n)
            goal = f"≥ {GOALS[game.id]:,}/s (1 core)" if game.id in GOALS else ""
            rows.append(Row(f"{label} playout", rate["actions_per_s"], "actions/s", baseline="cpu baseline", goal=goal))
            enc, dec, size = codec_micros(game, config)
            rows.append(Row(f"{label} encode", enc, "µs/state", extra=f"{size} bytes"))
            rows.append(Row(f"{label} decode", dec, "µs/state", extra=f"{size} bytes"))
        first = bench_configs(game)[0]
        its = ismcts_rate(game, first, iterations=100 if quick else 300)
        rows.append(
            Row(
                f"{game.id} {first.mode}/{first.seats} ISMCTS",
                its["iterations_per_s"],
                "iterations/s",
                baseline="cpu baseline",
                goal="≥ 2,000/s" if game.id in ("grimslingers", "grimmoir") else "",
            )
        )
    return rows
