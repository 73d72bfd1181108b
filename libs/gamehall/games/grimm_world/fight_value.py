"""Martha's chance of winning the fight in progress, estimated from a damage race (a bot heuristic only).

Each side's expected damage per round comes from the Fate odds (1-6) against Dodge and Armor, crit numbers and
the enemies' Block/Dodge reactions. Martha kills the enemies in the order that minimises the damage she takes
(most threat per round of work first); the fight is won if her healthy Action Cards outlast that damage (and, under
the `round_limit` rule flag, the kills fit in the rounds left). An attack already declared, and the Action Cards
still to play this round, count as progress now, so a search prefers using its actions to ending the phase with
them unused.
"""

from __future__ import annotations

import math
from functools import cache

from gamehall.games.grimm_world.catalog import ACTION_CARDS, ENEMIES
from gamehall.games.grimm_world.content.schema import EnemyDef
from gamehall.games.grimm_world.field import battlefield
from gamehall.games.grimm_world.sheet import Weapon, crit_numbers, stats, weapons
from gamehall.games.grimm_world.sight import dodge_modifier
from gamehall.games.grimm_world.state import Fight, FightPhase, Foe, State

REACTION_SHARE = 0.8
"""Share of enemy damage left after Martha's own Block / Dodge reactions (one card per activation)."""


def _p_fate_at_least(need: float) -> float:
    """P(Fate Number >= need) for a Fate Number uniform on 1..6."""
    return min(1.0, max(0.0, (7 - math.ceil(need)) / 6))


def _p_crit(numbers: set[int] | frozenset[int]) -> float:
    return sum(1 for n in numbers if 1 <= n <= 6) / 6


def _martha_hit(attack: int, mod: int, arms: Weapon, crits: set[int], foe: EnemyDef, terrain: int = 0) -> float:
    """Expected HP one attack removes from `foe`, averaged over its Block / Dodge reaction."""
    return _hit(attack, mod, arms.damage, frozenset(crits | set(arms.crit)), foe.number, terrain)


@cache
def _hit(attack: int, mod: int, damage: int, crits: frozenset[int], number: str, terrain: int) -> float:
    foe = ENEMIES[number]
    reaction = foe.reaction
    fires = len(reaction.values) / 6 if reaction.trigger == "attack" and reaction.kind in ("block", "dodge") else 0.0
    crit = _p_crit(crits)
    total = 0.0
    for share, dodge, armor in ((1 - fires, 0, 0), (fires, reaction.value if reaction.kind == "dodge" else 0,
                                                   reaction.value if reaction.kind == "block" else 0)):
        if share <= 0:
            continue
        hit = _p_fate_at_least(foe.dodge + terrain + dodge - attack - mod)
        total += share * (hit * max(0, damage - foe.armor - armor) + crit)
    return total


@cache
def _threat(number: str, dodge: int, armor: int) -> float:
    """Expected Action Cards one attack of enemy `number` costs Martha."""
    foe = ENEMIES[number]
    crits = {6} | (set(foe.crit) if "critical" in foe.skills else set())
    hit = _p_fate_at_least(dodge - foe.attack)
    return REACTION_SHARE * (hit * max(0, foe.damage - armor) + _p_crit(crits))


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def fight_value(state: State) -> float:
    """In [0, 1]: 1 won, 0 lost, else about 0.05 + 0.8 P(win) + shaping for HP removed and cards kept."""
    f = state.fight
    if f is None:
        return 0.5
    if f.result:
        return 1.0 if f.result == "victory" else 0.0
    sheet = state.sheet
    st = stats(sheet)
    healthy = len(sheet.hand) + len(f.discard)
    owned = healthy + len(sheet.damaged)
    arms = weapons(sheet)
    crits = crit_numbers(sheet)
    mods = sorted((a for a in (ACTION_CARDS[c].attack for c in sheet.hand + f.discard) if a is not None),
                  reverse=True)
    live = [(i, foe, ENEMIES[foe.number]) for i, foe in enumerate(f.foes) if foe.hp > 0]
    hp = {i: float(foe.hp) for i, foe, _ in live}
    _credit_now(state, f, st, arms, crits, live, hp)
    jobs = []
    for i, _, definition in live:
        per_round = 0.0
        for w in arms:
            k = min(st["action"], len(mods), w.rate or len(mods))
            per_round = max(per_round, sum((_martha_hit(st["attack"], m, w, crits, definition) for m in mods[:k]), 0.0))
        threat = _threat(definition.number, st["dodge"], st["armor"])
        jobs.append((max(hp[i], 0.0) / max(per_round, 0.05), threat))
    jobs.sort(key=lambda job: job[1] / max(job[0], 1e-6), reverse=True)  # Smith's rule
    clock = taken = 0.0
    for time, threat in jobs:
        clock += time
        taken += threat * clock
    survive = _phi((healthy - 0.5 - taken) / math.sqrt(1.0 + 2.5 * taken))
    in_time = 1.0
    if state.round_limit:  # the rule flag's bound (the book has none, W-CB-07)
        rounds_left = state.round_limit - f.round + (1.0 if f.phase == FightPhase.CHARACTER else 0.5)
        in_time = _phi((rounds_left - clock) / math.sqrt(0.5 + 0.6 * clock))
    total = sum(d.constitution for _, _, d in live) + sum(ENEMIES[foe.number].constitution for foe in f.foes
                                                          if foe.hp <= 0)
    removed = 1.0 - sum(max(0.0, v) for v in hp.values()) / total if total else 1.0
    health = healthy / owned if owned else 0.0
    return min(1.0, max(0.0, 0.05 + 0.8 * survive * in_time + 0.1 * removed + 0.05 * health))


def _credit_now(state: State, f: Fight, st: dict[str, int], arms: list[Weapon], crits: set[int],
                live: list[tuple[int, Foe, EnemyDef]], hp: dict[int, float]) -> None:
    """Take this round's declared attack (and half the worth of cards still to play) off the best target's HP."""
    if f.phase != FightPhase.CHARACTER or f.prompt or not live:
        return
    board = battlefield(f.conflict).board
    figures = {foe.cell for _, foe, _ in live}
    if f.attack:
        best, target = 0.0, -1
        for i, foe, definition in live:
            for w in arms:
                if w.rate is not None and f.uses.get(w.key, 0) >= w.rate:
                    continue
                if board.distance(f.cell, foe.cell) > w.range:
                    continue
                terrain = dodge_modifier(board, f.cell, foe.cell, huge="huge" in definition.skills,
                                         figures=figures - {foe.cell})
                if terrain is None:
                    continue
                value = _martha_hit(st["attack"], f.attack_mod, w, crits | set(f.crits), definition, terrain)
                value = min(value, hp[i])
                if value > best:
                    best, target = value, i
        if target >= 0:
            hp[target] -= best
    room = min(st["action"] - f.played, sum(1 for c in state.sheet.hand if ACTION_CARDS[c].attack is not None))
    if room > 0:
        i, _, definition = min(live, key=lambda entry: hp[entry[0]])
        w = max(arms, key=lambda a: a.damage)
        hp[i] -= 0.5 * room * min(hp[i], _martha_hit(st["attack"], -1, w, crits, definition))
