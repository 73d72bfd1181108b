"""Stored match records for the rules replica's unit tests (what persistence would answer)."""

from __future__ import annotations

from typing import Any

from gamehall.engine import Game
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.wire.convert import dumps


def match_record(
    game: Game[Any], seats: list[ppb.SeatRecord], *, status: str = "running", version: int = 0, game_id: str = ""
) -> ppb.MatchRecord:
    """Match `m1` of `game` at its default config, dealt from seed 3 (`game_id` overrides the stored game)."""
    return ppb.MatchRecord(
        id="m1",
        game=game_id or game.id,
        status=status,
        version=version,
        seed=3,
        config_json=dumps(game.configure().to_json()),
        seats=seats,
    )
