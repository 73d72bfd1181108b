"""How far a campaign has come, for bots: the main-quest stage, the way to its next location once the step can be
taken there, the wood, ice, essence or thalers that step needs, Martha's strength (upgrades, cards, weapons at
hand), fights won and lost, time left (to the card: the deck's special card lies at a counted depth), health and
alignment, in [0, 1] (a heuristic only; the score is in score.py). A fight in progress is read through an Outlook:
the state as it will be once the fight is won or lost (see heuristic.py)."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from gamehall.games.grimm_world.atlas import LAST_CHAPTER, PAGES, REGIONS
from gamehall.games.grimm_world.catalog import ITEMS, NEXT_CHAPTER, TIME_PASSES
from gamehall.games.grimm_world.sheet import stats
from gamehall.games.grimm_world.state import State

FIGHT_WEIGHT = 0.02
STAGE_WEIGHT = 0.12
RACE_WEIGHT = 0.3
ROUNDS_PER_CHAPTER = 6
"""Exploration rounds a chapter lasts, about (measured on bot campaigns: each round cycles some ten cards of the
30-card deck looking for a matching landscape, and a chapter is two passes)."""
STAGES = (("told", 13), ("water", 36), ("curse", 23), ("", 11))
"""Each main-quest flag still missing and where Martha must go to earn it (the last: home to Tronda)."""
ICE = "Y320"
"""The Lost Page that lets Martha walk to the isle once the lake has frozen (the frost of chapter 10 places it)."""
RAFT = 4
"""The logs the raft needs (Y501)."""
PRICE = 4
"""About what a good costs at a market (the designed price cards run 2-8): buying at this price or less is
progress, dearer is not."""
FIGHT_QUESTS = frozenset(
    k for k, c in PAGES.items() if c.kind == "quest" and c.level and any(op.op == "fight" for op in c.ops)
)
"""Side quests that are a fight: once taken, it is fought every round Martha stands at its location (W-QE-01),
and Vast Green's wolves lie on every road out of Tronda."""
QUEST_FIGHT_COST = 0.02
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


@dataclass(frozen=True)
class Outlook:
    """A fight's outcome laid over the state (a bot reads a fight in progress as won or lost, see heuristic.py):
    fights won (+1) or lost (-1), chapters it costs, healthy cards left after it, the main-quest flag it earns."""

    fights: int = 0
    thalers: int = 0
    chapters: int = 0
    healthy: int | None = None
    flag: str = ""


NOW = Outlook()


LEGS = tuple(
    sum(distance(STAGES[i][1], STAGES[i + 1][1]) for i in range(k, len(STAGES) - 1)) for k in range(len(STAGES))
)
"""Steps from each stage's location to the end of the quest (Triha, the lake, Hedge Hollow, Tronda)."""


def _ready(s: State, stage: int, thalers: int) -> tuple[float, float]:
    """(what the next main-quest step needs, in [0, 1]; how much of it is usable now rather than later).
    Thalers count for the goods still missing at about a market's price (0.6 of a good, as buying needs a
    market)."""
    j = s.journey
    assert j is not None
    wood = sum(1 for g in j.goods if g.kind == "wood")
    essence = sum(1 for g in j.goods if g.kind == "essence")
    if stage <= 1:  # the raft's wood (or the ice), and essence to scatter the spiders rather than fight them
        ice_now = ICE in j.bar
        logs = 0 if ice_now else RAFT - (2 if "ice_rumor" in j.flags else 0)
        have = min(wood, logs) + min(essence, 2)
        short = logs + 2 - have
        gathered = (have + 0.6 * min(short, thalers / PRICE)) / (logs + 2)
        usable = (1.0 if wood >= logs else 0.0) * (1.0 if essence >= 2 else 0.4)
        return gathered, 1.0 if stage == 0 else usable
    if stage == 2:  # essence for the charm or thalers for the bargain, else a fight
        charm = min(2.0, essence + 0.6 * thalers / PRICE) / 2
        return 0.4 + 0.6 * max(charm, min(thalers, 10) / 10), 1.0
    return 1.0, 1.0


def chapter_left(s: State) -> float:
    """Share of the current chapter still to run, in [0, 1]: the cards above the special card (a player counts
    them, W-ED-08) out of the two passes of the deck a chapter lasts (W-TM-09), so the Farm's cycled cards and a
    long search for a matching landscape read as time spent before the chapter turns."""
    decks = s.decks
    if NEXT_CHAPTER in decks.surfaced or decks.chapter_due:
        return 0.0
    if TIME_PASSES in decks.surfaced:
        return 0.5
    cards = decks.encounter
    at = next((i for i, c in enumerate(cards) if c in (TIME_PASSES, NEXT_CHAPTER)), -1)
    if at < 0:
        return 0.5
    n = max(1, len(cards) - 1)
    if cards[at] == TIME_PASSES:
        return min(1.0, (at + n) / (2 * n))
    return min(0.5, at / (2 * n))


def _stage(flags: list[str]) -> int:
    return next(i for i, (flag, _) in enumerate(STAGES) if not flag or flag not in flags)


def _at_gate(s: State, stage: int) -> bool:
    """Martha stands in the card that earns the stage's flag and holds what earns it without a fight (a fight
    there is read through its odds instead, so a gate entered without the essence is no longer nearly done)."""
    j = s.journey
    assert j is not None
    if GATES.get(stage) not in j.resolving or (s.fight is not None and not s.fight.result):
        return False
    essence = sum(1 for g in j.goods if g.kind == "essence")
    return essence >= 2 or (stage == 2 and s.sheet.thalers >= 10)


def _strength(s: State) -> tuple[float, float]:
    """(growth from upgrades and extra Action Cards, in [0, 1]; weapons and shield at hand, in [0, 1])."""
    sheet = s.sheet
    st = stats(sheet)
    owned = len(sheet.hand) + len(sheet.damaged)
    growth = min(1.0, (max(0, owned - 4) + len(sheet.upgrades) * 2 + st["attack"]) / 8)
    damage = max((ITEMS[k].damage for k in sheet.equipped if ITEMS[k].weapon), default=0)
    guard = sum(max(0, ITEMS[k].mods.get("dodge", 0)) + max(0, ITEMS[k].mods.get("armor", 0)) for k in sheet.equipped)
    return growth, 0.6 * min(damage, 2) / 2 + 0.4 * min(guard, 2) / 2


def campaign_value(s: State, after: Outlook = NOW) -> float:
    """Each main-quest stage is worth STAGE_WEIGHT; inside a stage, what its step needs and the way to where it
    can be taken add up to 0.7 of a stage (0.8 inside the card that earns it, holding its price), so earning the flag
    is worth a good part of a stage even where all was ready (a risky check for it is then worth taking).
    `after` reads the state as it will be once the fight in progress is over."""
    j = s.journey
    assert j is not None
    if j.result:
        return 1.0 if j.result == "victory" else 0.0
    chapter = s.chapter + after.chapters
    if chapter > LAST_CHAPTER:
        return 0.01  # the chapters it costs end the story
    stage = _stage([*j.flags, after.flag] if after.flag else j.flags)
    thalers = max(0, s.sheet.thalers + after.thalers)
    gathered, usable = _ready(s, stage, thalers)
    near = (1.0 - min(distance(j.location, STAGES[stage][1]), FAR) / FAR) * (0.3 + 0.7 * usable)
    growth, ready = _strength(s)
    owned = len(s.sheet.hand) + len(s.sheet.damaged)
    healthy = len(s.sheet.hand) if after.healthy is None else after.healthy
    health = min(1.0, healthy / owned) if owned else 0.0
    chapters_left = max(0.0, LAST_CHAPTER - chapter + (chapter_left(s) if not after.chapters else 1.0))
    fights = FIGHT_WEIGHT * max(-2, min(2, j.won - j.beaten + after.fights))
    within = 0.35 * gathered + 0.35 * near
    if _at_gate(s, stage):
        within = 0.8
    value = (
        fights
        + STAGE_WEIGHT * (stage + within)
        + 0.1 * chapters_left / LAST_CHAPTER
        + RACE_WEIGHT * race(s, stage, chapters_left, thalers)
        + 0.02 * health
        + 0.02 * min(healthy, 3) / 3
        + 0.03 * growth
        + 0.03 * ready
        + 0.01 * min(thalers, 20) / 20
        + 0.005 * (s.sheet.alignment + 4) / 8
        - QUEST_FIGHT_COST * sum(q in FIGHT_QUESTS for q in j.quests)
    )
    return min(0.99, max(0.01, value))


def race(s: State, stage: int, chapters_left: float, thalers: int) -> float:
    """The chance of finishing the main quest in time, in [0, 1]: rounds left (chapters left at
    ROUNDS_PER_CHAPTER) against the steps still to walk along the quest's locations and a round for each good
    still missing that the purse cannot buy. A lost chapter or a detour costs most when time is short."""
    j = s.journey
    assert j is not None
    walk = distance(j.location, STAGES[stage][1]) + LEGS[stage]
    missing = 0.0
    if stage <= 2:
        wood = sum(1 for g in j.goods if g.kind == "wood")
        essence = sum(1 for g in j.goods if g.kind == "essence")
        logs = 0 if stage == 2 or ICE in j.bar else RAFT
        short = max(0, logs - wood) + max(0, (2 if stage == 2 else 4) - essence)
        missing = max(0.0, short - thalers / PRICE)
    rounds = chapters_left * ROUNDS_PER_CHAPTER
    spread = 3.0 + 0.2 * rounds  # a long way ahead is less certain: fights, detours, the deck's cycling
    return 0.5 * (1.0 + math.erf((rounds - walk - missing) / (spread * math.sqrt(2.0))))
