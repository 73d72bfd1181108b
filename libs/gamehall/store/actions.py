"""The action log and snapshots: `append_action`, the one operation through which a match advances.

ARCHITECTURE.md rule 6: actions are appended with optimistic concurrency (the expected version)
and idempotency keys (request ids), and the events they cause go to the outbox in the same
transaction, so a crash never loses or doubles an action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from gamehall.store.core import StoreCore
from gamehall.store.deadlines import next_deadline_ms
from gamehall.store.errors import InvalidArgument, MatchClosed, NotFound, VersionConflict
from gamehall.store.outbox import write_outbox
from gamehall.store.records import (
    CLOSED_STATUSES,
    ActionRecord,
    AppendResult,
    MatchUpdate,
    OutboxMessage,
    Snapshot,
)
from gamehall.store.rows import (
    ACTION_COLUMNS,
    SNAPSHOT_COLUMNS,
    action_from,
    dump_json,
    dump_optional_json,
    load_json,
    snapshot_from,
)
from gamehall.store.transaction import Tx


class ActionOps(StoreCore):
    async def append_action(
        self,
        match_id: str,
        expected_version: int,
        seat: int,
        action: Mapping[str, Any] | str,
        request_id: str,
        state_digest: bytes,
        *,
        snapshot: bytes | None = None,
        outbox: Sequence[OutboxMessage] = (),
        match_update: MatchUpdate | None = None,
    ) -> AppendResult:
        """Log one action as version `expected_version + 1`, all in one transaction.

        In order, under the match row lock:
        1. a `request_id` this seat already logged in this match returns that first result (`replayed=True`)
           and writes nothing, whatever the other arguments say (request ids are scoped per seat: another
           seat's use of the same id is another request);
        2. a match that is not running raises MatchClosed;
        3. a version other than `expected_version` raises VersionConflict (with the current version);
        4. otherwise the log row, the version bump, the snapshot (the state at the new version),
           the outbox rows and `match_update` are written together, or nothing is. A new clock state
           moves the match's `next_deadline_ms`; finishing or aborting clears it.
        """
        if not request_id:
            raise InvalidArgument("an action needs a request id")
        if expected_version < 0:
            raise InvalidArgument(f"expected_version must be >= 0, not {expected_version}")
        action_json = dump_json(action, "action")
        update = match_update or MatchUpdate()
        if update.status is not None and update.status not in ("running", "finished", "aborted"):
            raise InvalidArgument(f"an action can leave its match running, finished or aborted, not {update.status}")
        outcome_json = dump_optional_json(update.outcome, "outcome")
        clock_json = dump_optional_json(update.clock_state, "clock state")
        async with self._write() as tx:
            match = await self._lock_match(tx, match_id, "id, status, version, clock")
            first = await tx.fetchrow(
                f"SELECT {ACTION_COLUMNS} FROM action_log WHERE match_id = ? AND seat = ? AND request_id = ?",
                match_id,
                seat,
                request_id,
            )
            if first is not None:
                return AppendResult(record=action_from(first, self.dialect), replayed=True)
            if match["status"] != "running":
                raise MatchClosed(f"match {match_id} is {match['status']}; actions need a running match")
            current = int(match["version"])
            if current != expected_version:
                raise VersionConflict(match_id, expected_version, current)
            closing = update.status in CLOSED_STATUSES
            deadline = None if closing or clock_json is None else next_deadline_ms(match["clock"], clock_json)
            now = self._now()
            record = ActionRecord(
                match_id=match_id,
                version=expected_version + 1,
                seat=seat,
                action=load_json(action_json),
                request_id=request_id,
                state_digest=bytes(state_digest),
                created_at=now,
            )
            await tx.execute(
                f"INSERT INTO action_log ({ACTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                match_id,
                record.version,
                seat,
                action_json,
                request_id,
                record.state_digest,
                now,
            )
            sets: list[str] = ["version = ?"]
            args: list[Any] = [record.version]
            if update.status is not None:
                sets.append("status = ?")
                args.append(update.status)
                if closing:
                    sets.append("finished_at = ?")
                    args.append(now)
            if outcome_json is not None:
                sets.append("outcome = ?")
                args.append(outcome_json)
            if clock_json is not None:
                sets.append("clock_state = ?")
                args.append(clock_json)
            if closing or clock_json is not None:
                sets.append("next_deadline_ms = ?")
                args.append(deadline)
            bumped = await tx.fetchrow(
                f"UPDATE matches SET {', '.join(sets)} WHERE id = ? AND version = ? RETURNING version",
                *args,
                match_id,
                expected_version,
            )
            if bumped is None:  # the row lock makes this unreachable; kept as the compare-and-swap itself
                raise VersionConflict(match_id, expected_version, current)
            if snapshot is not None:
                await self._put_snapshot(tx, match_id, record.version, snapshot, now)
            await write_outbox(tx, outbox, now)
        return AppendResult(record=record, replayed=False)

    async def get_actions(
        self, match_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[ActionRecord]:
        """Logged actions with `from_version <= version <= to_version`, in order; NotFound for an unknown match."""
        sql = f"SELECT {ACTION_COLUMNS} FROM action_log WHERE match_id = ? AND version >= ?"
        args: list[Any] = [match_id, from_version]
        if to_version is not None:
            sql += " AND version <= ?"
            args.append(to_version)
        sql += " ORDER BY version"
        async with self._read() as tx:
            await self._require_match(tx, match_id)
            rows = await tx.fetch(sql, *args)
        return [action_from(r, self.dialect) for r in rows]

    async def get_action_by_request(self, match_id: str, seat: int, request_id: str) -> ActionRecord | None:
        """The action `seat` logged under `request_id`, if any (answers a retried request after its step left
        the owner's memory)."""
        async with self._read() as tx:
            row = await tx.fetchrow(
                f"SELECT {ACTION_COLUMNS} FROM action_log WHERE match_id = ? AND seat = ? AND request_id = ?",
                match_id,
                seat,
                request_id,
            )
        return None if row is None else action_from(row, self.dialect)

    # ----------------------------------------------------------------- snapshots
    async def put_snapshot(self, match_id: str, version: int, state: bytes) -> None:
        """Store the encoded state at `version` (replacing one already there); the version must exist."""
        async with self._write() as tx:
            match = await self._lock_match(tx, match_id)
            if not 0 <= version <= int(match["version"]):
                raise InvalidArgument(f"match {match_id} is at version {match['version']}; no state at {version}")
            await self._put_snapshot(tx, match_id, version, state, self._now())

    async def latest_snapshot(self, match_id: str, at_most: int | None = None) -> Snapshot | None:
        """The newest snapshot (with `version <= at_most` if given), or None: replay from there."""
        sql = f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE match_id = ?"
        args: list[Any] = [match_id]
        if at_most is not None:
            sql += " AND version <= ?"
            args.append(at_most)
        sql += " ORDER BY version DESC LIMIT 1"
        async with self._read() as tx:
            await self._require_match(tx, match_id)
            row = await tx.fetchrow(sql, *args)
        return None if row is None else snapshot_from(row, self.dialect)

    async def prune_snapshots(self, match_id: str, keep: int = 1) -> int:
        """Delete all but the newest `keep` snapshots of a match; returns how many were deleted."""
        if keep < 0:
            raise InvalidArgument(f"keep must be >= 0, not {keep}")
        async with self._write() as tx:
            await self._lock_match(tx, match_id)
            kept = await tx.fetch(
                "SELECT version FROM snapshots WHERE match_id = ? ORDER BY version DESC LIMIT ?", match_id, keep
            )
            versions = [int(r["version"]) for r in kept]
            sql = "DELETE FROM snapshots WHERE match_id = ?"
            if versions:
                sql += f" AND version NOT IN ({self._placeholders(versions)})"
            deleted = await tx.fetch(sql + " RETURNING version", match_id, *versions)
        return len(deleted)

    async def _put_snapshot(self, tx: Tx, match_id: str, version: int, state: bytes, now: datetime) -> None:
        await tx.execute(
            "INSERT INTO snapshots (match_id, version, state, created_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (match_id, version) DO UPDATE SET state = excluded.state, created_at = excluded.created_at",
            match_id,
            version,
            bytes(state),
            now,
        )

    async def _require_match(self, tx: Tx, match_id: str) -> None:
        if await tx.fetchrow("SELECT id FROM matches WHERE id = ?", match_id) is None:
            raise NotFound(f"no match {match_id}")
