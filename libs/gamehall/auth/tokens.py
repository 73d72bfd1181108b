"""Signed bearer tokens (JWT, HS256) that the gateway issues at login and every service verifies.

A token carries who (`sub` = account id, `name`), what they may do (`role`), when it was issued and
expires (`iat`, `exp`), who issued it (`iss`, always checked) and a unique id (`jti`) for revocation
lists. The signing key comes from the caller's settings and must be at least 32 bytes (256 bits).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any, Final, Protocol

import jwt
import msgspec

from gamehall.auth.errors import ExpiredToken, InvalidToken
from gamehall.auth.roles import ROLES, Role

ALGORITHM: Final = "HS256"
ISSUER: Final = "gamehall"
MIN_KEY_BYTES: Final = 32
_REQUIRED_CLAIMS: Final = ["sub", "name", "role", "iat", "exp", "iss", "jti"]


class Claims(msgspec.Struct, frozen=True, kw_only=True):
    """The verified content of a token."""

    sub: str
    """The account id."""
    name: str
    """The username at issue time (for display and logs; authorise on `sub` and `role`)."""
    role: Role
    iat: int
    exp: int
    iss: str
    jti: str

    @property
    def account_id(self) -> str:
        return self.sub


class TokenSubject(Protocol):
    """Anything a token can be issued for: the store's `Account` fits."""

    @property
    def id(self) -> str: ...

    @property
    def username(self) -> str: ...

    @property
    def role(self) -> str: ...


class Tokens:
    """Issues and verifies tokens with one HS256 key.

    `clock` (seconds since the epoch) dates the tokens it issues; verification uses the real clock,
    with `leeway` seconds of tolerance for clock skew between services.
    """

    def __init__(
        self,
        key: str | bytes,
        *,
        issuer: str = ISSUER,
        leeway: float = 0.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        key_bytes = key.encode() if isinstance(key, str) else bytes(key)
        if len(key_bytes) < MIN_KEY_BYTES:
            raise ValueError(
                f"the token signing key must be at least {MIN_KEY_BYTES} bytes, got {len(key_bytes)}; "
                "generate one with `python -c 'import secrets; print(secrets.token_urlsafe(48))'`"
            )
        self._key = key_bytes
        self.issuer = issuer
        self.leeway = leeway
        self._clock = clock

    def issue(self, account: TokenSubject, ttl: timedelta | float) -> str:
        """A token for `account` valid for `ttl` (a timedelta or seconds)."""
        seconds = ttl.total_seconds() if isinstance(ttl, timedelta) else float(ttl)
        if seconds <= 0:
            raise ValueError(f"token ttl must be positive, got {seconds} s")
        if account.role not in ROLES:
            raise ValueError(f"account {account.username!r} has unknown role {account.role!r}")
        now = int(self._clock())
        payload: dict[str, Any] = {
            "sub": account.id,
            "name": account.username,
            "role": account.role,
            "iat": now,
            "exp": now + max(1, round(seconds)),
            "iss": self.issuer,
            "jti": uuid.uuid4().hex,
        }
        return jwt.encode(payload, self._key, algorithm=ALGORITHM)

    def verify(self, token: str) -> Claims:
        """The claims of a valid token; raises ExpiredToken or InvalidToken (forged, wrong issuer, malformed)."""
        try:
            payload = jwt.decode(
                token,
                self._key,
                algorithms=[ALGORITHM],
                issuer=self.issuer,
                leeway=self.leeway,
                options={"require": _REQUIRED_CLAIMS},
            )
        except jwt.ExpiredSignatureError as exc:
            raise ExpiredToken("the token has expired; log in again") from exc
        except jwt.InvalidIssuerError as exc:
            raise InvalidToken(f"the token was not issued by {self.issuer}") from exc
        except jwt.InvalidSignatureError as exc:
            raise InvalidToken("the token signature is not valid") from exc
        except jwt.MissingRequiredClaimError as exc:
            raise InvalidToken(f"the token lacks the {exc.claim!r} claim") from exc
        except jwt.InvalidTokenError as exc:
            raise InvalidToken(f"the token is not valid: {exc}") from exc
        try:
            claims = msgspec.convert(payload, Claims)
        except msgspec.ValidationError as exc:
            raise InvalidToken(f"the token claims are malformed: {exc}") from exc
        if not claims.sub:
            raise InvalidToken("the token has an empty subject")
        return claims
