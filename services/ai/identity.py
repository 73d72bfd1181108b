"""The ai service's identity towards the gateway: the `ai-service` account (role `bot`), whose tokens
the service signs itself with the shared key and renews before they expire.

The account is real (created on first start, `ensure_service_account`) because the gateway takes
every caller's role from the account record, never from the token; it lets `bot` accounts act
for bot seats only, so no human seat can be played by this service.
"""

from __future__ import annotations

import time

from gamehall.auth import Tokens, TokenSubject

TOKEN_TTL_SECONDS = 900.0
SERVICE_USERNAME = "ai-service"


class BotIdentity:
    """Issues and renews the bearer token the workers present to the gateway."""

    def __init__(self, tokens: Tokens, account: TokenSubject) -> None:
        self.tokens = tokens
        self.account = account
        self._token = ""
        self._renew_at = 0.0

    def metadata(self) -> tuple[tuple[str, str], ...]:
        now = time.monotonic()
        if now >= self._renew_at:
            self._token = self.tokens.issue(self.account, TOKEN_TTL_SECONDS)
            self._renew_at = now + TOKEN_TTL_SECONDS / 2
        return (("authorization", f"Bearer {self._token}"),)
