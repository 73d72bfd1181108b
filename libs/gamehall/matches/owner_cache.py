"""The live matches an owner holds: a bounded LRU of copies, each loaded on a miss from the projection's newest
snapshot plus the log's tail, and checked against the log before a read when it may be stale.

Ownership is a cache, not a lock (ARCHITECTURE rule 6): a copy another replica moved past loses its next
append's compare-and-swap, or is found moved by a read's check, and is loaded again. Only the ports
(`gamehall.matches.ports`) are asked; `MatchOwner` builds its flow on top of this.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from gamehall.engine import Game
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches.errors import BadRequest, LogUnavailable, Unavailable
from gamehall.matches.live import LiveMatch, MatchFacts
from gamehall.matches.ports import Logged, MatchLogPort, Store
from gamehall.wire.matches import facts_from_record, logged_from_entry

FRESH_SECONDS = 2.0
"""A cached match not advanced by this replica for this long is checked against the log before a read."""
PROJECTION_WAIT = (0.02, 0.05, 0.1, 0.2, 0.4, 0.8, 1.6)
"""Pauses while reading entries the projection has not written yet (it runs milliseconds behind the log)."""


@dataclass
class Held:
    live: LiveMatch
    checked: float
    seq: int = 0
    """The log's stream sequence of the match's newest entry: the next append's expected last sequence."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class MatchCache:
    """The copies of one game's live matches this owner holds, and how they are loaded and checked."""

    def __init__(self, game: Game[Any], store: Store, log: MatchLogPort, capacity: int = 10_000) -> None:
        self.game = game
        self.store = store
        self.log = log
        self.capacity = capacity
        self._held: OrderedDict[str, Held] = OrderedDict()
        self._loading: dict[str, asyncio.Future[Held]] = {}
        self.stepped: Callable[[LiveMatch], None] = lambda live: None
        """Told of every copy this owner loads, starts or advances (its clock's timer is armed from it)."""
        self.sized: Callable[[int], None] = lambda held: None
        """Told how many copies are held after each change (a service's gauge)."""

    async def _load(self, match_id: str) -> Held:
        """Load once however many calls miss together: two copies of one match would serve stale reads.

        A load already under way when a call comes may have read the match before a join the call follows (the
        joiner's next read). An open match is never cached, joins changing it outside this replica, so a call
        whose earlier load shows it open loads it again, sharing that second load with the calls doing the same."""
        earlier = self._loading.get(match_id)
        if earlier is not None:
            held = await asyncio.shield(earlier)
            if held.live.facts.status != "open":
                return held
        loading = self._loading.get(match_id)
        if loading is None or loading is earlier:
            loading = asyncio.ensure_future(self._load_now(match_id))
            self._loading[match_id] = loading
            loading.add_done_callback(
                lambda done: self._loading.pop(match_id, None) if self._loading.get(match_id) is done else None
            )
        return await asyncio.shield(loading)

    async def _load_now(self, match_id: str) -> Held:
        """The projection (snapshot, actions, request ids) plus the log's entries it does not hold yet."""
        last_read: tuple[int, str, int] | None = None
        for _ in range(3):
            loaded = await self.store.load(match_id)
            facts = facts_from_record(loaded.record)
            if facts.game != self.game.id:
                raise BadRequest(f"match {match_id} is a {facts.game} match, not {self.game.id}")
            seq = loaded.log_seq
            tail: list[Logged] = []
            if facts.status == "running":
                try:
                    tail = await self.log.tail(facts.game, match_id, seq)
                except LogUnavailable as exc:
                    raise Unavailable(str(exc)) from exc
            actions = list(loaded.actions)
            version = int(loaded.record.version)
            contiguous = True
            for logged in tail:
                entry = logged.entry
                if entry.kind == entry.KIND_ACTION:
                    if entry.version <= version:
                        seq = logged.seq  # projected after the head was read: the record already holds it
                        continue
                    if entry.version != version + 1:
                        contiguous = False  # the projection moved and purged while we read: read again
                        break
                    actions.append(logged_from_entry(entry))
                    version = int(entry.version)
                facts = _advanced(facts, entry)
                seq = logged.seq
            read = (version, facts.status, loaded.log_seq)
            if contiguous and facts.status == "running" and await self._log_head(match_id) < seq and read != last_read:
                # The log lost entries we were to read: the match closed, and its projected entries were
                # purged between our reading the projection and the log (the copy would be a running
                # match some versions behind its end). Read again; an emptied log under a projection
                # that stays put is only entries aged out of the stream.
                contiguous = False
            last_read = read
            if contiguous:
                break
        else:
            raise Unavailable(f"match {match_id}: its log kept moving; retry")
        live = LiveMatch.rebuild(
            self.game, facts, loaded.snapshot, loaded.snapshot_version, actions, loaded.logged_requests
        )
        if live.version != version:
            raise Unavailable(f"match {match_id}: log and record disagree ({live.version} vs {version}); retry")
        held = Held(live, time.monotonic(), seq)
        if facts.status != "open":  # an open match changes outside this replica (joins): never cached
            self._remember(match_id, held)
        return held

    def _remember(self, match_id: str, held: Held) -> None:
        self._held[match_id] = held
        self._held.move_to_end(match_id)
        while len(self._held) > self.capacity:
            self._held.popitem(last=False)  # its timer stays armed: it loads the match again when it fires
        self.sized(len(self._held))
        self.stepped(held.live)

    def adopt(self, record: ppb.MatchRecord) -> None:
        """Hold a match this replica has just started (running at version 0, nothing logged yet), so its
        first calls are served from memory instead of reading the projection and the log back. A copy
        already held stays as it is; an append by any other replica still wins the log's compare-and-set,
        and this copy then reloads."""
        if record.game != self.game.id or record.status != "running" or record.version != 0:
            return
        if record.id in self._held or record.id in self._loading:
            return
        live = LiveMatch.rebuild(self.game, facts_from_record(record), None, 0, [])
        self._remember(record.id, Held(live, time.monotonic(), 0))

    async def _log_head(self, match_id: str) -> int:
        """The sequence of the match's newest log entry (0: none, or all purged)."""
        try:
            return await self.log.last_seq(self.game.id, match_id)
        except LogUnavailable as exc:
            raise Unavailable(str(exc)) from exc

    async def held(self, match_id: str, *, fresh: bool = False, ask_log: bool = True) -> Held:
        """The match, from memory when it is safe to, else from the store.

        A copy not advanced here for `FRESH_SECONDS` (or any copy, when `fresh`) is first checked against the
        log, so a read never answers from a copy another replica moved past. A move passes `ask_log=False`: its
        append's compare-and-swap finds such a copy (it is then reloaded and the move judged again), so asking
        the log first would only cost every move at a human pace a read of the log."""
        if not match_id:
            raise BadRequest("match_id is required")
        held = self._held.get(match_id)
        if held is None:
            return await self._load(match_id)
        self._held.move_to_end(match_id)
        closed = held.live.facts.status in ("finished", "aborted")
        if ask_log and not closed and (fresh or time.monotonic() - held.checked > FRESH_SECONDS):
            try:
                moved = await self._log_moved(match_id, held)
            except LogUnavailable as exc:
                raise Unavailable(str(exc)) from exc
            if moved:  # another replica appended (or an operator closed the match)
                return await self._load(match_id)
            held.checked = time.monotonic()
        return held

    async def settled(self, match_id: str) -> Held:
        """The match once no move of this replica is between its append and its commit.

        The log's events (bot turns, pushes) go out as soon as persistence commits, which can be before
        this replica's copy has moved: a read must wait for the in-flight move rather than answer with
        the version before it (a bot would take its turn for stale and drop it)."""
        held = await self.held(match_id)
        if held.lock.locked():
            async with held.lock:
                pass
            held = await self.held(match_id)
        return held

    def drop(self, match_id: str) -> None:
        self._held.pop(match_id, None)

    def cached(self, match_id: str) -> Held | None:
        """The copy held in memory, if any (no log or store read)."""
        return self._held.get(match_id)

    def keep(self, match_id: str, held: Held) -> None:
        """After a step: the copy that advanced is the one to serve (an open match is never held)."""
        if self._held.get(match_id) is not held and held.live.facts.status != "open":
            self._held[match_id] = held

    async def _log_moved(self, match_id: str, held: Held) -> bool:
        """True (and the copy dropped) when the log has entries this copy lacks. A copy that never saw an entry
        (seq 0) also asks the store: a match closed (say, abandoned) at version 0 leaves nothing in the log
        once its close is projected and purged, and an empty log would look unchanged."""
        unchanged = await self.log.last_seq(self.game.id, match_id) == held.seq
        if unchanged and (held.seq or not await self._changed_in_store(match_id, held)):
            return False
        self.drop(match_id)
        return True

    async def unclosed(self, match_id: str, held: Held) -> Held:
        """A copy that has seen no log entry, reloaded when the store has moved past it.

        A close at version 0 (an abort) leaves nothing in the log once it is projected and purged, so only the
        store can tell. Anything still in the log fails the append's compare-and-set (it expects an empty
        subject), so the log is not read here: one read per match's first move, where two were."""
        if not await self._changed_in_store(match_id, held):
            return held
        self.drop(match_id)
        return await self._load(match_id)

    async def _changed_in_store(self, match_id: str, held: Held) -> bool:
        return await self.store.head(match_id) != (held.live.facts.status, held.live.version)

    async def moved_on(self, match_id: str, held: Held) -> bool:
        """`_log_moved`, answering False when the log or the store cannot be asked (a refusal then stands)."""
        try:
            return await self._log_moved(match_id, held)
        except Exception:
            return False

    async def projected(self, match_id: str, version: int) -> None:
        """Wait (briefly) until the projection holds `version`."""
        for pause in (0.0, *PROJECTION_WAIT):
            await asyncio.sleep(pause)
            if (await self.store.record(match_id)).version >= version:
                return
        raise Unavailable(f"match {match_id}: version {version} is not projected yet; retry shortly")


def _advanced(facts: MatchFacts, entry: Any) -> MatchFacts:
    """The facts after a log entry the projection does not hold yet (status, clock, outcome)."""
    changes: dict[str, Any] = {"status": entry.status or facts.status}
    if entry.clock_state_json:
        changes["clock_state"] = json.loads(entry.clock_state_json)
    if entry.outcome_json:
        changes["outcome"] = json.loads(entry.outcome_json)
    return replace(facts, **changes)


__all__ = ["FRESH_SECONDS", "PROJECTION_WAIT", "Held", "MatchCache"]
