"""Dice Nim: a tiny sequential game with chance where skill clearly matters (the bots' strength ladder and tests)."""

from gamehall.testing.dice_nim.game import GAME, DiceNim, State, Take

__all__ = ["GAME", "DiceNim", "State", "Take"]
