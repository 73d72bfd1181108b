"""Bearer tokens: round trip, expiry, forgery, issuer, claims, key length; and role checks."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import timedelta

import jwt
import pytest

from gamehall.auth import (
    Claims,
    ExpiredToken,
    InvalidToken,
    PermissionDenied,
    Tokens,
    require_role,
)

KEY = "k" * 16 + "-a-long-enough-test-signing-key"
OTHER_KEY = "o" * 16 + "-another-long-enough-signing-key"


@dataclass(frozen=True)
class FakeAccount:
    id: str
    username: str
    role: str


ALICE = FakeAccount("acc-1", "alice", "player")
ROOT = FakeAccount("acc-2", "ops", "operator")


def test_round_trip() -> None:
    tokens = Tokens(KEY)
    claims = tokens.verify(tokens.issue(ALICE, timedelta(minutes=5)))
    assert (claims.sub, claims.account_id, claims.name, claims.role, claims.iss) == (
        "acc-1",
        "acc-1",
        "alice",
        "player",
        "gamehall",
    )
    assert claims.exp - claims.iat == 300
    assert abs(claims.iat - time.time()) < 60


def test_every_token_has_its_own_id() -> None:
    tokens = Tokens(KEY)
    assert tokens.verify(tokens.issue(ALICE, 60)).jti != tokens.verify(tokens.issue(ALICE, 60)).jti


def test_expired() -> None:
    issued_long_ago = Tokens(KEY, clock=lambda: time.time() - 3600)
    token = issued_long_ago.issue(ALICE, 60)
    with pytest.raises(ExpiredToken, match="expired"):
        Tokens(KEY).verify(token)
    assert Tokens(KEY, leeway=7200).verify(token).sub == "acc-1"  # tolerated skew


def test_forged_signature() -> None:
    forged = Tokens(OTHER_KEY).issue(ROOT, 60)
    with pytest.raises(InvalidToken, match="signature"):
        Tokens(KEY).verify(forged)
    genuine = Tokens(KEY).issue(ALICE, 60)
    header, payload, signature = genuine.split(".")
    tampered_payload = jwt.utils.base64url_encode(
        jwt.utils.base64url_decode(payload).replace(b'"player"', b'"operator"')
    ).decode()
    with pytest.raises(InvalidToken):
        Tokens(KEY).verify(f"{header}.{tampered_payload}.{signature}")


def test_unsigned_tokens_are_refused() -> None:
    unsigned = jwt.encode(
        {
            "sub": "acc-2",
            "name": "ops",
            "role": "operator",
            "iat": int(time.time()),
            "exp": int(time.time()) + 60,
            "iss": "gamehall",
            "jti": "x",
        },
        key=None,
        algorithm="none",
    )
    with pytest.raises(InvalidToken):
        Tokens(KEY).verify(unsigned)


def test_wrong_issuer() -> None:
    token = Tokens(KEY, issuer="someone-else").issue(ALICE, 60)
    with pytest.raises(InvalidToken, match="issued by gamehall"):
        Tokens(KEY).verify(token)


def test_missing_or_bad_claims() -> None:
    now = int(time.time())
    base = {"sub": "acc-1", "name": "alice", "role": "player", "iat": now, "exp": now + 60}
    base |= {"iss": "gamehall", "jti": "j"}
    without_role = {k: v for k, v in base.items() if k != "role"}
    with pytest.raises(InvalidToken, match="role"):
        Tokens(KEY).verify(jwt.encode(without_role, KEY, algorithm="HS256"))
    with pytest.raises(InvalidToken, match="malformed"):
        Tokens(KEY).verify(jwt.encode({**base, "role": "emperor"}, KEY, algorithm="HS256"))
    with pytest.raises(InvalidToken, match="empty subject"):
        Tokens(KEY).verify(jwt.encode({**base, "sub": ""}, KEY, algorithm="HS256"))
    with pytest.raises(InvalidToken):
        Tokens(KEY).verify("not.a.token")


def test_key_and_ttl_checks() -> None:
    with pytest.raises(ValueError, match="at least 32 bytes"):
        Tokens("short-key")
    Tokens(b"\x00" * 32)
    with pytest.raises(ValueError, match="positive"):
        Tokens(KEY).issue(ALICE, 0)
    with pytest.raises(ValueError, match="unknown role"):
        Tokens(KEY).issue(FakeAccount("x", "x", "emperor"), 60)


def _claims(role: str) -> Claims:
    tokens = Tokens(KEY)
    return tokens.verify(tokens.issue(FakeAccount("id", "someone", role), 60))


def test_require_role() -> None:
    operator = _claims("operator")
    assert require_role(operator, "operator") is operator
    assert require_role(_claims("bot"), "bot", "operator").role == "bot"
    with pytest.raises(PermissionDenied, match="needs the operator role"):
        require_role(_claims("player"), "operator")
    with pytest.raises(PermissionDenied, match="player or bot"):
        require_role(operator, "player", "bot")
    with pytest.raises(ValueError):
        require_role(operator)
    with pytest.raises(ValueError):
        require_role(operator, "emperor")  # type: ignore[arg-type]
