"""Simple policies: the turn clock's default action, a uniform random bot and a one-ply greedy bot."""

from __future__ import annotations

import random

from gamehall.engine.protocol import Action
from gamehall.games.grimslingers import machine
from gamehall.games.grimslingers.actions import Choose, EndStandoff, Pass, StopPicking
from gamehall.games.grimslingers.state import (
    P_GRIT,
    P_JUJU,
    P_REDIRECT,
    P_RESURRECT,
    P_REVENANT,
    P_SPECTER,
    State,
)

_KEEP_ALIVE = (P_RESURRECT, P_JUJU, P_REVENANT, P_SPECTER, P_GRIT)


def default_action(s: State, seat: int) -> Action | None:
    """What a turn clock plays: end the Standoff, pass, stop picking, keep a Redirect target as it
    is, and take any revival or absorption offered (largest amount); otherwise the first choice."""
    legal = machine.legal(s, seat)
    if not legal:
        return None
    for preferred in (EndStandoff(), Pass(), StopPicking()):
        if preferred in legal:
            return preferred
    if s.prompts:
        prompt = s.prompts[0]
        if prompt.kind in _KEEP_ALIVE:
            return Choose(max(prompt.options))
        if prompt.kind == P_REDIRECT:
            return Choose(s.plays[prompt.ref].target)
    return legal[0]


def random_action(s: State, seat: int, rng: random.Random) -> Action:
    return rng.choice(machine.legal(s, seat))
