"""Skill ratings per (game, mode, account), written exactly once per rated match.

The store does not compute ratings (that is the matchmaking library's job); it records the new
values a caller computed from the ratings it read, guarded two ways in one transaction: the
match id goes into `mm_rated_matches` (a second recording of the same match changes nothing),
and each player's `matches` count must still be what the caller read (`RatingConflict`
otherwise, so a concurrent update is never overwritten: re-read, recompute, retry).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime
from typing import Final

import msgspec

from gamehall.store.core import StoreCore
from gamehall.store.errors import InvalidArgument, StoreError
from gamehall.store.outbox import write_outbox
from gamehall.store.records import OutboxMessage
from gamehall.store.transaction import Row

ORDINAL_Z: Final = 3.0
"""Leaderboards order by mu - 3 sigma (the same conservative rating as the library's)."""
MAX_BOARD: Final = 10_000
_COLUMNS = "game, mode, account, mu, sigma, matches, updated_at"


class RatingConflict(StoreError):
    """A player's rating changed since the caller read it; re-read and recompute."""

    grpc_status = "ABORTED"


class PlayerRating(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    mode: str
    account: str
    mu: float
    sigma: float
    matches: int
    updated_at: datetime


class RatingUpdate(msgspec.Struct, frozen=True, kw_only=True):
    """A player's new rating; `expected_matches` is the count read (0 for a player never rated)."""

    account: str
    expected_matches: int
    mu: float
    sigma: float


class RatingOps(StoreCore):
    async def ratings(self, game: str, mode: str, accounts: Sequence[str]) -> dict[str, PlayerRating]:
        """The stored ratings of `accounts` (players never rated are absent)."""
        wanted = list(dict.fromkeys(accounts))
        out: dict[str, PlayerRating] = {}
        async with self._read() as tx:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                rows = await tx.fetch(
                    f"SELECT {_COLUMNS} FROM mm_ratings WHERE game = ? AND mode = ? "
                    f"AND account IN ({self._placeholders(chunk)})",
                    game,
                    mode,
                    *chunk,
                )
                out.update((r["account"], self._rating_from(r)) for r in rows)
        return out

    async def record_ratings(
        self,
        match_id: str,
        game: str,
        mode: str,
        updates: Sequence[RatingUpdate],
        outbox: Sequence[OutboxMessage] = (),
    ) -> bool:
        """Store the ratings a rated match produced; False (nothing written) if the match was recorded before."""
        if not match_id or not updates:
            raise InvalidArgument("recording ratings needs a match id and at least one player")
        if len({u.account for u in updates}) != len(updates):
            raise InvalidArgument("a player appears twice in one rating update")
        for u in updates:
            # Finite values only: NaN is refused by SQLite (NOT NULL) but stored by PostgreSQL, where it
            # ranks above every real rating; an infinity makes the leaderboard ordinal meaningless.
            if not (math.isfinite(u.mu) and math.isfinite(u.sigma) and u.sigma > 0) or u.expected_matches < 0:
                raise InvalidArgument(f"invalid rating for {u.account}: sigma {u.sigma}, matches {u.expected_matches}")
        async with self._write() as tx:
            now = self._now()
            inserted = await tx.fetchrow(
                "INSERT INTO mm_rated_matches (match_id, game, mode, rated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (match_id) DO NOTHING RETURNING match_id",
                match_id,
                game,
                mode,
                now,
            )
            if inserted is None:
                return False
            for u in updates:
                ordinal = u.mu - ORDINAL_Z * u.sigma
                if u.expected_matches == 0:
                    row = await tx.fetchrow(
                        "INSERT INTO mm_ratings (game, mode, account, mu, sigma, ordinal, matches, updated_at) "
                        "VALUES (?, ?, ?, ?, ?, ?, 1, ?) "
                        "ON CONFLICT (game, mode, account) DO NOTHING RETURNING account",
                        game,
                        mode,
                        u.account,
                        u.mu,
                        u.sigma,
                        ordinal,
                        now,
                    )
                else:
                    row = await tx.fetchrow(
                        "UPDATE mm_ratings SET mu = ?, sigma = ?, ordinal = ?, matches = matches + 1, updated_at = ? "
                        "WHERE game = ? AND mode = ? AND account = ? AND matches = ? RETURNING account",
                        u.mu,
                        u.sigma,
                        ordinal,
                        now,
                        game,
                        mode,
                        u.account,
                        u.expected_matches,
                    )
                if row is None:
                    raise RatingConflict(f"the rating of {u.account} in {game}/{mode} changed since it was read")
            await write_outbox(tx, outbox, now)
        return True

    async def is_rated(self, match_id: str) -> bool:
        async with self._read() as tx:
            return await tx.fetchrow("SELECT 1 AS x FROM mm_rated_matches WHERE match_id = ?", match_id) is not None

    async def leaderboard(
        self, game: str, mode: str, *, limit: int = 100, offset: int = 0, min_matches: int = 0
    ) -> list[PlayerRating]:
        """Best first by mu - 3 sigma (ties by account id)."""
        if not 1 <= limit <= MAX_BOARD or offset < 0:
            raise InvalidArgument(f"limit must be within 1..{MAX_BOARD} and offset not negative")
        async with self._read() as tx:
            rows = await tx.fetch(
                f"SELECT {_COLUMNS} FROM mm_ratings WHERE game = ? AND mode = ? AND matches >= ? "
                f"ORDER BY ordinal DESC, account LIMIT ? OFFSET ?",
                game,
                mode,
                min_matches,
                limit,
                offset,
            )
        return [self._rating_from(r) for r in rows]

    def _rating_from(self, row: Row) -> PlayerRating:
        return PlayerRating(
            game=row["game"],
            mode=row["mode"],
            account=row["account"],
            mu=float(row["mu"]),
            sigma=float(row["sigma"]),
            matches=int(row["matches"]),
            updated_at=self.dialect.load_time(row["updated_at"]),
        )
