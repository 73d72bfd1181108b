"""Tiny Epic Quest (Gamelyn Games): heroes quest by Day and adventure with dice by Night; 2-4 players or solo.

Entry point: ``tiny-epic-quest = "gamehall.games.tiny_epic_quest:GAME"``.
"""

from gamehall.games.tiny_epic_quest.game import GAME, TinyEpicQuest

__all__ = ["GAME", "TinyEpicQuest"]
