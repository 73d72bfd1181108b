"""A position evaluation for bots: `evaluate(state, seat)` in [0, 1], Martha's chance of winning the skirmish.

It weighs the share of enemy HP already removed against the share of Martha's Action Cards still off the
Damage Card, and the rounds left before the conflict's limit. Bots call it on determinized states only.
"""

from __future__ import annotations

from gamehall.games.grimm_world.catalog import ENEMIES
from gamehall.games.grimm_world.field import battlefield
from gamehall.games.grimm_world.state import State

ROLLOUT_DEPTH = 24
"""About one Character Phase plus an Enemy Phase of random play, after which the HP balance still guides."""


def evaluate(state: State, seat: int) -> float:
    if state.journey is not None:
        from gamehall.games.grimm_world.progress import FIGHT_WEIGHT, campaign_value

        value = campaign_value(state)
        if state.fight is not None and not state.fight.result:
            value += FIGHT_WEIGHT * (2 * _fight_value(state) - 1)  # the fight's result, read ahead
        return min(0.99, max(0.01, value))
    return _fight_value(state)


def _fight_value(state: State) -> float:
    f = state.fight
    if f is None:
        return 0.5
    if f.result:
        return 1.0 if f.result == "victory" else 0.0
    total = sum(ENEMIES[foe.number].constitution for foe in f.foes)
    removed = sum(ENEMIES[foe.number].constitution - foe.hp for foe in f.foes) / total
    sheet = state.sheet
    owned = len(sheet.hand) + len(f.discard) + len(sheet.damaged)
    health = (len(sheet.hand) + len(f.discard)) / owned if owned else 0.0
    limit = battlefield(f.conflict).round_limit
    time_left = max(0.0, (limit - f.round + 1) / limit)
    value = 0.1 + 0.5 * removed + 0.3 * health + 0.1 * time_left * health
    return min(1.0, max(0.0, value))
