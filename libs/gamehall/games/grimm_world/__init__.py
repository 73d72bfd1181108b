"""Grimm World (solo fairy-tale adventure): the core systems and tactical grid combat, game id `grimm-world`.

Entry point: ``grimm-world = "gamehall.games.grimm_world:GAME"``.
"""

from gamehall.games.grimm_world.game import GAME, GrimmWorld

__all__ = ["GAME", "GrimmWorld"]
