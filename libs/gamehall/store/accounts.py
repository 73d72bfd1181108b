"""Account operations: create, look up by id or (case-insensitive) username, rotate the password hash."""

from __future__ import annotations

import uuid

from gamehall.auth.roles import ROLES, Role
from gamehall.store.core import StoreCore
from gamehall.store.errors import AlreadyExists, InvalidArgument, NotFound
from gamehall.store.records import Account
from gamehall.store.rows import ACCOUNT_COLUMNS, account_from


def username_key(username: str) -> str:
    """The form usernames are compared in: `Alice` and `alice` are the same account."""
    return username.casefold()


class AccountOps(StoreCore):
    async def create_account(
        self, username: str, password_hash: str, role: Role = "player", *, account_id: str | None = None
    ) -> Account:
        """A new account; AlreadyExists if the username (in any letter case) or the id is taken.

        Validate the username and hash the password first (`gamehall.auth`): the store stores what it is given.
        """
        if role not in ROLES:
            raise InvalidArgument(f"role must be one of {list(ROLES)}, not {role!r}")
        if not username or not password_hash:
            raise InvalidArgument("an account needs a username and a password hash")
        account = Account(
            id=account_id or str(uuid.uuid4()),
            username=username,
            password_hash=password_hash,
            role=role,
            created_at=self._now(),
        )
        async with self._read() as tx:
            taken = await tx.fetchrow("SELECT id FROM accounts WHERE username_key = ?", username_key(username))
        if taken is not None:
            raise AlreadyExists(f"the username {username!r} is taken")
        try:
            async with self._write() as tx:
                await tx.execute(
                    "INSERT INTO accounts (id, username, username_key, password_hash, role, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    account.id,
                    account.username,
                    username_key(account.username),
                    account.password_hash,
                    account.role,
                    account.created_at,
                )
        except AlreadyExists as exc:  # lost a race with a concurrent sign-up, or a duplicate id
            raise AlreadyExists(f"the username {username!r} or account id {account.id} is taken") from exc
        return account

    async def get_account_by_id(self, account_id: str) -> Account:
        async with self._read() as tx:
            row = await tx.fetchrow(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = ?", account_id)
        if row is None:
            raise NotFound(f"no account with id {account_id}")
        return account_from(row, self.dialect)

    async def get_account_by_name(self, username: str) -> Account:
        """Case-insensitive: `get_account_by_name("ALICE")` finds `alice`."""
        async with self._read() as tx:
            row = await tx.fetchrow(
                f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE username_key = ?", username_key(username)
            )
        if row is None:
            raise NotFound(f"no account named {username!r}")
        return account_from(row, self.dialect)

    async def set_password_hash(self, account_id: str, password_hash: str) -> None:
        """Replace the stored hash (after a password change, or when `needs_rehash` says so)."""
        if not password_hash:
            raise InvalidArgument("the password hash must not be empty")
        async with self._write() as tx:
            row = await tx.fetchrow(
                "UPDATE accounts SET password_hash = ? WHERE id = ? RETURNING id", password_hash, account_id
            )
        if row is None:
            raise NotFound(f"no account with id {account_id}")
