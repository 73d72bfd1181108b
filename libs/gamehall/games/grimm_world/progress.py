"""How far a campaign has come, for bots: the main-quest stage, the way to its next location once the step can be
taken there, the wood, ice, essence or thalers that step needs, Martha's strength (upgrades, cards, weapons at
hand), fights won and lost, time left, health and alignment, in [0, 1] (a heuristic only; the score is in
score.py). A fight in progress is valued as FIGHT_WEIGHT times (won - lost) ahead, so winning it reads the same
from inside and after (see heuristic.py)."""

from __future__ import annotations

from collections import deque

from gamehall.games.grimm_world.atlas import LAST_CHAPTER, REGIONS
from gamehall.games.grimm_world.catalog import ITEMS
from gamehall.games.grimm_world.sheet import stats
from gamehall.games.grimm_world.state import State

FIGHT_WEIGHT = 0.05
STAGE_WEIGHT = 0.18
STAGES = (("told", 13), ("water", 36), ("curse", 23), ("", 11))
"""Each main-quest flag still missing and where Martha must go to earn it (the last: home to Tronda)."""
ICE = "Y320"
"""The Lost Page that lets Martha walk to the isle once the lake has frozen (chapter 5's frost places it)."""
FAR = 8
"""Distances are counted up to this many steps."""
GATES = {1: "Y512", 2: "Y506"}
"""The card whose choice earns a stage's flag (the spring's spiders, the witch): being in it is nearly there."""


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
    return FAR


def _ready(s: State) -> tuple[float, float]:
    """(what the next main-quest step needs, in [0, 1]; how much of it is usable now rather than later)."""
    j = s.journey
    assert j is not None
    wood = sum(1 for g in j.goods if g.kind == "wood")
    essence = sum(1 for g in j.goods if g.kind == "essence")
    stage = _stage(s)
    if stage == 1:  # the raft's wood or the ice, and essence to scatter the spiders
        ice_now = ICE in j.bar
        way = max(min(wood, 4) / 4, 1.0 if ice_now else 0.0, 0.5 if "ice_rumor" in j.flags else 0.0)
        usable = max(1.0 if wood >= 4 else 0.0, 1.0 if ice_now else 0.0)
        return 0.7 * way + 0.3 * min(essence, 2) / 2, usable
    if stage == 2:  # essence for the charm or thalers for the bargain, else a fight
        return 0.4 + 0.6 * max(min(essence, 2) / 2, min(s.sheet.thalers, 10) / 10), 1.0
    return 1.0, 1.0


def _stage(s: State) -> int:
    j = s.journey
    assert j is not None
    return next(i for i, (flag, _) in enumerate(STAGES) if not flag or flag not in j.flags)


def _strength(s: State) -> tuple[float, float]:
    """(growth from upgrades and extra Action Cards, in [0, 1]; weapons and shield at hand, in [0, 1])."""
    sheet = s.sheet
    st = stats(sheet)
    owned = len(sheet.hand) + len(sheet.damaged)
    growth = min(1.0, (max(0, owned - 4) + len(sheet.upgrades) * 2 + st["attack"]) / 8)
    damage = max((ITEMS[k].damage for k in sheet.equipped if ITEMS[k].weapon), default=0)
    guard = sum(max(0, ITEMS[k].mods.get("dodge", 0)) + max(0, ITEMS[k].mods.get("armor", 0)) for k in sheet.equipped)
    return growth, 0.6 * min(damage, 2) / 2 + 0.4 * min(guard, 2) / 2


def campaign_value(s: State) -> float:
    """Each main-quest stage is worth STAGE_WEIGHT; inside a stage, what its step needs and the way to where it
    can be taken add up to 0.9 of a stage, so earning the flag never reads worse than being ready for it."""
    j = s.journey
    assert j is not None
    if j.result:
        return 1.0 if j.result == "victory" else 0.0
    stage = _stage(s)
    gathered, usable = _ready(s)
    near = (1.0 - min(distance(j.location, STAGES[stage][1]), FAR) / FAR) * (0.3 + 0.7 * usable)
    growth, ready = _strength(s)
    owned = len(s.sheet.hand) + len(s.sheet.damaged)
    health = len(s.sheet.hand) / owned if owned else 0.0
    time_left = max(0.0, (LAST_CHAPTER + 1 - s.chapter) / LAST_CHAPTER)
    fights = FIGHT_WEIGHT * max(-2, min(2, j.won - j.beaten))
    within = 0.45 * gathered + 0.45 * near
    if GATES.get(stage) in j.resolving:
        within = 0.95
    value = (0.02 + fights + STAGE_WEIGHT * (stage + within) + 0.15 * time_left
             + 0.04 * health + 0.05 * growth + 0.06 * ready + 0.01 * min(s.sheet.thalers, 20) / 20
             + 0.005 * (s.sheet.alignment + 4) / 8)
    return min(0.99, max(0.01, value))
