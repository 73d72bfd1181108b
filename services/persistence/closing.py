"""Closing a running match from outside its owner (an operator's abort, an adjudication).

A running match's truth is its log, so the close is a log entry appended with the same
compare-and-swap as a move: it lands after the newest entry or not at all, and an owner that
raced it loses its next append and reloads the closed match. The call returns once the
projection holds the close, so a read right after sees it. A log that refuses the entry (a NATS permission,
a JetStream error) or does not answer is UNAVAILABLE: the caller retries, and a retry of a close that did land
answers that the match is already closed.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from gamehall.matches.live import MatchFacts
from gamehall.runtime.matchlog import LogConflict, LogUnavailable
from gamehall.store.errors import MatchClosed, Unavailable, VersionConflict
from gamehall.store.records import CLOSED_STATUSES, Match
from gamehall.wire.matchlog import close_entry
from gamehall_services.persistence.projector import Projector

ATTEMPTS = 8


async def close_through_log(
    projector: Projector,
    match: Match,
    status: str,
    outcome: Mapping[str, Any] | None,
    expected_version: int | None,
) -> None:
    try:
        await _close(projector, match, status, outcome, expected_version)
    except LogUnavailable as exc:
        raise Unavailable(
            f"the match log (NATS) refused the close or did not answer ({exc}); retry shortly (should the close "
            "have landed after all, the retry answers that the match is closed)"
        ) from exc


async def _close(
    projector: Projector,
    match: Match,
    status: str,
    outcome: Mapping[str, Any] | None,
    expected_version: int | None,
) -> None:
    facts = MatchFacts(id=match.id, game=match.game, status=match.status, seed=0, config={}, seats=())
    for _ in range(ATTEMPTS):
        newest = await projector.log.last(match.game, match.id)
        version = int(newest.entry.version) if newest is not None else match.version
        if newest is not None and newest.entry.status in CLOSED_STATUSES:
            raise MatchClosed(f"match {match.id} is already {newest.entry.status}")
        if expected_version is not None and version != expected_version:
            raise VersionConflict(match.id, expected_version, version)
        entry = close_entry(facts, version, status, outcome, f"close:{status}:{version}", int(time.time() * 1000))
        try:
            seq = await projector.log.append(entry, newest.seq if newest is not None else 0)
        except LogConflict:
            continue  # a move landed first: judge the close again on the newest entry
        if not await projector.projected(match.id, seq):
            raise Unavailable(f"match {match.id}: the close is logged but not yet projected; read it again shortly")
        return
    raise Unavailable(f"match {match.id} kept changing; retry the close")
