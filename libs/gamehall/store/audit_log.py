"""The audit log of operator actions: who did what, to what, when, and how it ended (issue 20).

An event is written twice: `begin_audit_event` before the action runs (outcome `pending`), durably,
and `finish_audit_event` with the outcome after it. The action is only attempted once the first
write has committed, so an action that succeeded always has its row; a crash in between leaves it
`pending` (shown as "outcome unknown"). `list_audit_events` pages newest first by (at, id).
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import msgspec

from gamehall.store.core import StoreCore
from gamehall.store.errors import InvalidArgument, NotFound
from gamehall.store.rows import dump_json, load_json
from gamehall.store.transaction import Row

PENDING = "pending"
MAX_PAGE = 500
MAX_DETAIL_BYTES = 4096
_COLUMNS = "id, at, actor, actor_name, role, action, target, detail, outcome, message, finished_at"


class AuditEvent(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    at: datetime
    actor: str
    """The acting account's id (or `system:<task>` for the platform's own retention and restores)."""
    actor_name: str
    role: str
    action: str
    """What was done: the RPC (`TournamentService.StartTournament`) or the tool (`store.restore`)."""
    target: str
    """What it was done to: `tournament:<id>`, `match:<id>`, `account:<id>`... ('' when nothing in particular)."""
    detail: dict[str, Any]
    outcome: str
    """`pending` until finished; then `OK` or the failure's status name (PERMISSION_DENIED, ...)."""
    message: str
    finished_at: datetime | None


class AuditPage(msgspec.Struct, frozen=True, kw_only=True):
    events: tuple[AuditEvent, ...]
    next_cursor: str | None


class AuditOps(StoreCore):
    async def begin_audit_event(
        self,
        event_id: str,
        *,
        actor: str,
        actor_name: str,
        role: str,
        action: str,
        target: str = "",
        detail: Mapping[str, Any] | None = None,
    ) -> AuditEvent:
        """Record an operator action about to run (outcome `pending`); idempotent on `event_id`."""
        if not event_id or not actor or not action:
            raise InvalidArgument("an audit event needs an id, an actor and an action")
        detail_json = _bounded_detail(detail or {})
        now = self._now()
        async with self._write() as tx:
            await tx.execute(
                f"INSERT INTO audit_events ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (id) DO NOTHING",
                event_id,
                now,
                actor,
                actor_name,
                role,
                action,
                target,
                detail_json,
                PENDING,
                "",
                None,
            )
            row = await tx.fetchrow(f"SELECT {_COLUMNS} FROM audit_events WHERE id = ?", event_id)
        assert row is not None
        return self._event_from(row)

    async def finish_audit_event(
        self, event_id: str, outcome: str, message: str = "", target: str | None = None
    ) -> AuditEvent:
        """Set the outcome of a begun event (and its target, when only the result names it, e.g. a new id)."""
        if not outcome or outcome == PENDING:
            raise InvalidArgument("an audit event finishes with OK or a status name")
        async with self._write() as tx:
            row = await tx.fetchrow(
                "UPDATE audit_events SET outcome = ?, message = ?, finished_at = ?, target = COALESCE(?, target) "
                f"WHERE id = ? RETURNING {_COLUMNS}",
                outcome,
                message[:1000],
                self._now(),
                target or None,
                event_id,
            )
        if row is None:
            raise NotFound(f"no audit event {event_id}")
        return self._event_from(row)

    async def record_audit_event(self, event_id: str, *, outcome: str, message: str = "", **fields: Any) -> AuditEvent:
        """Begin and finish in one go (for actions that already happened in this process: restores, retention)."""
        await self.begin_audit_event(event_id, **fields)
        return await self.finish_audit_event(event_id, outcome, message)

    async def list_audit_events(
        self,
        *,
        actor: str = "",
        action: str = "",
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> AuditPage:
        """Events newest first, filtered by actor (id or name), action (exact, or a `Service.` prefix) and
        time range [since, until); `cursor` continues a previous page."""
        if not 1 <= limit <= MAX_PAGE:
            raise InvalidArgument(f"limit must be 1..{MAX_PAGE}, not {limit}")
        where: list[str] = []
        args: list[Any] = []
        if actor:
            where.append("(actor = ? OR actor_name = ?)")
            args += [actor, actor]
        if action:
            if action.endswith("."):
                where.append("action >= ? AND action < ?")
                args += [action, action[:-1] + "/"]  # '/' sorts right after '.'
            else:
                where.append("action = ?")
                args.append(action)
        if since is not None:
            where.append("at >= ?")
            args.append(since)
        if until is not None:
            where.append("at < ?")
            args.append(until)
        if cursor:
            at, event_id = _decode_cursor(cursor)
            where.append("(at < ? OR (at = ? AND id < ?))")
            args += [at, at, event_id]
        sql = f"SELECT {_COLUMNS} FROM audit_events"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY at DESC, id DESC LIMIT ?"
        async with self._read() as tx:
            rows = await tx.fetch(sql, *args, limit + 1)
        events = tuple(self._event_from(r) for r in rows[:limit])
        more = len(rows) > limit
        return AuditPage(events=events, next_cursor=_encode_cursor(events[-1]) if more and events else None)

    def _event_from(self, row: Row) -> AuditEvent:
        d = self.dialect
        return AuditEvent(
            id=row["id"],
            at=d.load_time(row["at"]),
            actor=row["actor"],
            actor_name=row["actor_name"],
            role=row["role"],
            action=row["action"],
            target=row["target"],
            detail=load_json(row["detail"]),
            outcome=row["outcome"],
            message=row["message"],
            finished_at=d.load_optional_time(row["finished_at"]),
        )


def _bounded_detail(detail: Mapping[str, Any]) -> str:
    """The detail as JSON text, replaced by a note when it is larger than the log keeps."""
    text = dump_json(detail, "audit detail")
    if len(text.encode()) > MAX_DETAIL_BYTES:
        return dump_json({"truncated": True, "bytes": len(text.encode()), "head": text[:512]}, "audit detail")
    return text


def _encode_cursor(event: AuditEvent) -> str:
    raw = msgspec.json.encode([event.at.isoformat(), event.id])
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode_cursor(cursor: str) -> tuple[datetime, str]:
    try:
        at, event_id = msgspec.json.decode(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        return datetime.fromisoformat(at), str(event_id)
    except (ValueError, TypeError, msgspec.DecodeError) as exc:
        raise InvalidArgument(f"bad audit cursor {cursor[:40]!r}") from exc
