"""GrimmoiR: the two-player card battle of factions, coins and a 4x3 battlefield (game id `grimmoir`).

Entry point: ``grimmoir = "gamehall.games.grimmoir:GAME"``.
"""

from gamehall.games.grimmoir.game import GAME, Grimmoir

__all__ = ["GAME", "Grimmoir"]
