"""What every persistence servicer shares: the store it writes through and the relay it pokes."""

from __future__ import annotations

from typing import Any

from gamehall.store import Store
from gamehall_services.persistence.relay import OutboxRelay


class StoreWriter:
    """Holds the store and the outbox relay (both bound by the start hook before serving)."""

    def __init__(self, store: Store | None, relay: OutboxRelay | None) -> None:
        self.store: Store = store  # type: ignore[assignment]
        self.relay = relay

    def _published(self, entries: Any) -> None:
        """Wake the relay after a write that queued events (it also polls, as a safety net)."""
        if entries and self.relay is not None:
            self.relay.poke()
