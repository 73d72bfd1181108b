"""Bots for every game, generic over the engine protocol: they decide from a seat's view, never the state.

    from gamehall.ai import make_bot, play_match
    bot = make_bot("hard")
    action = bot.choose(game, game.view(state, seat), seat, game.legal_actions(state, seat), rng)
"""

from gamehall.ai.arena import (
    MatchResult,
    bot_rng,
    play_match,
    round_robin,
    sequential_cooperative,
    sequential_pair,
    team_result,
)
from gamehall.ai.bench import ismcts_rate, playout_rate
from gamehall.ai.bot import Bot, RandomBot
from gamehall.ai.greedy import GreedyBot
from gamehall.ai.heuristic import (
    Evaluator,
    HeuristicFn,
    find_heuristic,
    find_rollout_depth,
    register_heuristic,
    unregister_heuristic,
)
from gamehall.ai.ismcts import ISMCTSBot, SearchResult, ismcts
from gamehall.ai.levels import LEVELS, make_bot
from gamehall.ai.stats import Sprt, wilson_interval

__all__ = [
    "LEVELS",
    "Bot",
    "Evaluator",
    "GreedyBot",
    "HeuristicFn",
    "ISMCTSBot",
    "MatchResult",
    "RandomBot",
    "SearchResult",
    "Sprt",
    "bot_rng",
    "find_heuristic",
    "find_rollout_depth",
    "ismcts",
    "ismcts_rate",
    "make_bot",
    "play_match",
    "playout_rate",
    "register_heuristic",
    "round_robin",
    "sequential_cooperative",
    "sequential_pair",
    "team_result",
    "unregister_heuristic",
    "wilson_interval",
]
