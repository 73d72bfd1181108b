"""Ratings: one row per (game, mode, player) in persistence; queues and leaderboards read them here.

A finished match is rated by persistence, in the transaction that projects its finish (ARCHITECTURE
rule 6, `gamehall_services.persistence.rating`); matchmaking only reads ratings.
"""

from __future__ import annotations

from collections.abc import Sequence

from gamehall.matchmaking import LedgerEntry, Rating
from gamehall_services.matchmaking.store_client import MatchmakingStore


class Ratings:
    """Ratings per (game, mode), read through the matchmaking store."""

    def __init__(self, store: MatchmakingStore) -> None:
        self.store = store

    async def rating(self, game: str, mode: str, player: str) -> Rating:
        return (await self.store.ratings(game, mode, [player]))[player]

    async def ratings(self, game: str, mode: str, players: Sequence[str]) -> dict[str, Rating]:
        return await self.store.ratings(game, mode, players)

    async def leaderboard(self, game: str, mode: str, limit: int) -> list[LedgerEntry]:
        rows = await self.store.leaderboard(game, mode, limit)
        return [LedgerEntry(k + 1, player, r.ordinal, r) for k, (player, r) in enumerate(rows)]
