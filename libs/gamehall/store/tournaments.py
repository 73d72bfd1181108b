"""Tournaments: one row per tournament holding its state document, changed by revision compare-and-swap,
plus the matches played for its pairings and an inbox of their results.

The document is opaque here (the matchmaking service encodes the tournament library's state).
Results of finished matches are written to the inbox (`record_tournament_result`, once per
match) rather than into the document, so a tournament of thousands of players is not rewritten
once per match: the driver folds every waiting result into the document in one update, which
marks them folded in the same transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Final

import msgspec

from gamehall.store.core import StoreCore
from gamehall.store.errors import AlreadyExists, InvalidArgument, NotFound, StoreError
from gamehall.store.outbox import write_outbox
from gamehall.store.records import OutboxMessage
from gamehall.store.transaction import Row, Tx

MAX_LIST: Final = 1000
_COLUMNS = "id, name, game, mode, format, status, revision, doc, created_by, created_at, updated_at"
_SUMMARY = "id, name, game, mode, format, status, revision, created_by, created_at, updated_at"


async def record_results(tx: Tx, results: Sequence[tuple[str, Sequence[int], str]], now: datetime) -> dict[str, str]:
    """Put each finished match's outcome (match id, ranks, reason) in its tournament's inbox once, inside `tx`,
    with two statements however many there are: the tournament id of each match that plays a pairing (the
    others are left out). A second recording of a match keeps the first."""
    if not results:
        return {}
    ids = [match_id for match_id, _, _ in results]
    links = await tx.fetch(
        f"SELECT match_id, tournament_id FROM mm_tournament_matches WHERE match_id IN ({StoreCore._placeholders(ids)})",
        *ids,
    )
    tournaments = {str(r["match_id"]): str(r["tournament_id"]) for r in links}
    rows = [
        (match_id, tournaments[match_id], msgspec.json.encode([int(r) for r in ranks]).decode(), reason, now)
        for match_id, ranks, reason in results
        if match_id in tournaments
    ]
    if rows:
        await tx.executemany(
            "INSERT INTO mm_tournament_results (match_id, tournament_id, ranks, reason, recorded_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (match_id) DO NOTHING",
            rows,
        )
    return tournaments


class RevisionConflict(StoreError):
    """The tournament is not at the revision the caller read; re-read and re-apply."""

    grpc_status = "ABORTED"


class NewTournament(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    game: str
    mode: str
    format: str
    status: str
    doc: bytes
    created_by: str


class TournamentRow(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    game: str
    mode: str
    format: str
    status: str
    revision: int
    doc: bytes
    """Empty in listings made without documents."""
    created_by: str
    created_at: datetime
    updated_at: datetime


class TournamentMatch(msgspec.Struct, frozen=True, kw_only=True):
    """The platform match playing one pairing of a round."""

    match_id: str
    tournament_id: str
    round: int
    pairing_id: str
    created_at: datetime


class TournamentResult(msgspec.Struct, frozen=True, kw_only=True):
    """A finished tournament match's outcome waiting in the inbox (or folded)."""

    match_id: str
    tournament_id: str
    pairing_id: str
    round: int
    ranks: tuple[int, ...]
    reason: str
    recorded_at: datetime


class TournamentOps(StoreCore):
    async def create_tournament(self, new: NewTournament, outbox: Sequence[OutboxMessage] = ()) -> TournamentRow:
        """A new tournament at revision 1; AlreadyExists if the id is taken."""
        if not new.id or not new.doc:
            raise InvalidArgument("a tournament needs an id and a document")
        async with self._write() as tx:
            now = self._now()
            if await tx.fetchrow("SELECT 1 AS x FROM mm_tournaments WHERE id = ?", new.id) is not None:
                raise AlreadyExists(f"tournament {new.id} exists")
            await tx.execute(
                f"INSERT INTO mm_tournaments ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)",
                new.id,
                new.name,
                new.game,
                new.mode,
                new.format,
                new.status,
                bytes(new.doc),
                new.created_by,
                now,
                now,
            )
            await write_outbox(tx, outbox, now)
            return await self._tournament(tx, new.id)

    async def get_tournament(self, tournament_id: str, *, newer_than: int = 0) -> TournamentRow | None:
        """The tournament; None when its revision is not above `newer_than` (a cheap "changed?" poll)."""
        async with self._read() as tx:
            row = await tx.fetchrow("SELECT revision FROM mm_tournaments WHERE id = ?", tournament_id)
            if row is None:
                raise NotFound(f"no tournament {tournament_id!r}")
            if int(row["revision"]) <= newer_than:
                return None
            return await self._tournament(tx, tournament_id)

    async def list_tournaments(
        self, *, statuses: Sequence[str] = (), limit: int = 100, with_docs: bool = True
    ) -> list[TournamentRow]:
        """Newest first, optionally only those in `statuses`."""
        if not 1 <= limit <= MAX_LIST:
            raise InvalidArgument(f"limit must be within 1..{MAX_LIST}, not {limit}")
        where, args = "", list(statuses)
        if statuses:
            where = f"WHERE status IN ({self._placeholders(statuses)})"
        columns = _COLUMNS if with_docs else _SUMMARY
        async with self._read() as tx:
            rows = await tx.fetch(
                f"SELECT {columns} FROM mm_tournaments {where} ORDER BY created_at DESC, id LIMIT ?", *args, limit
            )
        return [self._row_from(r) for r in rows]

    async def update_tournament(
        self,
        tournament_id: str,
        expected_revision: int,
        doc: bytes,
        status: str,
        *,
        folded: Sequence[str] = (),
        outbox: Sequence[OutboxMessage] = (),
    ) -> TournamentRow:
        """Replace the document if the tournament is at `expected_revision` (RevisionConflict if not),
        marking the inbox results of `folded` match ids folded in the same transaction."""
        async with self._write() as tx:
            now = self._now()
            done = await tx.fetchrow(
                "UPDATE mm_tournaments SET doc = ?, status = ?, revision = revision + 1, updated_at = ? "
                "WHERE id = ? AND revision = ? RETURNING revision",
                bytes(doc),
                status,
                now,
                tournament_id,
                expected_revision,
            )
            if done is None:
                row = await tx.fetchrow("SELECT revision FROM mm_tournaments WHERE id = ?", tournament_id)
                if row is None:
                    raise NotFound(f"no tournament {tournament_id!r}")
                raise RevisionConflict(
                    f"tournament {tournament_id} is at revision {row['revision']}, not {expected_revision}"
                )
            for start in range(0, len(folded), 500):
                chunk = list(folded[start : start + 500])
                await tx.execute(
                    f"UPDATE mm_tournament_results SET folded_at = ? WHERE tournament_id = ? "
                    f"AND folded_at IS NULL AND match_id IN ({self._placeholders(chunk)})",
                    now,
                    tournament_id,
                    *chunk,
                )
            await write_outbox(tx, outbox, now)
            return await self._tournament(tx, tournament_id)

    # ----------------------------------------------------------------- pairings' matches
    async def link_tournament_match(
        self,
        tournament_id: str,
        round_no: int,
        pairing_id: str,
        match_id: str,
        outbox: Sequence[OutboxMessage] = (),
    ) -> TournamentMatch:
        """Record that `match_id` plays a pairing (idempotent: `outbox` is written only by the first call);
        AlreadyExists if the match plays another pairing."""
        async with self._write() as tx:
            now = self._now()
            if await tx.fetchrow("SELECT 1 AS x FROM mm_tournaments WHERE id = ?", tournament_id) is None:
                raise NotFound(f"no tournament {tournament_id!r}")
            inserted = await tx.fetchrow(
                "INSERT INTO mm_tournament_matches (match_id, tournament_id, round, pairing_id, created_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (match_id) DO NOTHING RETURNING match_id",
                match_id,
                tournament_id,
                round_no,
                pairing_id,
                now,
            )
            link = await self._link(tx, match_id)
            assert link is not None
            if (link.tournament_id, link.round, link.pairing_id) != (tournament_id, round_no, pairing_id):
                raise AlreadyExists(f"match {match_id} already plays {link.tournament_id} pairing {link.pairing_id}")
            if inserted is not None:
                await write_outbox(tx, outbox, now)
        return link

    async def tournament_matches(self, tournament_id: str, round_no: int = 0) -> list[TournamentMatch]:
        """The matches created for a round's pairings, every round's when `round_no` is 0 (oldest first;
        a re-paired round may have several per pairing id)."""
        where = "tournament_id = ?"
        args: list[object] = [tournament_id]
        if round_no:
            where += " AND round = ?"
            args.append(round_no)
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT match_id, tournament_id, round, pairing_id, created_at FROM mm_tournament_matches "
                f"WHERE {where} ORDER BY created_at, match_id",
                *args,
            )
        return [self._link_from(r) for r in rows]

    async def tournament_match(self, match_id: str) -> TournamentMatch | None:
        """Which tournament pairing `match_id` plays, if any."""
        async with self._read() as tx:
            return await self._link(tx, match_id)

    # ----------------------------------------------------------------- the results inbox
    async def record_tournament_result(
        self, match_id: str, ranks: Sequence[int], reason: str
    ) -> TournamentResult | None:
        """Put a finished tournament match's outcome in the inbox once; None if `match_id` plays no pairing.
        Recording it again returns the first recording unchanged. (The projection records it on its own, in
        the transaction that projects the match's finish; this call is the tournament driver's safety net.)"""
        async with self._write() as tx:
            if not await record_results(tx, [(match_id, ranks, reason)], self._now()):
                return None
            found = await self._results(tx, "r.match_id = ?", (match_id,))
        return found[0]

    async def unfolded_results(self, tournament_id: str, limit: int = 10_000) -> list[TournamentResult]:
        """Results waiting to be folded into the tournament document, in arrival order."""
        async with self._read() as tx:
            return await self._results(tx, "r.tournament_id = ? AND r.folded_at IS NULL", (tournament_id,), limit=limit)

    # ----------------------------------------------------------------- rows
    async def _tournament(self, tx: Tx, tournament_id: str) -> TournamentRow:
        row = await tx.fetchrow(f"SELECT {_COLUMNS} FROM mm_tournaments WHERE id = ?", tournament_id)
        if row is None:
            raise NotFound(f"no tournament {tournament_id!r}")
        return self._row_from(row)

    async def _link(self, tx: Tx, match_id: str) -> TournamentMatch | None:
        row = await tx.fetchrow(
            "SELECT match_id, tournament_id, round, pairing_id, created_at FROM mm_tournament_matches "
            "WHERE match_id = ?",
            match_id,
        )
        return None if row is None else self._link_from(row)

    async def _results(
        self, tx: Tx, where: str, args: tuple[object, ...], limit: int = 10_000
    ) -> list[TournamentResult]:
        rows = await tx.fetch(
            "SELECT r.match_id, r.tournament_id, m.pairing_id, m.round, r.ranks, r.reason, r.recorded_at "
            "FROM mm_tournament_results r JOIN mm_tournament_matches m ON m.match_id = r.match_id "
            f"WHERE {where} ORDER BY r.recorded_at, r.match_id LIMIT {int(limit)}",
            *args,
        )
        return [
            TournamentResult(
                match_id=r["match_id"],
                tournament_id=r["tournament_id"],
                pairing_id=r["pairing_id"],
                round=int(r["round"]),
                ranks=tuple(msgspec.json.decode(r["ranks"], type=list[int])),
                reason=r["reason"],
                recorded_at=self.dialect.load_time(r["recorded_at"]),
            )
            for r in rows
        ]

    def _row_from(self, row: Row) -> TournamentRow:
        try:
            doc = bytes(row["doc"])
        except (KeyError, IndexError):
            doc = b""
        return TournamentRow(
            id=row["id"],
            name=row["name"],
            game=row["game"],
            mode=row["mode"],
            format=row["format"],
            status=row["status"],
            revision=int(row["revision"]),
            doc=doc,
            created_by=row["created_by"],
            created_at=self.dialect.load_time(row["created_at"]),
            updated_at=self.dialect.load_time(row["updated_at"]),
        )

    def _link_from(self, row: Row) -> TournamentMatch:
        return TournamentMatch(
            match_id=row["match_id"],
            tournament_id=row["tournament_id"],
            round=int(row["round"]),
            pairing_id=row["pairing_id"],
            created_at=self.dialect.load_time(row["created_at"]),
        )
