"""Battlefields and the registry the combat engine reads them from (content conflicts, or test fixtures)."""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.games.grimm_world.board import Board, conflict_board
from gamehall.games.grimm_world.catalog import CONFLICTS


@dataclass
class Battlefield:
    """The board and Decision Compass of one conflict."""

    board: Board
    compass: dict[str, int]


_fixtures: dict[str, Battlefield] = {}


def register_fixture(key: str, battlefield: Battlefield) -> None:
    """Make a hand-built battlefield available under `key` (scenario fixtures)."""
    _fixtures[key] = battlefield


def battlefield(key: str) -> Battlefield:
    found = _fixtures.get(key)
    if found is not None:
        return found
    conflict = CONFLICTS[key]
    found = Battlefield(conflict_board(key), dict(conflict.compass))
    _fixtures[key] = found
    return found
