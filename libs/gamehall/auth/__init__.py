"""Accounts library: password hashing and policies, signed bearer tokens, roles."""

from gamehall.auth.errors import AuthError, ExpiredToken, InvalidToken, InvalidUsername, PermissionDenied, WeakPassword
from gamehall.auth.passwords import (
    PasswordPolicy,
    Passwords,
    UsernamePolicy,
    validate_password,
    validate_username,
)
from gamehall.auth.principals import AccountFacts, AccountLookup, Principals, UnknownAccount
from gamehall.auth.roles import BOT, OPERATOR, PLAYER, ROLES, Role, is_role, require_role
from gamehall.auth.tokens import Claims, Tokens, TokenSubject

__all__ = [
    "BOT",
    "OPERATOR",
    "PLAYER",
    "ROLES",
    "AccountFacts",
    "AccountLookup",
    "AuthError",
    "Claims",
    "ExpiredToken",
    "InvalidToken",
    "InvalidUsername",
    "PasswordPolicy",
    "Passwords",
    "PermissionDenied",
    "Principals",
    "Role",
    "TokenSubject",
    "Tokens",
    "UnknownAccount",
    "UsernamePolicy",
    "WeakPassword",
    "is_role",
    "require_role",
    "validate_password",
    "validate_username",
]
