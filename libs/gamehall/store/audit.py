"""Re-running a stored match from its revealed seed and action log (`gamehall replay`, `verify`, the soak checks).

Reads the store directly (an operator's tool): only closed matches, whose seed is public, are
re-run. Every step is checked against the stored state digest and snapshot, and the end
against the stored outcome; a match that ended by forfeit must still be running in the engine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from gamehall.engine import Game, MatchConfig, get_game
from gamehall.store import Match, Store, open_store, seed_commitment
from gamehall.store.records import CLOSED_STATUSES


class AuditError(Exception):
    """The match cannot be re-run (unknown, still running, unknown game)."""


@dataclass
class Step:
    version: int
    seat: int
    action: dict[str, Any]
    label: str
    state: Any
    digest_ok: bool
    snapshot_ok: bool | None
    """None when no snapshot was stored at this version."""


@dataclass
class Audit:
    match: Match
    game: Game[Any]
    initial: Any
    steps: list[Step] = field(default_factory=list)
    commitment_ok: bool = False
    outcome_ok: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def default_dsn() -> str:
    from gamehall.runtime.settings import Settings

    return Settings().database_dsn()


async def audit(dsn: str, match_id: str) -> Audit:
    """Re-run a stored match (a reader: a store that is not there is an AuditError, never created empty)."""
    from gamehall.store.errors import InvalidArgument

    try:
        store = await open_store(dsn, must_exist=True)
    except InvalidArgument as exc:
        raise AuditError(str(exc)) from exc
    try:
        return await audit_in(store, match_id)
    finally:
        await store.close()


async def audit_in(store: Store, match_id: str) -> Audit:
    from gamehall.store.errors import NotFound

    try:
        match = await store.get_match(match_id)
    except NotFound as exc:
        raise AuditError(str(exc)) from exc
    if match.status not in CLOSED_STATUSES:
        raise AuditError(f"match {match_id} is {match.status}: its seed is secret until it ends")
    try:
        game = get_game(match.game)
    except Exception as exc:
        raise AuditError(f"match {match_id} is a game of {match.game!r}, which is not installed here") from exc
    state = game.new_match(MatchConfig.from_json(match.config), match.seed)
    result = Audit(match=match, game=game, initial=state)
    result.commitment_ok = seed_commitment(match.seed, match.id) == match.seed_commitment
    if not result.commitment_ok:
        result.problems.append("the revealed seed does not match the commitment published at creation")
    for record in await store.get_actions(match.id):
        action = game.parse_action(record.action.get("action", record.action))
        state, _events = game.apply(state, record.seat, action)
        encoded = game.encode(state)
        digest_ok = hashlib.sha256(encoded).digest() == record.state_digest
        snapshot = await store.latest_snapshot(match.id, at_most=record.version)
        snapshot_ok = None if snapshot is None or snapshot.version != record.version else snapshot.state == encoded
        if not digest_ok:
            result.problems.append(f"version {record.version}: the state digest differs from the stored one")
        if snapshot_ok is False:
            result.problems.append(f"version {record.version}: the stored snapshot differs from the re-run state")
        result.steps.append(
            Step(
                record.version,
                record.seat,
                record.action,
                record.action.get("label", ""),
                state,
                digest_ok,
                snapshot_ok,
            )
        )
    result.outcome_ok = _outcome_matches(game, state, match, result.problems)
    return result


def _outcome_matches(game: Game[Any], state: Any, match: Match, problems: list[str]) -> bool:
    stored = match.outcome or {}
    engine = game.outcome(state)
    if str(stored.get("reason", "")).startswith("forfeit"):
        if engine is not None:
            problems.append("the match is recorded as a forfeit but the engine says it had already ended")
            return False
        return True
    if match.status == "aborted" and engine is None:
        return True
    if engine is None:
        problems.append("the stored match is finished but the re-run match has no outcome")
        return False
    if list(engine.ranks) != list(stored.get("ranks", [])) or engine.reason != stored.get("reason"):
        problems.append(f"the re-run outcome {engine.to_json()} differs from the stored {stored}")
        return False
    return True


def views(audit_result: Audit, seat: int | None) -> Iterator[tuple[int, dict[str, Any]]]:
    """(version, view) from the initial state to the end, as `seat` (None: spectator) saw them."""
    yield 0, audit_result.game.view(audit_result.initial, seat)
    for step in audit_result.steps:
        yield step.version, audit_result.game.view(step.state, seat)
