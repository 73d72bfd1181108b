"""Skill ratings per (game, mode, account), written exactly once per rated match.

The store does not compute ratings (that is the matchmaking library's job, handed in as a `Rater`);
it records the new values computed from the ratings read, guarded two ways in one transaction: the
match id goes into `mm_rated_matches` (a second recording of the same match changes nothing),
and each player's `matches` count must still be what was read (`RatingConflict` otherwise, so a
concurrent update is never overwritten: re-read, recompute, retry). The projection rates a match in
the transaction that projects its finish (`rate_finishes`, a batch's finishes together), the only
writer of ratings.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Final, Protocol

import msgspec

from gamehall.store.core import StoreCore
from gamehall.store.dialect import Dialect
from gamehall.store.errors import InvalidArgument, StoreError
from gamehall.store.records import Seat
from gamehall.store.transaction import Row, Tx

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


class RatedTeams(msgspec.Struct, frozen=True, kw_only=True):
    """Who a finished match rates: teams of accounts and each team's rank (1 is best, equal ranks tie)."""

    teams: tuple[tuple[str, ...], ...]
    ranks: tuple[int, ...]

    @property
    def players(self) -> list[str]:
        return [p for team in self.teams for p in team]


class Rater(Protocol):
    """The rating maths the projection calls inside the transaction that projects a finish."""

    def teams(
        self, match_id: str, game: str, mode: str, seats: Sequence[Seat], ranks: Sequence[int]
    ) -> RatedTeams | None:
        """Who the match rates; None when it rates nobody (fewer than two teams with a human, an unratable match)."""

    def update(self, teams: RatedTeams, before: Mapping[str, PlayerRating]) -> Sequence[RatingUpdate] | None:
        """Every rated player's new rating from the stored ones (`before` lacks players never rated); None when
        they cannot be computed (the match is then left unrated)."""


class Finish(msgspec.Struct, frozen=True, kw_only=True):
    """A finished match the projection rates: its seats and how each ranked."""

    match_id: str
    game: str
    mode: str
    seats: tuple[Seat, ...]
    ranks: tuple[int, ...]


async def rate_finishes(
    tx: Tx, dialect: Dialect, rater: Rater, finishes: Sequence[Finish], now: datetime
) -> list[bool]:
    """Rate a batch's finished matches inside `tx`, in order, with a few statements however many they are; per
    finish, whether it was rated (not when it rates nobody or was rated before). A finish reads the ratings the
    finishes before it left, so a player's matches chain as if each were its own transaction; each player's row
    is then written once, if its match count is still the one read (`RatingConflict` otherwise)."""
    teams = [rater.teams(f.match_id, f.game, f.mode, f.seats, f.ranks) for f in finishes]
    players: dict[tuple[str, str], list[str]] = {}
    for finish, rated_teams in zip(finishes, teams, strict=True):
        if rated_teams is not None:
            players.setdefault((finish.game, finish.mode), []).extend(rated_teams.players)
    if not players:
        return [False] * len(finishes)
    done = await _rated_before(tx, [f.match_id for f, t in zip(finishes, teams, strict=True) if t is not None])
    ratings = {key: await _read(tx, dialect, key[0], key[1], accounts) for key, accounts in players.items()}
    counts_read = {key: {a: r.matches for a, r in found.items()} for key, found in ratings.items()}
    rated: list[bool] = []
    claims: list[tuple[str, str, str, datetime]] = []
    for finish, rated_teams in zip(finishes, teams, strict=True):
        if rated_teams is None or finish.match_id in done:
            rated.append(False)
            continue
        current = ratings[(finish.game, finish.mode)]
        updates = rater.update(rated_teams, {p: current[p] for p in rated_teams.players if p in current})
        if not updates:
            rated.append(False)
            continue
        _check(updates)
        for u in updates:
            stored = current[u.account].matches if u.account in current else 0
            if u.expected_matches != stored:  # as the write's compare-and-swap would find it
                raise RatingConflict(
                    f"the rating of {u.account} in {finish.game}/{finish.mode} was computed from "
                    f"{u.expected_matches} matches, not the {stored} stored"
                )
            current[u.account] = PlayerRating(
                game=finish.game,
                mode=finish.mode,
                account=u.account,
                mu=u.mu,
                sigma=u.sigma,
                matches=u.expected_matches + 1,
                updated_at=now,
            )
        done.add(finish.match_id)
        claims.append((finish.match_id, finish.game, finish.mode, now))
        rated.append(True)
    if claims:  # a claim made meanwhile by another writer fails the whole transaction, which is then retried
        await tx.executemany(
            "INSERT INTO mm_rated_matches (match_id, game, mode, rated_at) VALUES (?, ?, ?, ?)", claims
        )
        for key, current in ratings.items():
            for account, rating in current.items():
                read = counts_read[key].get(account, 0)
                if rating.matches != read:
                    await _store(tx, rating, read, now)
    return rated


async def _rated_before(tx: Tx, match_ids: Sequence[str]) -> set[str]:
    found: set[str] = set()
    for start in range(0, len(match_ids), 500):
        chunk = match_ids[start : start + 500]
        rows = await tx.fetch(
            f"SELECT match_id FROM mm_rated_matches WHERE match_id IN ({StoreCore._placeholders(chunk)})", *chunk
        )
        found.update(str(r["match_id"]) for r in rows)
    return found


async def _store(tx: Tx, rating: PlayerRating, matches_read: int, now: datetime) -> None:
    """A player's rating after a batch's finishes, if its match count is still `matches_read`."""
    ordinal = rating.mu - ORDINAL_Z * rating.sigma
    if matches_read == 0:
        row = await tx.fetchrow(
            "INSERT INTO mm_ratings (game, mode, account, mu, sigma, ordinal, matches, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game, mode, account) DO NOTHING RETURNING account",
            rating.game,
            rating.mode,
            rating.account,
            rating.mu,
            rating.sigma,
            ordinal,
            rating.matches,
            now,
        )
    else:
        row = await tx.fetchrow(
            "UPDATE mm_ratings SET mu = ?, sigma = ?, ordinal = ?, matches = ?, updated_at = ? "
            "WHERE game = ? AND mode = ? AND account = ? AND matches = ? RETURNING account",
            rating.mu,
            rating.sigma,
            ordinal,
            rating.matches,
            now,
            rating.game,
            rating.mode,
            rating.account,
            matches_read,
        )
    if row is None:
        raise RatingConflict(f"the rating of {rating.account} in {rating.game}/{rating.mode} changed since it was read")


async def _read(tx: Tx, dialect: Dialect, game: str, mode: str, accounts: Sequence[str]) -> dict[str, PlayerRating]:
    wanted = list(dict.fromkeys(accounts))
    out: dict[str, PlayerRating] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        rows = await tx.fetch(
            f"SELECT {_COLUMNS} FROM mm_ratings WHERE game = ? AND mode = ? "
            f"AND account IN ({StoreCore._placeholders(chunk)})",
            game,
            mode,
            *chunk,
        )
        out.update((r["account"], _rating_from(r, dialect)) for r in rows)
    return out


def _check(updates: Sequence[RatingUpdate]) -> None:
    if len({u.account for u in updates}) != len(updates):
        raise InvalidArgument("a player appears twice in one rating update")
    for u in updates:
        # Finite values only: NaN is refused by SQLite (NOT NULL) but stored by PostgreSQL, where it
        # ranks above every real rating; an infinity makes the leaderboard ordinal meaningless.
        if not (math.isfinite(u.mu) and math.isfinite(u.sigma) and u.sigma > 0) or u.expected_matches < 0:
            raise InvalidArgument(f"invalid rating for {u.account}: sigma {u.sigma}, matches {u.expected_matches}")


def _rating_from(row: Row, dialect: Dialect) -> PlayerRating:
    return PlayerRating(
        game=row["game"],
        mode=row["mode"],
        account=row["account"],
        mu=float(row["mu"]),
        sigma=float(row["sigma"]),
        matches=int(row["matches"]),
        updated_at=dialect.load_time(row["updated_at"]),
    )


class RatingOps(StoreCore):
    async def ratings(self, game: str, mode: str, accounts: Sequence[str]) -> dict[str, PlayerRating]:
        """The stored ratings of `accounts` (players never rated are absent)."""
        async with self._read() as tx:
            return await _read(tx, self.dialect, game, mode, accounts)

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
        return [_rating_from(r, self.dialect) for r in rows]
