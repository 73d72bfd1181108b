"""A token's role claim grants nothing: the account record decides (issue 20, finding 1)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest

from gamehall.auth import AccountFacts, Principals, Tokens, UnknownAccount
from gamehall.auth.errors import ExpiredToken, InvalidToken

KEY = "unit-test-signing-key-0123456789-abcdefghij"


@dataclass(frozen=True)
class Subject:
    id: str
    username: str
    role: str


class Directory:
    """An in-memory account table that counts its reads."""

    def __init__(self, *accounts: AccountFacts) -> None:
        self.accounts = {a.id: a for a in accounts}
        self.reads = 0

    async def __call__(self, account_id: str) -> AccountFacts | None:
        self.reads += 1
        return self.accounts.get(account_id)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_role_and_name_come_from_the_account_not_the_token() -> None:
    tokens = Tokens(KEY)
    directory = Directory(AccountFacts("a1", "alice", "player"))
    claims = await Principals(tokens, directory).resolve(tokens.issue(Subject("a1", "root", "operator"), 60))
    assert (claims.sub, claims.role, claims.name) == ("a1", "player", "alice")


async def test_a_token_for_an_account_that_does_not_exist_is_refused() -> None:
    tokens = Tokens(KEY)
    with pytest.raises(UnknownAccount, match="does not exist"):
        await Principals(tokens, Directory()).resolve(tokens.issue(Subject("ghost", "ghost", "operator"), 60))


async def test_unknown_account_is_an_invalid_token_so_callers_answer_unauthenticated() -> None:
    assert issubclass(UnknownAccount, InvalidToken)


async def test_accounts_are_cached_for_the_ttl_then_read_again() -> None:
    tokens, clock = Tokens(KEY), Clock()
    directory = Directory(AccountFacts("a1", "alice", "operator"))
    principals = Principals(tokens, directory, ttl=5.0, timer=clock)
    token = tokens.issue(Subject("a1", "alice", "operator"), 60)
    for _ in range(3):
        assert (await principals.resolve(token)).role == "operator"
    assert directory.reads == 1
    directory.accounts["a1"] = AccountFacts("a1", "alice", "player")  # demoted
    clock.now = 6.0
    assert (await principals.resolve(token)).role == "player"
    assert directory.reads == 2


async def test_forget_drops_the_cached_account() -> None:
    tokens = Tokens(KEY)
    directory = Directory(AccountFacts("a1", "alice", "player"))
    principals = Principals(tokens, directory)
    token = tokens.issue(Subject("a1", "alice", "player"), 60)
    await principals.resolve(token)
    del directory.accounts["a1"]
    principals.forget("a1")
    with pytest.raises(UnknownAccount):
        await principals.resolve(token)


async def test_an_account_with_an_unknown_role_is_refused() -> None:
    tokens = Tokens(KEY)
    directory = Directory(AccountFacts("a1", "alice", "superuser"))
    with pytest.raises(InvalidToken, match="no valid role"):
        await Principals(tokens, directory).resolve(tokens.issue(Subject("a1", "alice", "player"), 60))


async def test_a_forged_signature_never_reaches_the_directory() -> None:
    directory = Directory(AccountFacts("a1", "alice", "operator"))
    forged = Tokens("another-key-that-is-long-enough-0123456789").issue(Subject("a1", "alice", "operator"), 60)
    with pytest.raises(InvalidToken):
        await Principals(Tokens(KEY), directory).resolve(forged)
    assert directory.reads == 0


async def test_a_verified_token_is_remembered_but_still_expires(monkeypatch: pytest.MonkeyPatch) -> None:
    tokens = Tokens(KEY)
    directory = Directory(AccountFacts("a1", "alice", "player"))
    principals = Principals(tokens, directory)
    token = tokens.issue(Subject("a1", "alice", "player"), 60)
    verified: list[str] = []
    real_verify = tokens.verify
    monkeypatch.setattr(tokens, "verify", lambda t: verified.append(t) or real_verify(t))
    await principals.resolve(token)
    await principals.resolve(token)
    assert verified == [token]  # the signature is checked once, not on every call
    later = (await principals.resolve(token)).exp + 1
    monkeypatch.setattr("gamehall.auth.principals.time.time", lambda: later)
    with pytest.raises(ExpiredToken):
        await principals.resolve(token)


class SlowDirectory(Directory):
    """Reads that take a while (answering with the row as it was when the read began), so calls overlap."""

    async def __call__(self, account_id: str) -> AccountFacts | None:
        found = await super().__call__(account_id)
        await asyncio.sleep(0.01)
        return found


async def test_calls_that_miss_together_share_one_account_read() -> None:
    tokens = Tokens(KEY)
    directory = SlowDirectory(AccountFacts("a1", "alice", "player"))
    principals = Principals(tokens, directory)
    token = tokens.issue(Subject("a1", "alice", "player"), 60)
    resolved = await asyncio.gather(*(principals.resolve(token) for _ in range(50)))
    assert directory.reads == 1
    assert {c.name for c in resolved} == {"alice"}


async def test_an_account_forgotten_during_a_read_is_read_again_by_later_calls() -> None:
    tokens = Tokens(KEY)
    directory = SlowDirectory(AccountFacts("a1", "alice", "player"))
    principals = Principals(tokens, directory)
    token = tokens.issue(Subject("a1", "alice", "player"), 60)
    first = asyncio.ensure_future(principals.resolve(token))
    await asyncio.sleep(0)
    directory.accounts["a1"] = AccountFacts("a1", "alice", "operator")
    principals.forget("a1")
    later = await principals.resolve(token)
    await first
    assert later.role == "operator" and directory.reads == 2


async def test_while_the_store_is_away_an_account_read_recently_is_used_as_last_read() -> None:
    """Issue 36: players at a table keep playing through a database outage; an account never read (or read longer
    ago than `stale_if_away`) still fails as the store did, and an answer "no such account" is never overridden."""
    from gamehall.store.errors import Unavailable

    tokens, clock = Tokens(KEY), Clock()
    directory = Directory(AccountFacts("a1", "alice", "player"), AccountFacts("b2", "bob", "player"))
    principals = Principals(tokens, directory, ttl=5.0, stale_if_away=60.0, timer=clock)
    alice, bob = tokens.issue(Subject("a1", "alice", "player"), 600), tokens.issue(Subject("b2", "bob", "player"), 600)
    assert (await principals.resolve(alice)).name == "alice"

    async def away(account_id: str) -> AccountFacts | None:
        raise Unavailable("PostgreSQL is unavailable")

    principals._lookup = away
    clock.now = 30.0  # past the cache's ttl: the account is read again, and the store is away
    assert (await principals.resolve(alice)).name == "alice"
    with pytest.raises(Unavailable):
        await principals.resolve(bob)  # never read: nothing to fall back on
    clock.now = 100.0
    with pytest.raises(Unavailable):
        await principals.resolve(alice)  # read too long ago


async def test_an_accounts_name_is_read_once_and_shared_with_resolve() -> None:
    """`account` (the gateway names the people seated in a match with it) uses the same cache as `resolve`."""
    tokens = Tokens(KEY)
    directory = Directory(AccountFacts("a1", "alice", "player"))
    principals = Principals(tokens, directory)
    first = await principals.account("a1")
    assert first is not None and first.username == "alice"
    await principals.resolve(tokens.issue(Subject("a1", "alice", "player"), 60))
    assert await principals.account("nobody") is None
    assert directory.reads == 2  # a1 once (then cached), nobody once
