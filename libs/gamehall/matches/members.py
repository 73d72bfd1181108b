"""Which replicas of this game's rules service are alive: the leases they renew on core NATS.

Each replica announces the address the gateways route to it by (`Settings.advertise_addr`) every
`RENEW_SECONDS`, and says it is leaving when it stops; a lease not renewed for `LEASE_SECONDS` lapses (a
killed replica). Every replica hears every lease, so all compute the same owner of a match by rendezvous
hashing over the live members (`gamehall.matches.routing`), as the gateways do over their address list.
When the members change (a peer appears, leaves or lapses) and when this replica starts, it arms the clock
timers of the matches it owns from one indexed read (`OwnerClocks.rearm`), so a killed owner's timers fire on
its successor. The renewal is the only periodic work here (ARCHITECTURE rule 7 allows lease renewals).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable

import msgspec
import structlog

from gamehall.matches.routing import owner_of

log = structlog.get_logger("gamehall.matches.members")

RENEW_SECONDS = 1.0
LEASE_SECONDS = 3.0
"""A member whose lease is not renewed for this long is gone (three renewals missed)."""
SETTLE_SECONDS = 1.5
"""How long a starting replica listens for its peers' leases before its first read of the clocks."""
RETRY_FIRST_SECONDS, RETRY_MAX_SECONDS = 0.5, 10.0


class Lease(msgspec.Struct):
    address: str
    leaving: bool = False


_decode = msgspec.json.Decoder(Lease).decode


class Members:
    """The live replicas of one game (this one always among them), from their leases."""

    def __init__(self, me: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.me = me
        self._clock = clock
        self._until: dict[str, float] = {}

    def lease(self, *, leaving: bool = False) -> bytes:
        return msgspec.json.encode(Lease(self.me, leaving))

    def note(self, payload: bytes) -> bool:
        """A peer's lease (or farewell); True when the members changed."""
        try:
            lease = _decode(payload)
        except msgspec.DecodeError as exc:
            log.warning("unreadable member lease", error=str(exc)[:200], size=len(payload))
            return False
        if lease.address == self.me:
            return False
        if lease.leaving:
            return self._until.pop(lease.address, None) is not None
        known = lease.address in self._until
        self._until[lease.address] = self._clock() + LEASE_SECONDS
        return not known

    def lapse(self) -> bool:
        """Forget the peers whose lease ran out; True when there were any."""
        now = self._clock()
        gone = [address for address, until in self._until.items() if until <= now]
        for address in gone:
            del self._until[address]
        if gone:
            log.warning("rules replicas stopped renewing their leases", gone=gone)
        return bool(gone)

    def live(self) -> list[str]:
        return sorted({self.me, *self._until})

    def owns(self, match_id: str) -> bool:
        """Whether this replica owns the match (rendezvous hashing over the live members)."""
        return owner_of(match_id, self.live()) == self.me


class Membership:
    """Renews this replica's lease and rearms the clocks whenever the members change (coalesced)."""

    def __init__(
        self, members: Members, publish: Callable[[bytes], Awaitable[None]], rearm: Callable[[], Awaitable[int]]
    ) -> None:
        self.members = members
        self._publish = publish
        self._rearm = rearm
        self._changed = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    def heard(self, payload: bytes) -> None:
        """A lease message from the game's subject."""
        if self.members.note(payload):
            self._changed.set()

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._renew()), asyncio.create_task(self._rearming())]

    async def stop(self) -> None:
        """Say goodbye (the successors take the matches over at once) and stop renewing."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        with contextlib.suppress(Exception):
            await self._publish(self.members.lease(leaving=True))

    async def _renew(self) -> None:
        while True:
            try:
                await self._publish(self.members.lease())
            except Exception as exc:  # NATS away: peers may count us gone; we rearm when we hear them again
                log.warning("member lease not renewed", error=str(exc)[:200])
            if self.members.lapse():
                self._changed.set()
            await asyncio.sleep(RENEW_SECONDS)

    async def _rearming(self) -> None:
        await asyncio.sleep(SETTLE_SECONDS)  # hear the peers first: arming every match to drop most is waste
        self._changed.set()
        pause = RETRY_FIRST_SECONDS
        while True:
            await self._changed.wait()
            self._changed.clear()
            try:
                owned = await self._rearm()
            except Exception as exc:  # persistence away: try again, backing off
                log.warning("match clocks not rearmed; trying again", error=str(exc)[:300], retry_in=pause)
                await asyncio.sleep(pause)
                pause = min(RETRY_MAX_SECONDS, pause * 2)
                self._changed.set()
                continue
            pause = RETRY_FIRST_SECONDS
            log.info("match clocks rearmed", members=self.members.live(), owned=owned)


__all__ = ["LEASE_SECONDS", "RENEW_SECONDS", "Members", "Membership"]
