"""How far a campaign has come, for bots: the main-quest stage, the way to its next location, the wood, essence
or thalers its next step needs, the items she owns, fights won and lost, time left, health and alignment, in
[0, 1] (a heuristic only; the score is in score.py). A fight in progress is valued as FIGHT_WEIGHT times
(won - lost) ahead, so winning it reads the same from inside and after (see heuristic.py)."""

from __future__ import annotations

from collections import deque

from gamehall.games.grimm_world.atlas import LAST_CHAPTER, REGIONS
from gamehall.games.grimm_world.state import State

FIGHT_WEIGHT = 0.12
STAGES = (("told", 13), ("water", 36), ("curse", 23), ("", 11))
"""Each main-quest flag still missing and where Martha must go to earn it (the last: home to Tronda)."""


def _graph() -> dict[int, set[int]]:
    """Every location's neighbours over all Region Cards (paths and exits; variants share their locations)."""
    edges: dict[int, set[int]] = {}
    for card in REGIONS.values():
        for loc in card.locations:
            edges.setdefault(loc.number, set()).update(loc.paths, loc.exits.values())
    return edges


GRAPH = _graph()


def distance(a: int, b: int) -> int:
    seen, queue = {a: 0}, deque([a])
    while queue:
        here = queue.popleft()
        if here == b:
            return seen[here]
        for nxt in GRAPH.get(here, ()):
            if nxt not in seen:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return 8


def campaign_value(s: State) -> float:
    j = s.journey
    assert j is not None
    if j.result:
        return 1.0 if j.result == "victory" else 0.0
    stage = next(i for i, (flag, _) in enumerate(STAGES) if not flag or flag not in j.flags)
    target = STAGES[stage][1]
    wood = sum(1 for g in j.goods if g.kind == "wood")
    essence = sum(1 for g in j.goods if g.kind == "essence")
    if stage == 1:  # the raft's wood (or the ice), and essence to scatter the spiders
        gathered = max(min(wood, 4) / 4, 1.0 if "ice_rumor" in j.flags else 0.0) * 0.7 + min(essence, 2) / 2 * 0.3
    elif stage == 2:  # essence for the charm or thalers for the bargain, else a fight
        gathered = 0.4 + 0.6 * max(min(essence, 2) / 2, min(s.sheet.thalers, 10) / 10)
    else:
        gathered = 1.0
    near = 1.0 - min(distance(j.location, target), 10) / 10
    kit = min(3, len(s.sheet.equipped) + len(s.sheet.stored)) / 3
    owned = len(s.sheet.hand) + len(s.sheet.damaged)
    health = len(s.sheet.hand) / owned if owned else 0.0
    time_left = max(0.0, (LAST_CHAPTER + 1 - s.chapter) / LAST_CHAPTER)
    fights = FIGHT_WEIGHT * max(-2, min(2, j.won - j.beaten))
    value = (0.2 + fights + 0.12 * stage + 0.08 * near + 0.08 * gathered + 0.12 * time_left + 0.08 * health
             + 0.04 * kit + 0.03 * min(s.sheet.thalers, 20) / 20 + 0.01 * (s.sheet.alignment + 4) / 8)
    return min(0.99, max(0.01, value))


