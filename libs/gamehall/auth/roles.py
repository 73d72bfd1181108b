"""The three roles an account can have, and the check a service makes before a privileged call."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal, get_args

from gamehall.auth.errors import PermissionDenied

if TYPE_CHECKING:
    from gamehall.auth.tokens import Claims

Role = Literal["player", "operator", "bot"]
"""`player`: a person playing; `operator`: runs the platform (tournaments, moderation); `bot`: an AI seat-filler."""

ROLES: Final[tuple[Role, ...]] = get_args(Role)
PLAYER: Final[Role] = "player"
OPERATOR: Final[Role] = "operator"
BOT: Final[Role] = "bot"


def is_role(value: object) -> bool:
    """True if `value` is one of the known role names."""
    return value in ROLES


def require_role(claims: Claims, *roles: Role) -> Claims:
    """Return `claims` if its role is one of `roles`, else raise PermissionDenied saying which roles may."""
    if not roles:
        raise ValueError("require_role needs at least one role")
    unknown = [r for r in roles if r not in ROLES]
    if unknown:
        raise ValueError(f"unknown role(s) {unknown}; roles are {list(ROLES)}")
    if claims.role not in roles:
        allowed = " or ".join(roles)
        raise PermissionDenied(f"this operation needs the {allowed} role; account {claims.name!r} is a {claims.role}")
    return claims
