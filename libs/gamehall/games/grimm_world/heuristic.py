"""A position evaluation for bots: `evaluate(state, seat)` in [0, 1], Martha's chance of winning the skirmish
(or, in a campaign, of curing Hedda). Bots call it on determinized states only.

A fight is valued by a damage race (fight_value.py), a campaign by its progress (progress.py) plus the fight in
progress read ahead. Random rollouts are cut after one action:
random fight play mostly wastes cards, so the evaluation guides the search better than a random continuation.
"""

from __future__ import annotations

from gamehall.games.grimm_world.fight_value import fight_value
from gamehall.games.grimm_world.state import State

ROLLOUT_DEPTH = 1
"""Random actions after a search leaf before the evaluation (1 measured best against 2 and 24 on skirmishes)."""


def evaluate(state: State, seat: int) -> float:
    if state.journey is None:
        return fight_value(state)
    return _campaign(state)


def _fighting(s: State) -> bool:
    return s.fight is not None and not s.fight.result


def _campaign(s: State) -> float:
    from gamehall.games.grimm_world.progress import FIGHT_WEIGHT, campaign_value

    value = campaign_value(s)
    if _fighting(s):
        value += FIGHT_WEIGHT * (2 * fight_value(s) - 1)  # the fight's result, read ahead
    return min(0.99, max(0.01, value))
