"""Who a bearer token speaks for: its signature proves the account id, the account record says the rest.

A token's `role` and `name` claims are display hints from issue time and are never trusted for a
permission: `Principals.resolve` replaces them with the account's current role and username, so a
token for an account that was deleted, or whose role changed, stops carrying the old rights within
`ttl` seconds (the per-replica cache that keeps this off the hot path).

While the store is away (its read fails UNAVAILABLE), an account read within the last `stale_if_away` seconds
is used as it was last read, so players already at a table keep playing through a database outage (the moves
need only their match's owner and the log); an account never read, or read longer ago, fails as the store did.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import msgspec
from cachetools import TTLCache

from gamehall.auth.errors import ExpiredToken, InvalidToken
from gamehall.auth.roles import ROLES
from gamehall.auth.tokens import Claims, Tokens
from gamehall.runtime import patience

VERIFIED_TTL_SECONDS = 60.0
STALE_IF_AWAY_SECONDS = 600.0


@dataclass(frozen=True)
class AccountFacts:
    """What authorisation needs of an account record."""

    id: str
    username: str
    role: str


AccountLookup = Callable[[str], Awaitable[AccountFacts | None]]
"""Reads the account with this id from the store; None when there is no such account."""


class UnknownAccount(InvalidToken):
    """A well-signed token whose account does not exist (deleted, or never created by this platform)."""


class Principals:
    """Verifies bearer tokens and resolves their account's role from the store, cached per replica."""

    def __init__(
        self,
        tokens: Tokens,
        lookup: AccountLookup,
        *,
        ttl: float = 5.0,
        stale_if_away: float = STALE_IF_AWAY_SECONDS,
        max_accounts: int = 100_000,
        timer: Callable[[], float] = time.monotonic,
    ) -> None:
        self.tokens = tokens
        self._lookup = lookup
        self._cache: TTLCache[str, AccountFacts] = TTLCache(maxsize=max_accounts, ttl=ttl, timer=timer)
        self._last_read: TTLCache[str, AccountFacts] = TTLCache(maxsize=max_accounts, ttl=stale_if_away, timer=timer)
        """Each account as last read, for calls made while the store is away."""
        self._verified: TTLCache[str, Claims] = TTLCache(maxsize=max_accounts, ttl=VERIFIED_TTL_SECONDS, timer=timer)
        """Tokens whose signature was checked (an HMAC and a JSON parse, ~0.1 ms) on a recent call."""
        self._reading: dict[str, asyncio.Future[AccountFacts | None]] = {}
        """Account reads in flight: the calls that miss together (every caller of a busy account, the moment
        its cache entry expires) share one read instead of each making its own."""

    async def resolve(self, token: str) -> Claims:
        """The token's claims with `role` and `name` taken from the account record.

        Raises ExpiredToken / InvalidToken for a bad token and UnknownAccount when its account is gone.
        """
        claims = self._verified.get(token)
        if claims is None:
            claims = self.tokens.verify(token)
            self._verified[token] = claims
        elif claims.exp <= time.time() - self.tokens.leeway:
            del self._verified[token]
            raise ExpiredToken("the token has expired; log in again")
        facts = self._cache.get(claims.sub)
        if facts is None:
            try:
                facts = await self._read(claims.sub)
            except Exception as exc:
                facts = self._last_read.get(claims.sub) if patience.is_away(exc) else None
                if facts is None:
                    raise
            else:
                if facts is None:
                    self._last_read.pop(claims.sub, None)
                    raise UnknownAccount("the account of this token does not exist; register or log in again")
                self._cache[claims.sub] = self._last_read[claims.sub] = facts
        if facts.role not in ROLES:
            raise InvalidToken(f"the account {facts.username!r} has no valid role")
        return msgspec.structs.replace(claims, role=facts.role, name=facts.username)

    async def account(self, account_id: str) -> AccountFacts | None:
        """An account's facts (its username, for display), from the same per-replica cache as `resolve`."""
        facts = self._cache.get(account_id)
        if facts is None:
            facts = await self._read(account_id)
            if facts is not None:
                self._cache[account_id] = facts
        return facts

    async def _read(self, account_id: str) -> AccountFacts | None:
        reading = self._reading.get(account_id)
        if reading is None:
            reading = asyncio.ensure_future(self._lookup(account_id))
            self._reading[account_id] = reading
            reading.add_done_callback(lambda done: self._done_reading(account_id, done))
        return await asyncio.shield(reading)  # one caller giving up does not cancel the others' read

    def _done_reading(self, account_id: str, done: asyncio.Future[AccountFacts | None]) -> None:
        if self._reading.get(account_id) is done:
            del self._reading[account_id]
        if not done.cancelled():
            done.exception()  # retrieved: a failed read nobody waits for any more is not logged as unhandled

    def forget(self, account_id: str) -> None:
        """Drop a cached account (after this replica changed it) so the next call reads it again."""
        self._cache.pop(account_id, None)
        self._last_read.pop(account_id, None)
        self._reading.pop(account_id, None)  # a read begun before the change must not serve later calls


__all__ = ["AccountFacts", "AccountLookup", "Principals", "UnknownAccount"]
