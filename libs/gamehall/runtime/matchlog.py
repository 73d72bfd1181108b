"""The match log on JetStream: append with a compare-and-swap, read a match's tail, purge what is projected.

Each running match has its own subjects `gamehall.v1.log.<game>.<match_id>.<tag>` in the
`GAMEHALL_MATCHLOG` stream. An append carries JetStream's expected last subject sequence over
`gamehall.v1.log.<game>.<match_id>.*`: the stream sequence of the match's previous entry (0 before
the first). A replica whose copy is stale, or that raced another, gets `LogConflict` and reloads;
it can never fork the match. The entry's message id names the entry it follows (`successor_id`), so the
same holds once persistence has purged a closed match (an empty log would otherwise look like a new one).
The tag only routes readers (see `entry_tag`).
"""

from __future__ import annotations

import asyncio

import nats
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeout
from nats.js import JetStreamContext
from nats.js.errors import APIError, NoStreamResponseError, NotFoundError, ServiceUnavailableError

from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.matches.errors import LogConflict, LogUnavailable
from gamehall.matches.ports import Logged
from gamehall.runtime import metrics
from gamehall.runtime.bus import SUBJECT_ROOT

LOG_STREAM = "GAMEHALL_MATCHLOG"
PROJECTOR = "persistence-projector"
"""Persistence's durable consumer of the whole log (its SQL projection)."""
WRONG_LAST_SEQUENCE = 10071
"""JetStream's error code when the expected last subject sequence does not match."""
EXPECTED_SEQ = "Nats-Expected-Last-Subject-Sequence"
EXPECTED_SEQ_SUBJECT = "Nats-Expected-Last-Subject-Sequence-Subject"

BOT, END, MOVE = "bot", "end", "move"


def log_subject(game: str, match_id: str, tag: str) -> str:
    return f"{SUBJECT_ROOT}.log.{game}.{match_id}.{tag}"


def successor_id(match_id: str, expected_seq: int) -> str:
    """The message id of the entry following `expected_seq` in a match's log: JetStream stores one message per
    id within the stream's duplicate window, so two copies cannot both extend one entry, even once it is purged."""
    return f"{match_id}@{expected_seq}"


def match_filter(game: str, match_id: str) -> str:
    """Every entry of one match, whatever its tag."""
    return f"{SUBJECT_ROOT}.log.{game}.{match_id}.*"


def bot_filter(game: str) -> str:
    """Entries after which a bot seat of `game` is to act: the ai's durable consumer reads these."""
    return f"{SUBJECT_ROOT}.log.{game}.*.{BOT}"


ALL_ENTRIES = f"{SUBJECT_ROOT}.log.>"


def entry_tag(entry: LogEntry) -> str:
    if entry.status in ("finished", "aborted"):
        return END
    return BOT if entry.bot_turns else MOVE


LOG_TIMEOUT = 2.0
"""Seconds an append or a read of the log waits for JetStream. An append normally takes milliseconds; one that
meets no stream leader (a leader's election after its node died takes 4 to 9 s) is dropped unanswered, and each
wait out here is time a retrying client spends idle after the new leader is up. Two seconds, as the bus's other
publishes: a timed-out append that did land is found by the reload that follows it."""


class MatchLog:
    """Appends and reads of the match log through one JetStream context."""

    def __init__(self, js: JetStreamContext, *, timeout: float = LOG_TIMEOUT) -> None:
        self.js = js
        self.timeout = timeout

    async def append(self, entry: LogEntry, expected_seq: int) -> int:
        """Write `entry` if the match's newest entry is still `expected_seq`; returns the new entry's sequence."""
        headers = {
            EXPECTED_SEQ: str(expected_seq),
            EXPECTED_SEQ_SUBJECT: match_filter(entry.game, entry.match_id),
            # One successor per entry, purged or not: the compare-and-swap alone cannot tell "no entry yet" (0)
            # from "ended, projected and purged", so a copy that never saw the end could append after it.
            "Nats-Msg-Id": successor_id(entry.match_id, expected_seq),
        }
        try:
            ack = await self.js.publish(
                log_subject(entry.game, entry.match_id, entry_tag(entry)),
                entry.SerializeToString(),
                timeout=self.timeout,
                stream=LOG_STREAM,
                headers=headers,
            )
        except APIError as exc:
            if exc.err_code == WRONG_LAST_SEQUENCE:
                metrics.LOG_CONFLICTS.labels(entry.game).inc()
                raise LogConflict(f"match {entry.match_id}: {exc.description}") from exc
            raise LogUnavailable(f"match {entry.match_id}: the log refused the entry: {exc.description}") from exc
        except (TimeoutError, NatsTimeout, NoRespondersError, NoStreamResponseError, ServiceUnavailableError) as exc:
            raise LogUnavailable(f"match {entry.match_id}: the log did not answer ({type(exc).__name__})") from exc
        if ack.duplicate:  # another entry already follows `expected_seq` (within the duplicate window)
            metrics.LOG_CONFLICTS.labels(entry.game).inc()
            raise LogConflict(f"match {entry.match_id}: entry {expected_seq} already has a successor ({ack.seq})")
        metrics.JETSTREAM_PUBLISHED.labels(LOG_STREAM).inc()
        return int(ack.seq)

    async def last_seq(self, game: str, match_id: str) -> int:
        """The sequence of the match's newest entry, 0 when it has none (or all were purged)."""
        try:
            msg = await self.js.get_last_msg(LOG_STREAM, match_filter(game, match_id), direct=True)
        except NotFoundError:
            return 0
        except (TimeoutError, NatsTimeout, NoRespondersError, ServiceUnavailableError) as exc:
            raise LogUnavailable(f"match {match_id}: the log did not answer ({type(exc).__name__})") from exc
        return int(msg.seq or 0)

    async def last(self, game: str, match_id: str) -> Logged | None:
        """The match's newest entry, None when it has none (or all were purged)."""
        try:
            msg = await self.js.get_last_msg(LOG_STREAM, match_filter(game, match_id), direct=True)
        except NotFoundError:
            return None
        except (TimeoutError, NatsTimeout, NoRespondersError, ServiceUnavailableError) as exc:
            raise LogUnavailable(f"match {match_id}: the log did not answer ({type(exc).__name__})") from exc
        if msg.seq is None or msg.data is None:
            return None
        return Logged(int(msg.seq), LogEntry.FromString(msg.data))

    async def tail(self, game: str, match_id: str, after_seq: int) -> list[Logged]:
        """The match's entries with a sequence above `after_seq`, in order (a takeover's catch-up)."""
        last = await self.last_seq(game, match_id)
        found: list[Logged] = []
        seq = after_seq + 1
        try:
            while seq <= last:
                msg = await self.js.get_msg(
                    LOG_STREAM, seq, subject=match_filter(game, match_id), next=True, direct=True
                )
                if msg.seq is None or msg.data is None:
                    break
                found.append(Logged(int(msg.seq), LogEntry.FromString(msg.data)))
                seq = int(msg.seq) + 1
        except NotFoundError:
            pass
        except (TimeoutError, NatsTimeout, NoRespondersError, ServiceUnavailableError) as exc:
            raise LogUnavailable(f"match {match_id}: the log did not answer ({type(exc).__name__})") from exc
        return found

    async def purge_before(self, game: str, match_id: str, seq: int) -> None:
        """Drop the match's entries below `seq` (they are projected and covered by a snapshot)."""
        await self.js.purge_stream(LOG_STREAM, subject=match_filter(game, match_id), seq=seq)

    async def purge(self, game: str, match_id: str) -> None:
        """Drop every entry of a closed match once it is projected."""
        await self.js.purge_stream(LOG_STREAM, subject=match_filter(game, match_id))


async def projection_backlog(js: JetStreamContext) -> int:
    """Log entries the projection has not yet written (delivered or not)."""
    info = await js.consumer_info(LOG_STREAM, PROJECTOR)
    return int(info.num_pending or 0) + int(info.num_ack_pending or 0)


async def wait_projected(js: JetStreamContext, timeout: float = 30.0) -> bool:
    """Wait until the projection has caught up with the log (False on timeout): for checks that read SQL."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        try:
            if await projection_backlog(js) == 0:
                return True
        except (TimeoutError, NotFoundError, NatsTimeout, NoRespondersError, ServiceUnavailableError):
            pass
        await asyncio.sleep(0.1)
    return False


async def wait_projected_at(url: str, timeout: float = 30.0) -> bool:
    """`wait_projected` over a connection of its own to the NATS server(s) at `url` (comma separated)."""
    nc = await nats.connect(servers=[u.strip() for u in url.split(",")])
    try:
        return await wait_projected(nc.jetstream(), timeout)
    finally:
        await nc.close()


__all__ = [
    "ALL_ENTRIES",
    "LOG_STREAM",
    "PROJECTOR",
    "LogConflict",
    "LogUnavailable",
    "Logged",
    "MatchLog",
    "bot_filter",
    "entry_tag",
    "log_subject",
    "match_filter",
    "projection_backlog",
    "successor_id",
    "wait_projected",
    "wait_projected_at",
]
