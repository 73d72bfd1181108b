"""Password hashing (argon2id via argon2-cffi) and the username and password policies.

Hashes are self-describing PHC strings (`$argon2id$v=19$m=...`), so parameters can be raised later:
`needs_rehash` tells the login path to store a fresh hash after a successful verify.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import argon2
from argon2.exceptions import InvalidHashError, VerificationError

from gamehall.auth.errors import InvalidUsername, WeakPassword


class Passwords:
    """Hash and verify passwords; wraps an argon2 `PasswordHasher` (defaults: RFC 9106 low-memory profile)."""

    def __init__(self, hasher: argon2.PasswordHasher | None = None) -> None:
        self._hasher = hasher or argon2.PasswordHasher()

    def hash(self, password: str) -> str:
        return self._hasher.hash(password)

    def verify(self, password_hash: str, password: str) -> bool:
        """True if `password` matches; False on a mismatch or an unreadable hash (never raises for those)."""
        try:
            return self._hasher.verify(password_hash, password)
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, password_hash: str) -> bool:
        """True if the hash was made with other parameters than this hasher's (store a fresh one)."""
        try:
            return self._hasher.check_needs_rehash(password_hash)
        except InvalidHashError:
            return True


_USERNAME_CHARS = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


@dataclass(frozen=True)
class UsernamePolicy:
    """Usernames are shown to everyone: ASCII letters, digits, `_ . -`, starting with a letter or digit."""

    min_length: int = 3
    max_length: int = 32
    reserved: frozenset[str] = field(
        default_factory=lambda: frozenset(
            {"admin", "administrator", "ai-service", "gamehall", "matchmaking-service", "operator", "root", "system"}
        )
    )

    def validate(self, username: str) -> str:
        """Return `username` unchanged if acceptable, else raise InvalidUsername saying what is wrong."""
        if not isinstance(username, str):
            raise InvalidUsername("the username must be a string")
        if len(username) < self.min_length:
            raise InvalidUsername(f"the username must have at least {self.min_length} characters")
        if len(username) > self.max_length:
            raise InvalidUsername(f"the username must have at most {self.max_length} characters")
        if not _USERNAME_CHARS.fullmatch(username):
            raise InvalidUsername(
                "the username may contain only ASCII letters, digits, '_', '.' and '-', "
                "and must start with a letter or digit"
            )
        if username.casefold() in self.reserved:
            raise InvalidUsername(f"the username {username!r} is reserved")
        return username


@dataclass(frozen=True)
class PasswordPolicy:
    """Length over composition (NIST SP 800-63B): long enough, not trivially repetitive, not the username."""

    min_length: int = 10
    max_length: int = 256
    min_distinct: int = 4

    def validate(self, password: str, username: str | None = None) -> str:
        """Return `password` unchanged if acceptable, else raise WeakPassword saying what is wrong."""
        if not isinstance(password, str):
            raise WeakPassword("the password must be a string")
        if len(password) < self.min_length:
            raise WeakPassword(f"the password must have at least {self.min_length} characters")
        if len(password) > self.max_length:
            raise WeakPassword(f"the password must have at most {self.max_length} characters")
        if len(set(password)) < self.min_distinct:
            raise WeakPassword(f"the password must use at least {self.min_distinct} different characters")
        if username and username.casefold() in password.casefold():
            raise WeakPassword("the password must not contain the username")
        return password


DEFAULT_USERNAME_POLICY = UsernamePolicy()
DEFAULT_PASSWORD_POLICY = PasswordPolicy()


def validate_username(username: str) -> str:
    """The default username policy."""
    return DEFAULT_USERNAME_POLICY.validate(username)


def validate_password(password: str, username: str | None = None) -> str:
    """The default password policy."""
    return DEFAULT_PASSWORD_POLICY.validate(password, username)
