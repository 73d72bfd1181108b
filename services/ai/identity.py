"""The ai service's own identity towards the gateway: a short-lived `bot` token it signs itself.

The service shares the token signing key with the gateway (a Secret in the chart); the
gateway lets `bot` tokens act for bot seats only, so no human seat can be played by it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from gamehall.auth import Tokens

TOKEN_TTL_SECONDS = 900.0


@dataclass(frozen=True)
class ServiceAccount:
    id: str
    username: str
    role: str = "bot"


class BotIdentity:
    """Issues and renews the bearer token the workers present to the gateway."""

    def __init__(self, tokens: Tokens, replica: str) -> None:
        self.tokens = tokens
        self.account = ServiceAccount(id=f"ai-service:{replica}", username="ai-service")
        self._token = ""
        self._renew_at = 0.0

    def metadata(self) -> tuple[tuple[str, str], ...]:
        now = time.monotonic()
        if now >= self._renew_at:
            self._token = self.tokens.issue(self.account, TOKEN_TTL_SECONDS)
            self._renew_at = now + TOKEN_TTL_SECONDS / 2
        return (("authorization", f"Bearer {self._token}"),)
