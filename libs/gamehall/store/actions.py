"""Reads of the action log and snapshots.

ARCHITECTURE.md rule 6: a match advances by its owner's entries in the match log (appended with the log's
compare-and-swap and the caller's request id); persistence writes them here only by projecting that log
(`gamehall.store.projection`), and serves them back to a replica taking a match over or a replay.
"""

from __future__ import annotations

from typing import Any

from gamehall.store.core import StoreCore
from gamehall.store.errors import NotFound
from gamehall.store.records import (
    ActionRecord,
    Snapshot,
)
from gamehall.store.rows import (
    ACTION_COLUMNS,
    SNAPSHOT_COLUMNS,
    action_from,
    snapshot_from,
)
from gamehall.store.transaction import Tx


class ActionOps(StoreCore):
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

    async def _require_match(self, tx: Tx, match_id: str) -> None:
        if await tx.fetchrow("SELECT id FROM matches WHERE id = ?", match_id) is None:
            raise NotFound(f"no match {match_id}")
