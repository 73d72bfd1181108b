"""Match operations: create (with its seats, atomically), read, list and page, lifecycle, clocks."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gamehall.store.core import StoreCore
from gamehall.store.cursor import decode_cursor, encode_cursor
from gamehall.store.deadlines import next_deadline_ms
from gamehall.store.errors import InvalidArgument, MatchClosed, NotFound, VersionConflict
from gamehall.store.outbox import write_outbox
from gamehall.store.records import (
    CLOSED_STATUSES,
    MATCH_STATUSES,
    MAX_SEED,
    SEAT_KINDS,
    Match,
    MatchHead,
    MatchPage,
    MatchStatus,
    NewSeat,
    OutboxMessage,
    Seat,
    seed_commitment,
)
from gamehall.store.rows import (
    MATCH_COLUMN_COUNT,
    MATCH_COLUMNS,
    SEAT_COLUMNS,
    dump_json,
    dump_optional_json,
    match_from,
    seat_from,
)
from gamehall.store.starting import mark_running
from gamehall.store.transaction import Row, Tx

MAX_PAGE = 500
MAX_DUE = 500
"""The most matches one `clocked_matches` call returns."""


def _check_new_seats(seats: Sequence[NewSeat], count: int) -> None:
    if len(seats) != count:
        raise InvalidArgument(f"the config has {count} seats but {len(seats)} seat specs were given")
    for number, spec in enumerate(seats):
        if spec.kind not in SEAT_KINDS:
            raise InvalidArgument(f"seat {number}: kind must be one of {list(SEAT_KINDS)}, not {spec.kind!r}")
        if spec.kind == "open" and spec.account_id is not None:
            raise InvalidArgument(f"seat {number}: an open seat has no account")
        if spec.kind in ("reserved", "human") and spec.account_id is None:
            raise InvalidArgument(f"seat {number}: a {spec.kind} seat needs an account")


def _seat_count(config: Mapping[str, Any]) -> tuple[str, int]:
    mode, seats = config.get("mode"), config.get("seats")
    if not isinstance(mode, str) or not mode:
        raise InvalidArgument("the match config needs a mode (a non-empty string)")
    if not isinstance(seats, int) or isinstance(seats, bool) or seats < 1:
        raise InvalidArgument("the match config needs a seat count (a positive integer)")
    return mode, seats


def _statuses(status: str | Iterable[str] | None) -> list[str]:
    if status is None:
        return []
    wanted = [status] if isinstance(status, str) else list(status)
    unknown = [s for s in wanted if s not in MATCH_STATUSES]
    if unknown:
        raise InvalidArgument(f"unknown match status(es) {unknown}; statuses: {list(MATCH_STATUSES)}")
    return wanted


async def seats_of(tx: Tx, match_ids: Sequence[str]) -> dict[str, tuple[Seat, ...]]:
    """The seats of each of `match_ids` (a match with none, or unknown, is left out), in one statement."""
    if not match_ids:
        return {}
    rows = await tx.fetch(
        f"SELECT {SEAT_COLUMNS} FROM seats WHERE match_id IN ({StoreCore._placeholders(match_ids)}) "
        "ORDER BY match_id, seat",
        *match_ids,
    )
    grouped: dict[str, list[Seat]] = {}
    for row in rows:
        grouped.setdefault(row["match_id"], []).append(seat_from(row))
    return {k: tuple(v) for k, v in grouped.items()}


class MatchOps(StoreCore):
    # ----------------------------------------------------------------- create and read
    async def create_match(
        self,
        *,
        game: str,
        config: Mapping[str, Any],
        public: bool = True,
        seed: int | None = None,
        match_id: str | None = None,
        created_by: str | None = None,
        seats: Sequence[NewSeat] | None = None,
        clock: Mapping[str, Any] | None = None,
        clock_state: Mapping[str, Any] | None = None,
        tournament_id: str | None = None,
        labels: Mapping[str, Any] | None = None,
        status: MatchStatus = "open",
        outbox: Sequence[OutboxMessage] = (),
    ) -> Match:
        """A new match and all its seats in one transaction.

        `config` is the engine's `MatchConfig.to_json()` (mode, seats, options, flags). Without a
        `seed` the store draws one from `secrets`; the seed stays secret (see `Match.revealed_seed`)
        and `seed_commitment` lets players check it after the match. `status` may be `running` for
        matches created full (tournament pairings, bot games).
        """
        if not game:
            raise InvalidArgument("a match needs a game id")
        mode, count = _seat_count(config)
        seat_specs = list(seats) if seats is not None else [NewSeat() for _ in range(count)]
        _check_new_seats(seat_specs, count)
        if status not in ("open", "running"):
            raise InvalidArgument(f"a match starts open or running, not {status}")
        if seed is None:
            seed = secrets.randbits(63)
        if isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise InvalidArgument(f"the seed must be an integer in [0, 2**63 - 1], not {seed}")
        match_id = match_id or str(uuid.uuid4())
        clock_json = dump_optional_json(clock, "clock")
        state_json = dump_optional_json(clock_state, "clock state")
        deadline = next_deadline_ms(clock_json, state_json)
        now = self._now()
        async with self._write() as tx:
            await tx.execute(
                f"INSERT INTO matches ({MATCH_COLUMNS}) VALUES ({self._placeholders(range(MATCH_COLUMN_COUNT))})",
                match_id,
                game,
                mode,
                dump_json(config, "config"),
                bool(public),
                status,
                seed,
                seed_commitment(seed, match_id),
                0,
                None,
                created_by,
                now,
                None,
                clock_json,
                state_json,
                tournament_id,
                dump_json(labels or {}, "labels"),
                deadline,
            )
            await tx.executemany(
                f"INSERT INTO seats ({SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
                [(match_id, n, s.kind, s.account_id, s.bot_difficulty) for n, s in enumerate(seat_specs)],
            )
            await write_outbox(tx, outbox, now)
            return await self._load_match(tx, match_id)

    async def get_match(self, match_id: str) -> Match:
        """The match with its seats; NotFound if there is none."""
        async with self._read() as tx:
            return await self._load_match(tx, match_id)

    async def match_heads(self, match_ids: Sequence[str]) -> dict[str, MatchHead]:
        """The status and version of each match of `match_ids` there is (an unknown id is left out), in one read:
        a rules replica checks many copies at once (`GetMatchHeads`)."""
        wanted = list(dict.fromkeys(match_ids))
        if len(wanted) > MAX_PAGE:
            raise InvalidArgument(f"at most {MAX_PAGE} matches at once, not {len(wanted)}")
        if not wanted:
            return {}
        async with self._read() as tx:
            rows = await tx.fetch(
                f"SELECT id, status, version FROM matches WHERE id IN ({self._placeholders(wanted)})", *wanted
            )
        return {row["id"]: MatchHead(row["status"], int(row["version"])) for row in rows}

    async def _load_match(self, tx: Tx, match_id: str) -> Match:
        row = await tx.fetchrow(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", match_id)
        if row is None:
            raise NotFound(f"no match {match_id}")
        seat_rows = await tx.fetch(f"SELECT {SEAT_COLUMNS} FROM seats WHERE match_id = ? ORDER BY seat", match_id)
        return match_from(row, tuple(seat_from(s) for s in seat_rows), self.dialect)

    async def list_matches(
        self,
        *,
        game: str | None = None,
        status: MatchStatus | Iterable[MatchStatus] | None = None,
        public: bool | None = None,
        account_id: str | None = None,
        tournament_id: str | None = None,
        created_by: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> MatchPage:
        """Matches newest first, filtered; `account_id` keeps matches where that account holds or has
        a reserved seat ("my matches"). Page with `limit` and the previous page's `next_cursor`."""
        if not 1 <= limit <= MAX_PAGE:
            raise InvalidArgument(f"limit must be between 1 and {MAX_PAGE}, not {limit}")
        where: list[str] = []
        args: list[Any] = []
        if game is not None:
            where.append("m.game = ?")
            args.append(game)
        statuses = _statuses(status)
        if statuses:
            where.append(f"m.status IN ({self._placeholders(statuses)})")
            args.extend(statuses)
        if public is not None:
            where.append("m.public = ?")
            args.append(bool(public))
        if account_id is not None:
            where.append("EXISTS (SELECT 1 FROM seats s WHERE s.match_id = m.id AND s.account_id = ?)")
            args.append(account_id)
        if tournament_id is not None:
            where.append("m.tournament_id = ?")
            args.append(tournament_id)
        if created_by is not None:
            where.append("m.created_by = ?")
            args.append(created_by)
        if cursor is not None:
            after_time, after_id = decode_cursor(cursor)
            where.append("(m.created_at < ? OR (m.created_at = ? AND m.id < ?))")
            args.extend([after_time, after_time, after_id])
        columns = ", ".join(f"m.{c.strip()}" for c in MATCH_COLUMNS.split(","))
        sql = f"SELECT {columns} FROM matches m"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY m.created_at DESC, m.id DESC LIMIT ?"
        args.append(limit + 1)
        async with self._read() as tx:
            rows = await tx.fetch(sql, *args)
            page, more = rows[:limit], len(rows) > limit
            seats = await seats_of(tx, [r["id"] for r in page])
        matches = tuple(match_from(r, seats.get(r["id"], ()), self.dialect) for r in page)
        next_cursor = encode_cursor(matches[-1].created_at, matches[-1].id) if more and matches else None
        return MatchPage(matches=matches, next_cursor=next_cursor)

    async def count_active_matches(self, account_id: str) -> int:
        """Open or running matches in which the account holds or has a reserved seat (for quotas)."""
        async with self._read() as tx:
            row = await tx.fetchrow(
                "SELECT COUNT(DISTINCT m.id) AS n FROM matches m JOIN seats s ON s.match_id = m.id "
                "WHERE s.account_id = ? AND m.status IN ('open', 'running')",
                account_id,
            )
        return int(row["n"]) if row is not None else 0

    # ----------------------------------------------------------------- lifecycle
    async def start_match(
        self,
        match_id: str,
        *,
        clock_state: Mapping[str, Any] | None = None,
        outbox: Sequence[OutboxMessage] = (),
    ) -> Match:
        """open → running: from now on actions are accepted, and the clocks (if given) start.
        MatchClosed if the match is not open."""
        state_json = dump_optional_json(clock_state, "clock state")
        async with self._write() as tx:
            row = await self._lock_match(tx, match_id, "id, status, version, clock")
            if row["status"] != "open":
                raise MatchClosed(f"match {match_id} is {row['status']}, only an open match can start")
            await mark_running(tx, match_id, row["clock"], state_json)
            await write_outbox(tx, outbox, self._now())
            return await self._load_match(tx, match_id)

    async def finish_match(
        self,
        match_id: str,
        outcome: Mapping[str, Any],
        *,
        expected_version: int | None = None,
        outbox: Sequence[OutboxMessage] = (),
    ) -> Match:
        """running → finished with its outcome (the seed becomes public). A match usually finishes by its last
        action's log entry, projected (`project`); this is for endings outside the match log."""
        return await self._close(match_id, "finished", outcome, expected_version, outbox)

    async def abort_match(
        self,
        match_id: str,
        *,
        outcome: Mapping[str, Any] | None = None,
        expected_version: int | None = None,
        outbox: Sequence[OutboxMessage] = (),
    ) -> Match:
        """open or running → aborted (e.g. never filled, or cancelled by an operator)."""
        return await self._close(match_id, "aborted", outcome, expected_version, outbox)

    async def _close(
        self,
        match_id: str,
        status: MatchStatus,
        outcome: Mapping[str, Any] | None,
        expected_version: int | None,
        outbox: Sequence[OutboxMessage],
    ) -> Match:
        outcome_json = dump_optional_json(outcome, "outcome")
        async with self._write() as tx:
            row = await self._lock_match(tx, match_id)
            self._check_closable(match_id, row, status)
            if expected_version is not None and int(row["version"]) != expected_version:
                raise VersionConflict(match_id, expected_version, int(row["version"]))
            now = self._now()
            await tx.execute(
                "UPDATE matches SET status = ?, outcome = ?, finished_at = ?, next_deadline_ms = NULL WHERE id = ?",
                status,
                outcome_json,
                now,
                match_id,
            )
            await write_outbox(tx, outbox, now)
            return await self._load_match(tx, match_id)

    @staticmethod
    def _check_closable(match_id: str, row: Row, status: MatchStatus) -> None:
        current = row["status"]
        if current in CLOSED_STATUSES:
            raise MatchClosed(f"match {match_id} is already {current}")
        if status == "finished" and current != "running":
            raise MatchClosed(f"match {match_id} is {current}; only a running match can finish")

    async def update_clock(
        self,
        match_id: str,
        clock_state: Mapping[str, Any],
        *,
        expected_version: int | None = None,
    ) -> None:
        """Store the per-seat clock state (and the next deadline it implies); with `expected_version`,
        only if no action landed meanwhile."""
        state_json = dump_json(clock_state, "clock state")
        async with self._write() as tx:
            row = await self._lock_match(tx, match_id, "id, status, version, clock")
            if row["status"] in CLOSED_STATUSES:
                raise MatchClosed(f"match {match_id} is {row['status']}")
            if expected_version is not None and int(row["version"]) != expected_version:
                raise VersionConflict(match_id, expected_version, int(row["version"]))
            await tx.execute(
                "UPDATE matches SET clock_state = ?, next_deadline_ms = ? WHERE id = ?",
                state_json,
                next_deadline_ms(row["clock"], state_json),
                match_id,
            )

    async def clocked_matches(
        self, game: str, after: tuple[int, str] = (0, ""), limit: int = MAX_DUE
    ) -> list[tuple[str, int]]:
        """(match id, next deadline in unix ms) of `game`'s running matches with a deadline, earliest first (ties
        by id), starting after `after` (the previous page's last). Reads a range of the `matches_clocked_by_game` index:
        what a rules replica arms its timers from when it starts or its peers change (ARCHITECTURE rule 7)."""
        if not 1 <= limit <= MAX_DUE:
            raise InvalidArgument(f"limit must be between 1 and {MAX_DUE}, not {limit}")
        after_ms, after_id = after
        if isinstance(after_ms, bool) or not isinstance(after_ms, int) or after_ms < 0:
            raise InvalidArgument(f"the cursor's deadline must be non-negative unix milliseconds, not {after_ms!r}")
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT id, next_deadline_ms FROM matches WHERE status = 'running' AND next_deadline_ms IS NOT NULL "
                "AND game = ? AND next_deadline_ms >= ? AND (next_deadline_ms > ? OR id > ?) "
                "ORDER BY next_deadline_ms, id LIMIT ?",
                game,
                after_ms,
                after_ms,
                after_id,
                limit,
            )
        return [(str(r["id"]), int(r["next_deadline_ms"])) for r in rows]

    async def set_labels(self, match_id: str, labels: Mapping[str, Any]) -> None:
        """Replace the match's free-form labels (lobby tags, operator notes)."""
        labels_json = dump_json(labels, "labels")
        async with self._write() as tx:
            row = await tx.fetchrow("UPDATE matches SET labels = ? WHERE id = ? RETURNING id", labels_json, match_id)
            if row is None:
                raise NotFound(f"no match {match_id}")
