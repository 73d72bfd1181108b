"""The campaign's leaderboard score: how the book judges a campaign, read as the cure found, time to spare,
chapters survived, alignment, wealth and fights won (documented in the README's Grimm World section)."""

from __future__ import annotations

from gamehall.games.grimm_world.atlas import LAST_CHAPTER, PRICES
from gamehall.games.grimm_world.catalog import ITEMS
from gamehall.games.grimm_world.state import State

VICTORY = 200
PER_CHAPTER = 10
PER_FLAG = 15
MAIN_FLAGS = ("told", "water", "curse")


def wealth(s: State) -> int:
    """Thalers plus what the goods and items would sell for (goods at the lowest symbol's sell price)."""
    j = s.journey
    goods = len(j.goods) * PRICES[1].sell if j else 0
    items = sum(ITEMS[k].sell for k in s.sheet.equipped + s.sheet.stored)
    items += sum(ITEMS[k].sell_broken for k in s.sheet.broken)
    return s.sheet.thalers + goods + items


def score(s: State) -> float:
    """200 for the cure (more than any defeat can reach), 10 per chapter to spare at the end, 15 per main-quest
    step, 10 per chapter completed, -10 per chapter lost, 5 per alignment step, 1 per 5 thalers of wealth, 3 per
    fight won."""
    j = s.journey
    if j is None:
        return 0.0
    won = j.result == "victory"
    spare = max(0, LAST_CHAPTER - s.chapter) if won else 0
    steps = sum(1 for f in MAIN_FLAGS if f in j.flags)
    value = (VICTORY * won + PER_CHAPTER * spare + PER_FLAG * steps + PER_CHAPTER * (j.completed - j.lost)
             + 5 * s.sheet.alignment + wealth(s) // 5 + 3 * j.won)
    return float(value)
