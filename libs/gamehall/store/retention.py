"""Retention of closed matches: compact them (drop intermediate snapshots) or archive them (issue 20).

Both work on a bounded batch of the oldest closed matches not handled yet, found through the partial
index `matches_retention_due`, so a round costs the batch, not the number of live or kept matches.

* compact: keep the action history and the newest snapshot (the final state of a finished match);
  replay and verify re-run from the revealed seed and need nothing else.
* archive: the match row, seats, action history and newest snapshot become one zlib-compressed JSON
  document in `archived_matches`, and leave the hot tables (the seats, actions and snapshots go with
  the match row). `get_archived_match` reads it back; `restore_archived_match` puts it back in place.
"""

from __future__ import annotations

import zlib
from datetime import datetime
from typing import Literal

import msgspec

from gamehall.store.core import StoreCore
from gamehall.store.errors import AlreadyExists, InvalidArgument, NotFound
from gamehall.store.records import ActionRecord, Match, Snapshot
from gamehall.store.rows import (
    ACTION_COLUMNS,
    MATCH_COLUMNS,
    SEAT_COLUMNS,
    SNAPSHOT_COLUMNS,
    action_from,
    dump_json,
    dump_optional_json,
    match_from,
    seat_from,
    snapshot_from,
)
from gamehall.store.transaction import Tx

RetentionPolicy = Literal["keep", "compact", "archive"]
ARCHIVE_FORMAT = "json+zlib/1"
MAX_BATCH = 1000


class ArchivedMatch(msgspec.Struct, frozen=True, kw_only=True):
    """Everything needed to show, replay and verify a closed match, as stored in the archive."""

    match: Match
    log_seq: int
    actions: tuple[ActionRecord, ...]
    snapshots: tuple[Snapshot, ...]


class ArchiveInfo(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    game: str
    status: str
    finished_at: datetime
    archived_at: datetime
    raw_bytes: int
    stored_bytes: int


class RetentionOps(StoreCore):
    async def retention_due(self, older_than: datetime, limit: int) -> list[str]:
        """Ids of closed, not yet compacted or archived matches that finished before `older_than`, oldest first."""
        if not 1 <= limit <= MAX_BATCH:
            raise InvalidArgument(f"limit must be 1..{MAX_BATCH}, not {limit}")
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT id FROM matches WHERE finished_at IS NOT NULL AND retention = 'kept' AND finished_at < ? "
                "ORDER BY finished_at, id LIMIT ?",
                older_than,
                limit,
            )
        return [str(r["id"]) for r in rows]

    async def compact_matches(self, match_ids: list[str]) -> int:
        """Drop every snapshot but the newest of each closed match; returns the snapshots deleted."""
        deleted = 0
        async with self._write() as tx:
            for match_id in match_ids:
                row = await self._lock_match(tx, match_id, "id, status, finished_at, retention")
                if row["finished_at"] is None or row["retention"] != "kept":
                    continue  # still live, or handled by an earlier round
                gone = await tx.fetch(
                    "DELETE FROM snapshots WHERE match_id = ? AND version < "
                    "(SELECT MAX(version) FROM snapshots WHERE match_id = ?) RETURNING version",
                    match_id,
                    match_id,
                )
                deleted += len(gone)
                await tx.execute("UPDATE matches SET retention = 'compacted' WHERE id = ?", match_id)
        return deleted

    async def archive_matches(self, match_ids: list[str]) -> int:
        """Move each closed match into the archive (one compressed document) and out of the hot tables."""
        archived = 0
        async with self._write() as tx:
            now = self._now()
            for match_id in match_ids:
                lock = await self._lock_match(tx, match_id, "id, finished_at, retention")
                if lock["finished_at"] is None or lock["retention"] == "restored":
                    continue
                doc = await self._archive_doc(tx, match_id)
                raw = msgspec.json.encode(doc)
                await tx.execute(
                    "INSERT INTO archived_matches "
                    "(id, game, status, finished_at, archived_at, format, raw_bytes, data) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    match_id,
                    doc.match.game,
                    doc.match.status,
                    doc.match.finished_at,
                    now,
                    ARCHIVE_FORMAT,
                    len(raw),
                    zlib.compress(raw, 9),
                )
                await tx.execute("DELETE FROM matches WHERE id = ?", match_id)  # seats, actions, snapshots cascade
                archived += 1
        return archived

    async def _archive_doc(self, tx: Tx, match_id: str) -> ArchivedMatch:
        row = await tx.fetchrow(f"SELECT {MATCH_COLUMNS}, log_seq FROM matches WHERE id = ?", match_id)
        if row is None:
            raise NotFound(f"no match {match_id}")
        seats = tuple(
            seat_from(r)
            for r in await tx.fetch(f"SELECT {SEAT_COLUMNS} FROM seats WHERE match_id = ? ORDER BY seat", match_id)
        )
        actions = await tx.fetch(
            f"SELECT {ACTION_COLUMNS} FROM action_log WHERE match_id = ? ORDER BY version", match_id
        )
        newest = await tx.fetch(
            f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE match_id = ? ORDER BY version DESC LIMIT 1", match_id
        )
        return ArchivedMatch(
            match=match_from(row, seats, self.dialect),
            log_seq=int(row["log_seq"]),
            actions=tuple(action_from(r, self.dialect) for r in actions),
            snapshots=tuple(snapshot_from(r, self.dialect) for r in newest),
        )

    async def get_archived_match(self, match_id: str) -> ArchivedMatch:
        """An archived match, decompressed; NotFound when it is not in the archive."""
        async with self._read() as tx:
            row = await tx.fetchrow("SELECT format, data FROM archived_matches WHERE id = ?", match_id)
        if row is None:
            raise NotFound(f"no archived match {match_id}")
        if row["format"] != ARCHIVE_FORMAT:
            raise InvalidArgument(f"archived match {match_id} is in format {row['format']!r}, unknown to this code")
        return msgspec.json.decode(zlib.decompress(bytes(row["data"])), type=ArchivedMatch)

    async def list_archived_matches(self, limit: int = 100, before: datetime | None = None) -> list[ArchiveInfo]:
        """Archived matches, newest finish first."""
        sql = (
            "SELECT id, game, status, finished_at, archived_at, raw_bytes, LENGTH(data) AS stored FROM archived_matches"
        )
        args: list[object] = []
        if before is not None:
            sql += " WHERE finished_at < ?"
            args.append(before)
        async with self._read() as tx:
            rows = await tx.fetch(sql + " ORDER BY finished_at DESC, id DESC LIMIT ?", *args, limit)
        d = self.dialect
        return [
            ArchiveInfo(
                id=r["id"],
                game=r["game"],
                status=r["status"],
                finished_at=d.load_time(r["finished_at"]),
                archived_at=d.load_time(r["archived_at"]),
                raw_bytes=int(r["raw_bytes"]),
                stored_bytes=int(r["stored"]),
            )
            for r in rows
        ]

    async def restore_archived_match(self, match_id: str) -> Match:
        """Put an archived match back into the hot tables (marked `restored`: retention leaves it alone)."""
        doc = await self.get_archived_match(match_id)
        m = doc.match
        async with self._write() as tx:
            if await tx.fetchrow("SELECT id FROM matches WHERE id = ?", match_id) is not None:
                raise AlreadyExists(f"match {match_id} is already in the hot tables")
            await tx.execute(
                f"INSERT INTO matches ({MATCH_COLUMNS}, log_seq, retention) VALUES ({self._placeholders(range(20))})",
                m.id,
                m.game,
                m.mode,
                dump_json(m.config, "config"),
                m.public,
                m.status,
                m.seed,
                m.seed_commitment,
                m.version,
                dump_optional_json(m.outcome, "outcome"),
                m.created_by,
                m.created_at,
                m.finished_at,
                dump_optional_json(m.clock, "clock"),
                dump_optional_json(m.clock_state, "clock state"),
                m.tournament_id,
                dump_json(m.labels, "labels"),
                m.next_deadline_ms,
                doc.log_seq,
                "restored",
            )
            if m.seats:
                await tx.executemany(
                    f"INSERT INTO seats ({SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
                    [(s.match_id, s.seat, s.kind, s.account_id, s.bot_difficulty) for s in m.seats],
                )
            if doc.actions:
                await tx.executemany(
                    f"INSERT INTO action_log ({ACTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [_action_row(a) for a in doc.actions],
                )
            if doc.snapshots:
                await tx.executemany(
                    f"INSERT INTO snapshots ({SNAPSHOT_COLUMNS}) VALUES (?, ?, ?, ?)",
                    [(s.match_id, s.version, s.state, s.created_at) for s in doc.snapshots],
                )
            await tx.execute("DELETE FROM archived_matches WHERE id = ?", match_id)
        return m


def _action_row(a: ActionRecord) -> tuple[object, ...]:
    return (a.match_id, a.version, a.seat, dump_json(a.action, "action"), a.request_id, a.state_digest, a.created_at)
