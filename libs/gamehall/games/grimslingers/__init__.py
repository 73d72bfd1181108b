"""Grimslingers (Greenbrier Games): the versus rules engine, registered as game id `grimslingers`.

Entry point: ``grimslingers = "gamehall.games.grimslingers:GAME"``.
"""

from gamehall.games.grimslingers.game import GAME, Grimslingers

__all__ = ["GAME", "Grimslingers"]
