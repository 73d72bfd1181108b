"""Which audiences of which matches someone watches: the leases the gateways renew on NATS.

An owner pushes an audience's view after a step only while a lease on it is live, so a match nobody
watches costs no view building and no publish per move (ARCHITECTURE, "The move path"). Every replica
of a game hears every lease, so a replica that takes a match over already knows its watchers. A lease
that is not renewed lapses after `LEASE_SECONDS`: a gateway that died stops costing pushes.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import msgspec
import structlog

log = structlog.get_logger("gamehall.matches.watched")

LEASE_SECONDS = 30.0
"""How long a lease lasts without renewal (the gateways renew every `gateway.interest.RENEW_SECONDS`)."""
PRUNE_EVERY_SECONDS = 60.0

_Leases = msgspec.json.Decoder(list[tuple[str, int | None]])


class Watched:
    """Live leases per match: audience (a seat, or None for the spectators) -> when it lapses."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._until: dict[str, dict[int | None, float]] = {}
        self._pruned = clock()

    def note(self, payload: bytes) -> None:
        """A gateway's lease message: every (match, audience) in it is watched for another `LEASE_SECONDS`."""
        try:
            leases = _Leases.decode(payload)
        except msgspec.DecodeError as exc:
            log.warning("unreadable watch lease", error=str(exc)[:200], size=len(payload))
            return
        now = self._clock()
        for match_id, seat in leases:
            self._until.setdefault(match_id, {})[seat] = now + LEASE_SECONDS
        if now - self._pruned > PRUNE_EVERY_SECONDS:
            self._prune(now)

    def audiences(self, match_id: str) -> list[int | None]:
        """The audiences of `match_id` with a live lease (empty: push nothing)."""
        leases = self._until.get(match_id)
        if not leases:
            return []
        now = self._clock()
        live = [seat for seat, until in leases.items() if until > now]
        if len(live) < len(leases):
            for seat in [s for s, until in leases.items() if until <= now]:
                del leases[seat]
            if not leases:
                del self._until[match_id]
        return live

    def __len__(self) -> int:
        return len(self._until)

    def _prune(self, now: float) -> None:
        for match_id in [m for m, leases in self._until.items() if all(t <= now for t in leases.values())]:
            del self._until[match_id]
        self._pruned = now


__all__ = ["LEASE_SECONDS", "Watched"]
