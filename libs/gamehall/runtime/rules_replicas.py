"""The replicas of one game's rules service, and which of them owns a live match.

`GAMEHALL_RULES_ADDRS` gives each game either a comma-separated address list (the embedded
launcher) or `dns:///host:port` (a Kubernetes headless Service, re-resolved every few seconds).
A live match's calls go to its owner by rendezvous hashing of the match id
(`gamehall.matches.routing`), so that replica's cache stays warm; a replica that fails or hangs
is skipped for a while and its matches move to the next in rank, which takes them over from the
log. Used by every service that reaches a match's owner (the gateway, matchmaking).

Every call's timeout is `deadline` shortened to end before the deadline of the call being served
(`gamehall.runtime.budget`), so a client's short deadline reaches the owner as less. A call whose budget
was so shortened and ran out tells little about the replica (the caller was in a hurry): the replica is
neither skipped nor failed over from, unless it has answered nothing at all for a whole `deadline`
(then it is hung, and clients that all send short deadlines must not keep it in routing forever). A call
given the full `deadline` that ran out, or a transport that could not reach the replica (UNAVAILABLE),
marks it as failed at once (issue 37).
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
import structlog

from gamehall.internal.v1 import live_pb2_grpc, rules_pb2_grpc
from gamehall.matches.routing import rank_replicas
from gamehall.runtime import budget
from gamehall.runtime.channels import internal_channel
from gamehall.runtime.errors import ClientError, read_failure
from gamehall.runtime.play_stream import CALL_FIELDS, LINGER_SECONDS, PlayStream
from gamehall.runtime.upstream import translate

log = structlog.get_logger("gamehall.rules_replicas")

DNS_PREFIX = "dns:///"
RESOLVE_EVERY_SECONDS = 5.0
SKIP_SECONDS = 5.0
"""How long a replica that failed (UNAVAILABLE, DEADLINE_EXCEEDED) is left out of routing."""
FAILOVER_CODES = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})


@dataclass
class _Replica:
    channel: grpc.aio.Channel
    rules: rules_pb2_grpc.RulesServiceStub
    live: live_pb2_grpc.LiveMatchServiceStub
    plays: PlayStream
    """Play calls and reads go on one multiplexed stream (a fraction of a unary call's CPU each under load)."""


@dataclass
class RulesReplicas:
    """The replicas of one game's rules service and the routing of matches over them."""

    game: str
    spec: str
    deadline: float = 10.0
    linger: float = LINGER_SECONDS
    """Seconds a play stream lingers under load to carry several calls per message (`play_stream.Linger`)."""
    _replicas: dict[str, _Replica] = field(default_factory=dict)
    _skip_until: dict[str, float] = field(default_factory=dict)
    _quiet_since: dict[str, float] = field(default_factory=dict)
    """Since when each replica, called all along, has answered nothing (no result, no status of its own)."""
    _called_at: dict[str, float] = field(default_factory=dict)
    _resolved_at: float = 0.0
    _addresses: list[str] = field(default_factory=list)

    async def addresses(self) -> list[str]:
        if not self.spec.startswith(DNS_PREFIX):
            if not self._addresses:
                self._addresses = sorted({a.strip() for a in self.spec.split(",") if a.strip()})
            return self._addresses
        if time.monotonic() - self._resolved_at > RESOLVE_EVERY_SECONDS or not self._addresses:
            host, _, port = self.spec[len(DNS_PREFIX) :].rpartition(":")
            try:
                infos = await asyncio.get_running_loop().getaddrinfo(host, int(port), type=socket.SOCK_STREAM)
                found = sorted({_join(str(info[4][0]), port) for info in infos})
                if found:
                    self._addresses = found
            except OSError as exc:
                log.warning("rules replicas not resolved", game=self.game, error=str(exc))
            self._resolved_at = time.monotonic()
        return self._addresses

    def _replica(self, address: str) -> _Replica:
        replica = self._replicas.get(address)
        if replica is None:
            channel = internal_channel(address, deadline=None)  # every call below passes its own timeout
            live = live_pb2_grpc.LiveMatchServiceStub(channel)
            replica = _Replica(channel, rules_pb2_grpc.RulesServiceStub(channel), live, PlayStream(live, self.linger))
            self._replicas[address] = replica
        return replica

    async def ranked(self, key: str) -> list[str]:
        """Replicas for `key` in the order to try them: healthy ones by rendezvous rank, skipped ones last."""
        now = time.monotonic()
        ranked = rank_replicas(key, await self.addresses())
        if not ranked:
            raise ClientError(
                grpc.StatusCode.UNAVAILABLE, f"no replica of the {self.game} rules service is known; retry"
            )
        return sorted(ranked, key=lambda a: self._skip_until.get(a, 0.0) > now)

    def skip(self, address: str) -> None:
        self._skip_until[address] = time.monotonic() + SKIP_SECONDS

    async def on_owner(self, match_id: str, method: str, request: Any) -> Any:
        """Call the owner of `match_id`; on a dead or hung owner, its successor (which takes the match over).
        Play and the reads a move needs go on the replica's play stream (gamehall.runtime.play_stream), every
        other method is a unary call."""
        if method in CALL_FIELDS:
            return await self._with_failover(
                match_id, self.deadline, lambda r, timeout: r.plays.call(method, request, timeout)
            )
        return await self._with_failover(
            match_id, self.deadline, lambda r, timeout: getattr(r.live, method)(request, timeout=timeout)
        )

    async def on_any(self, method: str, request: Any, key: str = "", timeout: float | None = None) -> Any:
        """A stateless RulesService call on any replica (spread by `key`)."""
        return await self._with_failover(
            key or str(time.monotonic_ns()),
            self.deadline if timeout is None else timeout,
            lambda r, given: getattr(r.rules, method)(request, timeout=given),
        )

    async def _with_failover(
        self, key: str, own: float, make: Callable[[_Replica, float], Awaitable[Any]]
    ) -> Any:
        """`make(replica, timeout)` on the key's first healthy replica, then on the next one if the first is dead
        or hung. Each try's timeout is `own` cut to the time the call being served has left."""
        addresses = await self.ranked(key)
        for tried, address in enumerate(addresses[:2]):
            timeout = budget.upstream_timeout(own)
            self._note_call(address, own)
            try:
                answer = await make(self._replica(address), timeout)
            except grpc.aio.AioRpcError as exc:
                if exc.code() not in FAILOVER_CODES or read_failure(exc) is not None:
                    self._quiet_since[address] = time.monotonic()
                    raise translate(exc) from exc  # an answer from the replica (e.g. its store is away): no failover
                silent = time.monotonic() - self._quiet_since[address]
                if exc.code() == grpc.StatusCode.DEADLINE_EXCEEDED and timeout < own and silent < own:
                    # our caller's budget ran out, not the replica's patience: a healthy replica behind a slow
                    # store or a busy loop must not be marked dead by clients with short deadlines
                    raise translate(exc) from exc
                self.skip(address)
                log.warning(
                    "rules replica failed; trying the next", game=self.game, address=address, code=exc.code().name
                )
                if tried == 1 or len(addresses) == 1:
                    raise translate(exc) from exc
            else:
                self._quiet_since[address] = time.monotonic()
                return answer
        raise AssertionError("unreachable")

    def _note_call(self, address: str, own: float) -> None:
        """A call to `address` starts: its silence is counted from here unless calls to it went unanswered lately
        (a replica left idle for `own` seconds starts afresh; one called again and again keeps its silence)."""
        now = time.monotonic()
        if address not in self._quiet_since or now - self._called_at.get(address, 0.0) > own:
            self._quiet_since[address] = now
        self._called_at[address] = now

    async def close(self) -> None:
        for replica in self._replicas.values():
            await replica.plays.close()
            await replica.channel.close()
        self._replicas.clear()


def _join(host: str, port: str) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


__all__ = ["RulesReplicas"]
