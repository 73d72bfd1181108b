"""Simple policies: the turn clock's default action and a uniform random bot.

The default action must make progress, so that a match in which every seat only times out
still ends: a seat that times out aims at a foe, plays its hardest-hitting element spell (or
reloads one when it has none left), and otherwise passes. Elements always deal DMG, so HP
keeps falling until the duel is decided (checked for every mode with all seats timing out).
"""

from __future__ import annotations

import random

from gamehall.engine.protocol import Action
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers import machine, tale_bots
from gamehall.games.grimslingers.actions import Aim, Choose, EndStandoff, Pass, Pick, Play, Reload, StopPicking
from gamehall.games.grimslingers.revival import JUJU
from gamehall.games.grimslingers.state import Phase, PickKind, PromptKind, State
from gamehall.games.grimslingers.table import is_foe
from gamehall.games.grimslingers.tale_effects import over_limit

_KEEP_ALIVE = (
    PromptKind.RESURRECT,
    PromptKind.REVIVE_JUJU,
    PromptKind.REVENANT,
    PromptKind.SPECTER,
    PromptKind.TRUE_GRIT,
)
_PRIORITY = tuple(cat.ID[k] for k in ("ICE", "LIGHTNING", "FIRE", "WIND", "WATER", "EARTH"))
"""ICE first (its EP drain also stops revivals), then by DMG; EARTH last (it heals its caster as much)."""


def _best_element(cards: list[int]) -> int:
    for c in _PRIORITY:
        if c in cards:
            return c
    return -1


def default_action(s: State, seat: int) -> Action | None:
    """What a turn clock plays on timeout (see the module docstring); prompts keep the seat alive."""
    legal = machine.legal(s, seat)
    if not legal:
        return None
    x = s.seats[seat]
    if s.phase == Phase.ADVENTURE and not s.prompts:
        return tale_bots.default_action(s, seat, legal)
    if over_limit(s) == seat and not s.prompts and s.picking is None:
        return tale_bots.default_action(s, seat, legal)  # stashing an excess in a duel
    if s.prompts:
        prompt = s.prompts[0]
        if prompt.kind in _KEEP_ALIVE:
            answers = [a.option for a in legal if isinstance(a, Choose)]
            return Choose(JUJU if max(answers) == 0 and JUJU in answers else max(answers))
        if prompt.kind == PromptKind.REDIRECT:
            return Choose(s.plays[prompt.ref].target)
        return EndStandoff() if EndStandoff() in legal else legal[0]
    if s.picking is not None:
        if s.picking.kind in (PickKind.RELOAD, PickKind.RECALL):
            best = _best_element([cat.ID[a.card] for a in legal if isinstance(a, Pick)])
            if best >= 0 and s.picking.taken == 0:
                return Pick(cat.KEYS[best])
        return StopPicking() if StopPicking() in legal else legal[0]
    if s.phase == Phase.STANDOFF:
        if _best_element(x.hand) < 0 and _best_element(x.discard) >= 0 and Reload() in legal:
            return Reload()
        return EndStandoff()
    if s.phase == Phase.AIM:
        foes = [a for a in legal if isinstance(a, Aim) and is_foe(s, seat, a.target)]
        return foes[0] if foes else legal[0]
    if s.phase == Phase.FIRE:
        best = _best_element(x.hand)
        if best >= 0 and Play(cat.KEYS[best]) in legal:
            return Play(cat.KEYS[best])
        return Pass()
    return legal[0]


def random_action(s: State, seat: int, rng: random.Random) -> Action:
    return rng.choice(machine.legal(s, seat))
