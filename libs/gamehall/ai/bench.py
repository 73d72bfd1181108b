"""Speed measurements for `make bench`: ISMCTS iterations per second and random playout actions per second."""

from __future__ import annotations

import random
import time
from typing import Any

from gamehall.ai.arena import bot_rng
from gamehall.ai.ismcts import ISMCTSBot
from gamehall.ai.playout import random_playout
from gamehall.engine import Game, JsonDict, MatchConfig


def ismcts_rate(
    game: Game[Any], config: MatchConfig, *, iterations: int = 300, positions: int = 3, seed: int = 0
) -> JsonDict:
    """Run `iterations` ISMCTS iterations from `positions` positions (reached by random play) and time them.

    The search is configured as the bot levels use it (rollouts cut at the game's ROLLOUT_DEPTH, if declared).
    """
    rng = random.Random(seed)
    elapsed = 0.0
    ran = 0
    for p in range(positions):
        state = game.new_match(config, seed + p)
        state, _ = random_playout(game, state, rng, max_steps=rng.randrange(0, 6))
        if game.outcome(state) is not None:
            state = game.new_match(config, seed + p)
        seat = min(game.to_act(state))
        view, legal = game.view(state, seat), list(game.legal_actions(state, seat))
        start = time.perf_counter()
        result = ISMCTSBot(iterations=iterations).search(game, view, seat, legal, bot_rng(seed + p, seat))
        elapsed += time.perf_counter() - start
        ran += result.iterations
    return {
        "game": game.id,
        "config": config.to_json(),
        "iterations": ran,
        "seconds": elapsed,
        "iterations_per_s": ran / elapsed if elapsed > 0 else float("inf"),
    }


def playout_rate(game: Game[Any], config: MatchConfig, *, matches: int = 200, seed: int = 0) -> JsonDict:
    """Random playouts from fresh matches (legal_actions + apply): actions per second on one core."""
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for m in range(matches):
        _, steps = random_playout(game, game.new_match(config, seed + m), rng)
        actions += steps
    elapsed = time.perf_counter() - start
    return {
        "game": game.id,
        "config": config.to_json(),
        "matches": matches,
        "actions": actions,
        "seconds": elapsed,
        "actions_per_s": actions / elapsed if elapsed > 0 else float("inf"),
    }
