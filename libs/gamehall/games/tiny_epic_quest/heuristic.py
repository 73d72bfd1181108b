"""A position evaluation for bots: `evaluate(state, seat)` in [0, 1], higher is better for `seat`.

It counts the victory points already banked plus the expected worth of work in progress (temple steps,
legendary tracks, goblin damage, obelisk heroes, Health and Power), then compares with the best rival
(or with the solo goal) through a logistic squash. Used by the greedy bot and the future ISMCTS bot.
"""

from __future__ import annotations

import math

import msgspec

from gamehall.games.tiny_epic_quest.night import magic_level
from gamehall.games.tiny_epic_quest.progress import LEGEND_DONE
from gamehall.games.tiny_epic_quest.scoring import victory_points
from gamehall.games.tiny_epic_quest.state import ADVENTURING, HEROES, ROUNDS, Phase, State, hero_type
from gamehall.games.tiny_epic_quest.tables import (
    GOBLIN_HITS,
    LAST_SPACE,
    OBELISK,
    PORTAL,
    QUEST_TEMPLE,
    REGIONS,
    SCORE_GOBLINS,
    SCORE_QUESTS,
    SCORE_SPELLS,
    TEMPLE,
)

SCALE = 4.0


def _marginal(table: tuple[int, ...], n: int) -> float:
    return float(table[min(n + 1, len(table) - 1)] - table[min(n, len(table) - 1)])


def potential(s: State, seat: int) -> float:
    """Banked VP plus a discounted value for unfinished progress."""
    vp = float(victory_points(s, seat))
    if s.phase == Phase.OVER:
        return vp
    remaining = (ROUNDS - s.round + 1) / ROUNDS
    quest_step = _marginal(SCORE_QUESTS, len(s.quests_done[seat]))
    goblin_step = _marginal(SCORE_GOBLINS, s.goblins[seat])
    spell_step = _marginal(SCORE_SPELLS, s.spell[seat])
    extra = 0.0
    for k in range(3):
        if s.legend[seat][k] not in (0, LEGEND_DONE):
            extra += 1.6
    row_temples = {QUEST_TEMPLE[q] for q in s.row}
    base = HEROES * seat
    for i in range(HEROES):
        h = base + i
        kind = hero_type(s, h)
        if kind == TEMPLE:
            temple = REGIONS[s.side][s.cards[s.hero_slot[h]]][s.hero_region[h]][1]
            # A completion may bring a Treasure Quest and a Legendary step (about 2.2 VP of value).
            worth = 2.2 + (quest_step + 0.5 if temple in row_temples else 0.0)
            extra += worth * (0.15 + 0.85 * s.hero_progress[h] / LAST_SPACE) * (0.5 + 0.5 * remaining)
        elif kind == PORTAL:
            slot = s.hero_slot[h]
            extra += goblin_step * (0.25 + 0.6 * s.goblin_damage[slot] / GOBLIN_HITS)
        elif kind == OBELISK:
            level = magic_level(s) if s.phase == Phase.NIGHT else 1
            extra += spell_step * (0.2 + 0.25 * level) + 0.3
    extra += 0.25 * s.power[seat] + 0.12 * s.health[seat]
    if s.phase == Phase.NIGHT and s.status[seat] == ADVENTURING:
        extra += 0.05 * sum(msgspec.structs.astuple(s.pool[seat])) if s.pool else 0.0  # torches, scrolls, attacks
        extra -= 0.6 * max(0, 3 - s.health[seat])
    return vp + extra


ROLLOUT_DEPTH = 10
"""Search may stop random rollouts after this many actions and trust `evaluate`:
about one day turn or night roll of every seat, after which VP progress still guides."""


def evaluate(state: State, seat: int) -> float:
    """Win-likelihood proxy in [0, 1] for `seat`."""
    mine = potential(state, seat)
    if state.mode == "solo":
        margin = mine - state.goal
        return 1.0 / (1.0 + math.exp(-margin / (2 * SCALE)))
    best_other = max(potential(state, p) for p in range(state.seats) if p != seat)
    margin = mine - best_other
    return 1.0 / (1.0 + math.exp(-margin / SCALE))
