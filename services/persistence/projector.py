"""The projector: persistence's durable consumer of the match log, writing it into SQL in batches.

Each fetch of up to `batch` entries is one store transaction (`Store.project`), each entry acked only after
it commits; a redelivered batch is skipped by the rows' `log_seq`, so every entry lands exactly once. Acks
are per entry, never cumulative: an ack of a later entry must not acknowledge one that a crashed instance
held, or one nak'ed while the database was away (the soak at tournament scale lost those from SQL).
An entry that can never be projected is dead-lettered on its own. After a batch, entries already
covered by a snapshot, and every entry of a closed match, are purged from the log: the stream keeps
a match's subject only until it is projected (plus the newest entry, which the next append checks).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import time
from collections.abc import Awaitable, Sequence
from datetime import UTC, datetime
from typing import Literal

import nats
import structlog
from google.protobuf.message import DecodeError
from nats.aio.msg import Msg
from nats.js import api
from nats.js.errors import APIError, NotFoundError

from gamehall.events.v1 import match_pb2 as epb
from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.runtime import metrics, patience
from gamehall.runtime.background import BackgroundLoop
from gamehall.runtime.bus import Bus, PermanentEventError, note_pending
from gamehall.runtime.matchlog import ALL_ENTRIES, LOG_STREAM, PROJECTOR, MatchLog
from gamehall.store import Store
from gamehall.store.projection import LogRecord, Projected, ProjectionConflict, ProjectionGap, Settled
from gamehall.store.ratings import Rater
from gamehall.store.records import OutboxMessage
from gamehall.store.transaction import Row
from gamehall.wire import outbox as events
from gamehall.wire.matches import outcome_from_json
from gamehall_services.persistence.rating import FinishRater
from gamehall_services.persistence.records import outbox_from_proto

log = structlog.get_logger("gamehall.projector")

CONSUMER = PROJECTOR
BATCH = 256
RETRY_SECONDS = 0.5
LINGER_SECONDS = 0.25
"""After a short batch, wait this long before the next fetch, so entries arriving meanwhile share a transaction
(the projection runs at most this much further behind the log; moves never wait for it). At 20 entries/s a
linger of 50 ms made a transaction, a fetch and a wake-up of every process involved per entry; at 250 ms the
platform spent about 30 % less CPU per move at that pace (GAMEHALL_PROJECTION_LINGER_MS)."""
MAX_DELIVER = -1
"""Unbounded: an entry is never given up by the server. The projector holds a batch while the database is away
(deliveries do not count up meanwhile) and dead-letters what can never be projected itself, so a bounded count
would only ever drop an acknowledged move from SQL without a word (issue 36: 8 and 183 moves lost in a 25 s
PostgreSQL outage)."""
POISON_ATTEMPTS = 3
"""Failures, other than the database being away, after which one entry on its own is dead-lettered."""
POISON_PAUSE = 0.5
HEALTH = "gamehall.projection"
"""The projection's own health service: NOT_SERVING while it waits for the database."""
ACK_POLICY_NOT_UPDATABLE = 10012
"""JetStream's error code when an existing consumer's ack policy differs from the one asked for."""
ACK_WAIT = 10.0
"""How long an entry a crashed instance held waits for its redelivery (a batch commits in milliseconds)."""


def record_of(msg: Msg) -> tuple[LogRecord, str]:
    """The store's record of one log message, and the match's game (ValueError when it is not an entry)."""
    try:
        entry = LogEntry.FromString(msg.data)
    except DecodeError as exc:
        raise ValueError(f"not a log entry: {exc}") from exc
    if msg.metadata is None:
        raise ValueError("a log entry needs its stream sequence")
    return record_from(entry, int(msg.metadata.sequence.stream)), entry.game


def record_from(entry: LogEntry, seq: int) -> LogRecord:
    if not entry.match_id or entry.kind == LogEntry.KIND_UNSPECIFIED:
        raise ValueError("a log entry needs a match id and a kind")
    kind: Literal["action", "close"] = "action" if entry.kind == LogEntry.KIND_ACTION else "close"
    return LogRecord(
        match_id=entry.match_id,
        seq=seq,
        version=int(entry.version),
        kind=kind,
        status=entry.status or "running",
        created_at=datetime.fromtimestamp(entry.unix_ms / 1000, UTC),
        seat=int(entry.seat),
        action=entry.action_json,
        request_id=entry.request_id,
        state_digest=entry.state_digest,
        clock_state=entry.clock_state_json or None,
        outcome=entry.outcome_json or None,
        snapshot=entry.snapshot or None,
    )


def finished_events(record: LogRecord, row: Row, settled: Settled) -> Sequence[OutboxMessage]:
    """A match that finished announces it once it is in SQL, with its seats, whether its ratings were settled with
    it, and the tournament whose inbox already holds its outcome (that tournament's driver steps)."""
    if record.status != "finished" or not record.outcome:
        return ()
    outcome = outcome_from_json(json.loads(record.outcome))
    assert outcome is not None
    seats = [epb.SeatJoined(seat=s.seat, account_id=s.account_id or "", kind=s.kind) for s in settled.seats]
    entry = events.finished(
        record.match_id,
        row["game"],
        record.version,
        outcome,
        int(row["seed"]),
        mode=row["mode"],
        seats=seats,
        tournament_id=settled.tournament_id,
        ratings_settled=settled.ratings_settled,
    )
    return outbox_from_proto([entry])


class Projector(BackgroundLoop):
    """Consume the whole match log in batches; `projected(match_id, seq)` waits for one entry to be in SQL.
    A finish rates its match in the batch's transaction (`rater`)."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        on_events: object = None,
        *,
        batch: int = BATCH,
        ack_wait: float = ACK_WAIT,
        rater: Rater | None = None,
        linger: float = LINGER_SECONDS,
    ) -> None:
        self.store = store
        self.rater = rater if rater is not None else FinishRater()
        self.linger = linger
        self.ack_wait = ack_wait
        self.bus = bus
        self.log = MatchLog(bus.js)
        self.batch = batch
        self.on_events = on_events
        self._heads: dict[str, int] = {}
        self._advanced = asyncio.Condition()
        self._sub: object = None
        self._waiter = patience.Waiter(LOG_STREAM, CONSUMER, health=HEALTH, beat_every=ack_wait / 3)

    async def subscribe(self) -> None:
        """The durable consumer, each entry acked on its own once its batch is committed."""
        config = api.ConsumerConfig(
            name=CONSUMER,
            durable_name=CONSUMER,
            ack_policy=api.AckPolicy.EXPLICIT,
            deliver_policy=api.DeliverPolicy.ALL,
            ack_wait=self.ack_wait,
            max_deliver=MAX_DELIVER,
            filter_subject=ALL_ENTRIES,
        )
        try:
            await self.bus.js.add_consumer(LOG_STREAM, config=config)
        except APIError as exc:
            if exc.err_code != ACK_POLICY_NOT_UPDATABLE:
                raise
            # A consumer of an earlier release acked cumulatively, which JetStream cannot update in place: make
            # it anew. It delivers every entry still in the log again; each one already in SQL is skipped.
            log.info("recreating the projection's consumer with per-entry acks")
            await self.bus.js.delete_consumer(LOG_STREAM, CONSUMER)
            await self.bus.js.add_consumer(LOG_STREAM, config=config)
        self._sub = await self.bus.bind(LOG_STREAM, CONSUMER)  # closed with the bus

    async def projected(self, match_id: str, seq: int, timeout: float = 10.0) -> bool:
        """Wait until the match's entry `seq` is projected (False on timeout)."""

        def done() -> bool:
            return self._heads.get(match_id, 0) >= seq

        async with self._advanced:
            if done():
                return True
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._advanced.wait_for(done), timeout)
            return done()

    async def _run(self) -> None:
        assert self._sub is not None
        sub = self._sub
        await patience.declare(CONSUMER, health=HEALTH)
        while True:
            try:
                messages = await sub.fetch(self.batch, timeout=1.0)  # type: ignore[attr-defined]
            except TimeoutError:
                metrics.LOG_PROJECTION_LAG.set(0)  # nothing came within a second: nothing is pending
                metrics.LOG_PROJECTION_LAG_ENTRIES.set(0)
                continue
            except (nats.errors.ConnectionClosedError, nats.errors.DrainTimeoutError):
                return
            except Exception as exc:
                log.warning("match log fetch failed", error=str(exc) or type(exc).__name__)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            note_pending(messages)
            await self.handle(messages)
            if len(messages) < self.batch:
                await asyncio.sleep(self.linger)  # let a batch gather: one transaction and one fetch for many

    async def handle(self, messages: list[Msg]) -> None:
        """Project one fetched batch (in one transaction when it can be), then ack, purge and wake waiters.

        While the database is away the batch is held, not nak'ed: the same transaction is tried again with
        backoff for as long as it takes (JetStream told the work is in progress), and the projection's health
        and lag say so. Any other failure is looked for entry by entry (`_one_by_one`)."""
        good: list[tuple[Msg, LogRecord, str]] = []
        for msg in messages:
            try:
                record, game = record_of(msg)
            except ValueError as exc:
                await self._dead(msg, str(exc))
                continue
            good.append((msg, record, game))
        if not good:
            return
        try:
            result = await self._patiently(good, [m for m, _, _ in good])
        except Exception as exc:  # a conflict, or something unforeseen: find the entries that can never be projected
            if not isinstance(exc, ProjectionConflict):
                log.warning("projection failed; trying entry by entry", entries=len(good), error=repr(exc)[:300])
            await self._one_by_one(good)
            return
        await self._done(good, result)

    async def _patiently(self, items: list[tuple[Msg, LogRecord, str]], held: list[Msg]) -> Projected:
        """Project `records` (reading any entries they follow from the log first), again and again while the
        store is away; the held messages are kept alive meanwhile. Raises what is not the store being away."""
        records = [r for _, r, _ in items]
        games = {r.match_id: g for _, r, g in items}
        while True:
            try:
                result = await self._project_filling_gaps(records, games)
            except Exception as exc:
                if not patience.is_away(exc):
                    await self._waiter.resumed()
                    raise
                await self._report_lag(records, held)
                await self._waiter.wait(exc, functools.partial(_keep_alive, held))
                continue
            await self._waiter.resumed()
            return result

    async def _project_filling_gaps(self, records: list[LogRecord], games: dict[str, str]) -> Projected:
        try:
            return await self._project(records)
        except ProjectionGap:
            # Redelivery after a crash can bring an entry before the ones it follows: read those from the log
            # (nothing is purged before it is projected), project them, then these.
            await self._fill_gaps(games)
            return await self._project(records)

    async def _report_lag(self, records: list[LogRecord], held: list[Msg]) -> None:
        """While waiting: the age of the oldest entry held, and how many entries are unprojected (those held, those
        delivered elsewhere and those not yet delivered, as the consumer counts them now)."""
        oldest = min(r.created_at for r in records)
        metrics.LOG_PROJECTION_LAG.set(max(0.0, time.time() - oldest.timestamp()))
        try:
            info = await self.bus.js.consumer_info(LOG_STREAM, CONSUMER, timeout=1.0)
            unprojected = int(info.num_pending or 0) + int(info.num_ack_pending or 0)
        except Exception:  # NATS away too: what the held batch knew
            meta = held[-1].metadata if held else None
            unprojected = len(held) + (int(meta.num_pending or 0) if meta is not None else 0)
        metrics.LOG_PROJECTION_LAG_ENTRIES.set(unprojected)

    async def _done(self, good: list[tuple[Msg, LogRecord, str]], result: Projected) -> None:
        """After the commit: ack each entry, count, wake waiters and purge what the log no longer needs."""
        for msg, _, _ in good:  # each on its own: a cumulative ack would cover entries held elsewhere
            with contextlib.suppress(Exception):
                await msg.ack()
        metrics.LOG_PROJECTED.inc(result.written)
        metrics.LOG_BATCH.observe(len(good))
        newest = max(r.created_at for _, r, _ in good)
        meta = good[-1][0].metadata
        pending = int(meta.num_pending or 0) if meta is not None else 0
        metrics.LOG_PROJECTION_LAG_ENTRIES.set(pending)
        metrics.LOG_PROJECTION_LAG.set(max(0.0, time.time() - newest.timestamp()) if pending else 0.0)
        if any(r.status in ("finished", "aborted") for _, r, _ in good) and callable(self.on_events):
            self.on_events()
        await self._advance({m: seq for m, (seq, _) in result.heads.items()})
        games = {r.match_id: g for _, r, g in good}
        await self._purge(games, result.heads, result.snapshot_seqs)

    async def _project(self, records: list[LogRecord]) -> Projected:
        result = await self.store.project(records, finished_events, self.rater)
        for game, mode in result.rated:
            metrics.RATINGS_APPLIED.labels(game, mode).inc()
        return result

    async def _fill_gaps(self, games: dict[str, str]) -> None:
        for match_id, game in games.items():
            head = await self.store.log_head(match_id)
            missing = await self.log.tail(game, match_id, head)
            if missing:
                result = await self._project([record_from(m.entry, m.seq) for m in missing])
                await self._advance({m: seq for m, (seq, _) in result.heads.items()})
                log.info("projected entries delivered out of order", match_id=match_id, entries=len(missing))

    async def _one_by_one(self, good: list[tuple[Msg, LogRecord, str]]) -> None:
        """Project a batch entry by entry, dead-lettering the ones that never can be: a conflict at once, any other
        failure once it has failed `POISON_ATTEMPTS` times. The store being away is waited out, as for a batch."""
        for index, (msg, record, game) in enumerate(good):
            held = [m for m, _, _ in good[index:]]
            for attempt in range(1, POISON_ATTEMPTS + 1):
                try:
                    result = await self._patiently([(msg, record, game)], held)
                except ProjectionConflict as exc:
                    await self._dead(msg, str(exc))
                    break
                except Exception as exc:
                    if attempt == POISON_ATTEMPTS:
                        await self._dead(msg, f"failed {attempt} times: {type(exc).__name__}: {exc}")
                        break
                    log.warning("entry not projected; trying again", match_id=record.match_id, error=repr(exc)[:300])
                    await _keep_alive(held)
                    await asyncio.sleep(POISON_PAUSE * attempt)
                    continue
                await self._done([(msg, record, game)], result)
                break

    async def replay_request(self, msg: Msg) -> None:
        """An operator's request (`gamehall deadletter replay`) to project a dead-lettered log entry again, once
        what kept it out is fixed: read it from the log (it stays there until projected) and project it, with the
        entries it follows. One that still cannot be projected is dead-lettered again, with the new reason."""
        try:
            sequence = int(json.loads(msg.data)["sequence"])
        except (ValueError, KeyError, TypeError) as exc:
            raise PermanentEventError(f"not a replay request: {exc}") from exc
        try:
            stored = await self.bus.js.get_msg(LOG_STREAM, sequence)
        except NotFoundError as exc:
            raise PermanentEventError(f"match log entry {sequence} is no longer in the log") from exc
        entry = LogEntry.FromString(stored.data or b"")
        try:
            record = record_from(entry, sequence)
            result = await self._project_filling_gaps([record], {record.match_id: entry.game})
        except (ValueError, ProjectionConflict) as exc:
            raise PermanentEventError(f"match log entry {sequence} still cannot be projected: {exc}") from exc
        metrics.LOG_PROJECTED.inc(result.written)
        await self._advance({m: seq for m, (seq, _) in result.heads.items()})
        await self._purge({record.match_id: entry.game}, result.heads, result.snapshot_seqs)
        if record.status in ("finished", "aborted") and callable(self.on_events):
            self.on_events()
        log.info("replayed a dead-lettered match log entry", match_id=record.match_id, sequence=sequence)

    async def _dead(self, msg: Msg, error: str) -> None:
        log.error("match log entry can never be projected; dead-lettering", subject=msg.subject, error=error)
        meta = msg.metadata
        try:
            await self.bus.dead_letter(
                LOG_STREAM,
                CONSUMER,
                msg.data,
                subject=msg.subject,
                headers=msg.headers,
                sequence=meta.sequence.stream if meta else 0,
                delivered=meta.num_delivered if meta else 1,
                reason="permanent",
                error=error,
            )
        except Exception as exc:  # keep it: retried, never lost
            log.warning("dead letter not written; entry kept", error=str(exc))
            with contextlib.suppress(Exception):
                await msg.nak(delay=5.0)
            return
        with contextlib.suppress(Exception):
            await msg.term()

    async def _advance(self, heads: dict[str, int]) -> None:
        async with self._advanced:
            for match_id, seq in heads.items():
                self._heads[match_id] = max(seq, self._heads.get(match_id, 0))
            if len(self._heads) > 100_000:  # waiters only ever need recent heads
                self._heads.clear()
                self._heads.update(heads)
            self._advanced.notify_all()

    async def _purge(
        self, games: dict[str, str], heads: dict[str, tuple[int, str]], snapshot_seqs: dict[str, int]
    ) -> None:
        """Retention until projected: a closed match's entries go; a running match's entries before its
        newest snapshot go (the snapshot entry and everything after it stay for a takeover's tail)."""
        purges = []
        for match_id, (_, status) in heads.items():
            game = games.get(match_id)
            if game is None:
                continue
            if status in ("finished", "aborted"):
                purges.append(self._purged(match_id, self.log.purge(game, match_id)))
            elif match_id in snapshot_seqs:
                purges.append(self._purged(match_id, self.log.purge_before(game, match_id, snapshot_seqs[match_id])))
        await asyncio.gather(*purges)  # together: a batch of finishes waits one round trip, not one each

    @staticmethod
    async def _purged(match_id: str, purge: Awaitable[None]) -> None:
        try:
            await purge
        except Exception as exc:  # the entries stay (the log has no age limit): harmless, as they are projected
            log.warning("match log purge failed", match_id=match_id, error=str(exc))


async def _keep_alive(held: list[Msg]) -> None:
    """Tell JetStream the held entries are still being worked on, so none is redelivered elsewhere meanwhile."""
    await asyncio.gather(*(m.in_progress() for m in held), return_exceptions=True)
