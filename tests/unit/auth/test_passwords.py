"""Password hashing and the username/password policies."""

from __future__ import annotations

import argon2
import pytest

from gamehall.auth import (
    InvalidUsername,
    PasswordPolicy,
    Passwords,
    WeakPassword,
    validate_password,
    validate_username,
)

# Cheap parameters keep the suite fast; one test uses the library defaults.
FAST = Passwords(argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))


def test_hash_and_verify_with_default_parameters() -> None:
    passwords = Passwords()
    hashed = passwords.hash("correct horse battery staple")
    assert hashed.startswith("$argon2id$")
    assert passwords.verify(hashed, "correct horse battery staple")
    assert not passwords.verify(hashed, "correct horse battery stapler")
    assert not passwords.needs_rehash(hashed)


def test_hashes_are_salted() -> None:
    assert FAST.hash("same password") != FAST.hash("same password")


def test_wrong_password_and_garbage_hash_do_not_verify() -> None:
    hashed = FAST.hash("s3cret-enough")
    assert FAST.verify(hashed, "s3cret-enough")
    assert not FAST.verify(hashed, "S3cret-enough")
    assert not FAST.verify("not a hash", "s3cret-enough")
    assert not FAST.verify("", "s3cret-enough")


def test_needs_rehash_when_parameters_change() -> None:
    old = FAST.hash("a long passphrase")
    assert not FAST.needs_rehash(old)
    assert Passwords().needs_rehash(old)
    assert FAST.needs_rehash("garbage")


@pytest.mark.parametrize("name", ["bob", "Alice_99", "a.b-c", "x" * 32, "9lives"])
def test_good_usernames(name: str) -> None:
    assert validate_username(name) == name


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("ab", "at least 3"),
        ("x" * 33, "at most 32"),
        ("_hidden", "start with a letter or digit"),
        ("bad name", "only ASCII"),
        ("émile", "only ASCII"),
        ("Admin", "reserved"),
        ("SYSTEM", "reserved"),
    ],
)
def test_bad_usernames(name: str, reason: str) -> None:
    with pytest.raises(InvalidUsername, match=reason):
        validate_username(name)


def test_good_passwords() -> None:
    assert validate_password("correct horse battery", "alice") == "correct horse battery"
    assert validate_password("x1y2z3w4v5")


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("short1!", "at least 10"),
        ("aaaaaaaaaaaa", "different characters"),
        ("abababababab", "different characters"),
        ("my-name-is-Alice!", "username"),
        ("p" * 200 + "qrs" + "t" * 100, "at most 256"),
    ],
)
def test_weak_passwords(password: str, reason: str) -> None:
    with pytest.raises(WeakPassword, match=reason):
        validate_password(password, "alice")


def test_policies_are_configurable() -> None:
    lenient = PasswordPolicy(min_length=4, min_distinct=2)
    assert lenient.validate("abab") == "abab"
    with pytest.raises(WeakPassword):
        PasswordPolicy().validate("abab")
