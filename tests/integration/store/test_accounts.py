"""Accounts: unique case-insensitive usernames, lookups, password hash rotation."""

from __future__ import annotations

import pytest

from gamehall.store import AlreadyExists, InvalidArgument, NotFound, Store
from tests.integration.store.helpers import account


async def test_create_and_look_up(store: Store) -> None:
    alice = await store.create_account("Alice", "h1", "operator")
    assert alice.role == "operator"
    assert await store.get_account_by_id(alice.id) == alice
    assert await store.get_account_by_name("alice") == alice
    assert await store.get_account_by_name("ALICE") == alice
    assert (await store.get_account_by_name("alice")).username == "Alice"


async def test_usernames_are_unique_ignoring_case(store: Store) -> None:
    await store.create_account("alice", "h1")
    with pytest.raises(AlreadyExists, match="taken"):
        await store.create_account("ALICE", "h2")
    with pytest.raises(AlreadyExists):
        await store.create_account("alice", "h3")
    await store.create_account("alice2", "h4")


async def test_duplicate_account_id_is_refused(store: Store) -> None:
    alice = await account(store)
    with pytest.raises(AlreadyExists):
        await store.create_account("bob", "h", account_id=alice.id)
    with pytest.raises(NotFound):
        await store.get_account_by_name("bob")


async def test_unknown_accounts_are_not_found(store: Store) -> None:
    with pytest.raises(NotFound):
        await store.get_account_by_id("no-such-id")
    with pytest.raises(NotFound):
        await store.get_account_by_name("nobody")


async def test_bad_role_is_refused(store: Store) -> None:
    with pytest.raises(InvalidArgument):
        await store.create_account("mallory", "h", "admin")  # type: ignore[arg-type]


async def test_password_hash_rotation(store: Store) -> None:
    alice = await account(store)
    await store.set_password_hash(alice.id, "new-hash")
    assert (await store.get_account_by_id(alice.id)).password_hash == "new-hash"
    with pytest.raises(NotFound):
        await store.set_password_hash("no-such-id", "x")
