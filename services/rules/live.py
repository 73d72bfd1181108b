"""The live matches this rules replica owns: kept in memory (bounded LRU), loaded on a miss from the
projection's newest snapshot plus the match log's tail, advanced by appending each step to the match
log on JetStream with a compare-and-swap on the match's last entry, and pushed to watchers (one
core-NATS subject per audience) after each append. Persistence projects the log into SQL behind it.

The domain decisions (who may act, clocks, idempotency, what each audience sees) are the match
library's (`gamehall.matches`); this module only moves bytes between it, persistence and NATS.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import grpc
import structlog

from gamehall.engine import Game
from gamehall.engine.errors import IllegalAction
from gamehall.internal.v1 import live_pb2, persistence_pb2_grpc
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches import Caller, LiveMatch, MatchNotRunning, Step, require_seat, require_watch, seat_of
from gamehall.matches.errors import MatchError, VersionConflict
from gamehall.matches.live import LoggedAction, MatchFacts, Remembered, StepView, forfeit_outcome
from gamehall.matches.replay import HIDDEN, replay_page
from gamehall.runtime import budget, metrics
from gamehall.runtime.errors import ClientError
from gamehall.runtime.matchlog import LogConflict, Logged, LogUnavailable, MatchLog
from gamehall.runtime.upstream import translate_store_call
from gamehall.store.seats import LEAVE_KEY_PREFIX
from gamehall.wire import event_to_proto, outcome_to_proto, pages
from gamehall.wire.convert import dumps
from gamehall.wire.matches import facts_from_record, logged_from_entry, logged_to_public, outcome_from_json
from gamehall.wire.matchlog import close_entry, entry_for_step
from gamehall_sdk.v1 import common_pb2, match_pb2
from gamehall_services.rules.match_heads import MatchHeads

log = structlog.get_logger("gamehall.rules.live")

MAX_ATTEMPTS = 8
FRESH_SECONDS = 2.0
"""A cached match not advanced by this replica for this long is checked against the log before a read."""
LOG_WAIT_SECONDS = 5.0
"""How long a call waits for this replica's first NATS connection before it is UNAVAILABLE."""
PROJECTION_WAIT = (0.02, 0.05, 0.1, 0.2, 0.4, 0.8, 1.6)
"""Pauses while reading entries the projection has not written yet (it runs milliseconds behind the log)."""

Publish = Callable[[str, int | None, bytes], Awaitable[None]]


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass
class Held:
    live: LiveMatch
    checked: float
    seq: int = 0
    """The log's stream sequence of the match's newest entry: the next append's expected last sequence."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class LiveMatches:
    """Live matches of one game in this replica."""

    def __init__(
        self,
        game: Game[Any],
        persistence: Callable[[], persistence_pb2_grpc.PersistenceServiceStub],
        publish: Publish | None = None,
        capacity: int = 10_000,
        timeout: float = 10.0,
        log: Callable[[], MatchLog | None] = lambda: None,
        watched: Callable[[str], list[int | None]] | None = None,
    ) -> None:
        self.game = game
        self._persistence = persistence
        self._log = log
        self.publish = publish
        self.watched = watched
        """The audiences of a match someone watches (`services.rules.watched`); None pushes to every audience."""
        self.capacity = capacity
        self.timeout = timeout
        self._held: OrderedDict[str, Held] = OrderedDict()
        self._loading: dict[str, asyncio.Future[Held]] = {}
        self._heads = MatchHeads(persistence, timeout)
        """The store's checks of copies about to take their first move, read together (`_unclosed`)."""
        self.stepped: Callable[[LiveMatch], None] = lambda live: None
        """Told of every copy this replica loads, starts or advances (its clock's timer is armed from it:
        `services.rules.owner_clocks`)."""

    # ----------------------------------------------------------------- the cache
    async def _call(self, method: str, request: Any) -> Any:
        try:
            return await getattr(self._persistence(), method)(request, timeout=budget.upstream_timeout(self.timeout))
        except grpc.aio.AioRpcError as exc:
            raise translate_store_call(exc) from exc

    async def _match_log(self) -> MatchLog:
        """The match log, waiting (a bounded time) for a replica that started before NATS was reachable."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + LOG_WAIT_SECONDS
        while (found := self._log()) is None:
            if loop.time() >= deadline:
                raise ClientError(
                    grpc.StatusCode.UNAVAILABLE, "the match log (NATS) is not reachable yet; retry shortly"
                )
            await asyncio.sleep(0.05)
        return found

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
            request = ppb.LoadMatchStateRequest(match_id=match_id, with_request_ids=True)
            loaded = await self._call("LoadMatchState", request)
            facts = facts_from_record(loaded.match)
            if facts.game != self.game.id:
                raise ClientError(
                    grpc.StatusCode.INVALID_ARGUMENT,
                    f"match {match_id} is a {facts.game} match, not {self.game.id}",
                    common_pb2.ERROR_REASON_MALFORMED,
                )
            seq = int(loaded.log_seq)
            tail: list[Logged] = []
            if facts.status == "running":
                try:
                    matchlog = await self._match_log()
                    tail = await matchlog.tail(facts.game, match_id, seq)
                except LogUnavailable as exc:
                    raise ClientError(grpc.StatusCode.UNAVAILABLE, str(exc)) from exc
            actions = [logged_from_entry(a) for a in loaded.actions]
            version = int(loaded.match.version)
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
            read = (version, facts.status, int(loaded.log_seq))
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
            raise ClientError(grpc.StatusCode.UNAVAILABLE, f"match {match_id}: its log kept moving; retry")
        live = LiveMatch.rebuild(
            self.game,
            facts,
            loaded.snapshot or None,
            int(loaded.snapshot_version),
            actions,
            [(int(k.seat), k.request_id) for k in loaded.logged_requests],
        )
        if live.version != version:
            raise ClientError(
                grpc.StatusCode.UNAVAILABLE,
                f"match {match_id}: log and record disagree ({live.version} vs {version}); retry",
            )
        held = Held(live, time.monotonic(), seq)
        if facts.status != "open":  # an open match changes outside this replica (joins): never cached
            self._remember(match_id, held)
        return held

    def _remember(self, match_id: str, held: Held) -> None:
        self._held[match_id] = held
        self._held.move_to_end(match_id)
        while len(self._held) > self.capacity:
            self._held.popitem(last=False)  # its timer stays armed: it loads the match again when it fires
        metrics.LIVE_MATCHES_HELD.labels(self.game.id).set(len(self._held))
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
            return await (await self._match_log()).last_seq(self.game.id, match_id)
        except LogUnavailable as exc:
            raise ClientError(grpc.StatusCode.UNAVAILABLE, str(exc)) from exc

    async def held(self, match_id: str, *, fresh: bool = False, ask_log: bool = True) -> Held:
        """The match, from memory when it is safe to, else from the store.

        A copy not advanced here for `FRESH_SECONDS` (or any copy, when `fresh`) is first checked against the
        log, so a read never answers from a copy another replica moved past. A move passes `ask_log=False`: its
        append's compare-and-swap finds such a copy (it is then reloaded and the move judged again), so asking
        the log first would only cost every move at a human pace a read of the log."""
        if not match_id:
            raise ClientError(
                grpc.StatusCode.INVALID_ARGUMENT, "match_id is required", common_pb2.ERROR_REASON_MALFORMED
            )
        held = self._held.get(match_id)
        if held is None:
            return await self._load(match_id)
        self._held.move_to_end(match_id)
        closed = held.live.facts.status in ("finished", "aborted")
        if ask_log and not closed and (fresh or time.monotonic() - held.checked > FRESH_SECONDS):
            try:
                moved = await self._log_moved(match_id, held)
            except LogUnavailable as exc:
                raise ClientError(grpc.StatusCode.UNAVAILABLE, str(exc)) from exc
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

    async def store_call(self, method: str, request: Any) -> Any:
        """A call to persistence with this replica's deadline (the clocks' indexed read at start)."""
        return await self._call(method, request)

    # ----------------------------------------------------------------- playing
    async def play(
        self,
        match_id: str,
        caller: Caller,
        wanted_seat: int | None,
        request_id: str,
        expected_version: int | None,
        action_id: str = "",
        action_json: dict[str, Any] | None = None,
    ) -> match_pb2.SubmitActionResponse:
        """A move by `caller` for its seat (or `wanted_seat`, if it may act for it)."""
        return await self._play(
            match_id,
            lambda facts: require_seat(facts, caller, wanted_seat),
            request_id,
            expected_version,
            action_id,
            action_json,
        )

    async def _play(
        self,
        match_id: str,
        seat_of_caller: Callable[[MatchFacts], int],
        request_id: str,
        expected_version: int | None,
        action_id: str = "",
        action_json: dict[str, Any] | None = None,
    ) -> match_pb2.SubmitActionResponse:
        """Judge and log one move; a stale cache loses the compare-and-swap, reloads and judges again."""
        for attempt in range(MAX_ATTEMPTS):
            asked = time.monotonic()
            held = await self.held(match_id, ask_log=False)
            if held.seq == 0 and held.live.facts.status == "running" and held.checked < asked:
                held = await self._unclosed(match_id, held)  # its first entry: make sure no close got there first
            async with held.lock:
                live = held.live
                seat = seat_of_caller(live.facts)
                earlier = live.remembered(request_id, seat)
                if earlier is not None:
                    return _submitted(earlier, replayed=True)
                if live.logged_before(request_id, seat):  # a retry of a move logged before this copy was loaded
                    prior = await self._logged_request(match_id, request_id, seat)
                    if prior is None:  # never judge it again: that would log one request twice
                        raise ClientError(
                            grpc.StatusCode.UNAVAILABLE,
                            f"request {request_id[:64]!r} is logged but its result is not readable yet; retry",
                        )
                    return await self._replayed(held, prior)
                try:
                    live.require_version(expected_version)
                    action = live.resolve(seat, action_id_=action_id, action_json=action_json)
                    step = live.play(seat, action, request_id, now_ms(), expected_version)
                except (IllegalAction, MatchError) as refused:
                    if attempt == 0 and await self._moved_on(match_id, held):
                        continue  # judged on a stale copy: judge again on the log
                    metrics.ACTIONS_REJECTED.labels(self.game.id).inc()
                    log.info("move refused", match_id=match_id, version=live.version, seat=seat, why=str(refused))
                    raise
                entry = entry_for_step(self.game, live.facts, step, now_ms())
                try:
                    matchlog = await self._match_log()
                    seq = await matchlog.append(entry, held.seq)
                except LogConflict:
                    self.drop(match_id)
                    continue  # another replica moved, or this copy was stale: judge again on the log
                except LogUnavailable as exc:
                    self.drop(match_id)  # it may have landed: the next call reads the log to find out
                    raise ClientError(grpc.StatusCode.UNAVAILABLE, f"{exc}; retry with the same request id") from exc
                except asyncio.CancelledError:
                    self.drop(match_id)  # cut off mid-append (it may have landed): no read may see this copy again
                    raise
                live.commit(step)
                held.seq = seq
                held.checked = time.monotonic()
                if self._held.get(match_id) is not held and live.facts.status != "open":
                    self._held[match_id] = held  # the copy that advanced is the one to serve
                self.stepped(live)
            metrics.ACTIONS_APPLIED.labels(self.game.id).inc()
            await self._push(live, step)
            return _submitted(step, step.to_act)
        raise ClientError(
            grpc.StatusCode.ABORTED,
            f"match {match_id} kept changing; retry the request",
            common_pb2.ERROR_REASON_VERSION_CONFLICT,
        )

    async def _log_moved(self, match_id: str, held: Held) -> bool:
        """True (and the copy dropped) when the log has entries this copy lacks. A copy that never saw an entry
        (seq 0) also asks the store: a match closed (say, abandoned) at version 0 leaves nothing in the log
        once its close is projected and purged, and an empty log would look unchanged."""
        matchlog = await self._match_log()
        unchanged = await matchlog.last_seq(self.game.id, match_id) == held.seq
        if unchanged and (held.seq or not await self._changed_in_store(match_id, held)):
            return False
        self.drop(match_id)
        return True

    async def _unclosed(self, match_id: str, held: Held) -> Held:
        """A copy that has seen no log entry, reloaded when the store has moved past it.

        A close at version 0 (an abort) leaves nothing in the log once it is projected and purged, so only the
        store can tell. Anything still in the log fails the append's compare-and-set (it expects an empty
        subject), so the log is not read here: one read per match's first move, where two were."""
        if not await self._changed_in_store(match_id, held):
            return held
        self.drop(match_id)
        return await self._load(match_id)

    async def _changed_in_store(self, match_id: str, held: Held) -> bool:
        return await self._heads.head(match_id) != (held.live.facts.status, held.live.version)

    async def _moved_on(self, match_id: str, held: Held) -> bool:
        """`_log_moved`, answering False when the log cannot be asked (a refusal then stands)."""
        try:
            return await self._log_moved(match_id, held)
        except (LogUnavailable, ClientError):
            return False

    async def _logged_request(self, match_id: str, request_id: str, seat: int) -> ppb.ActionEntry | None:
        """The projected entry of the seat's earlier try of `request_id` (waiting briefly: it may be milliseconds
        behind the log)."""
        for pause in (0.0, *PROJECTION_WAIT):
            await asyncio.sleep(pause)
            request = ppb.LoadMatchStateRequest(
                match_id=match_id, request_id=request_id, request_seat=seat, at_version=0
            )
            found = await self._call("LoadMatchState", request)
            if found.HasField("prior"):
                prior: ppb.ActionEntry = found.prior
                return prior
        return None

    async def _replayed(self, held: Held, entry: ppb.ActionEntry) -> match_pb2.SubmitActionResponse:
        response = match_pb2.SubmitActionResponse(
            version=entry.version, action=logged_to_public(logged_from_entry(entry)), replayed=True
        )
        outcome = outcome_from_json(dict(held.live.facts.outcome)) if held.live.facts.outcome else None
        if outcome is not None:
            response.outcome.CopyFrom(outcome)
        return response

    async def _push(self, live: LiveMatch, step: Step | None) -> None:
        """One message per watched audience (a seat's view, the spectators'), with the events each may see; a
        match nobody watches builds and sends nothing."""
        if self.publish is None:
            return
        audiences = self.watched(live.facts.id) if self.watched is not None else None
        if audiences is not None and not audiences:
            return
        try:
            for view in live.views(step, audiences):
                message = self._message(live, view, live.version)
                await self.publish(live.facts.id, view.seat, message.SerializeToString())
                metrics.VIEWS_PUSHED.labels(self.game.id, "spectators" if view.seat is None else "seat").inc()
        except Exception as exc:  # watchers fill gaps from GetView: a lost push costs latency, not data
            log.warning("view push failed", match_id=live.facts.id, error=str(exc))

    def _message(self, live: LiveMatch, view: StepView, version: int) -> match_pb2.WatchMatchResponse:
        closed = live.facts.status in ("finished", "aborted")
        message = match_pb2.WatchMatchResponse(
            version=version,
            view_json=dumps(view.view),
            to_act=[] if closed else live.to_act,
            events=[event_to_proto(e) for e in view.events],
        )
        if view.seat is not None:
            message.seat = view.seat
            if not closed and view.seat in message.to_act:  # the seat's choice comes with its view (issue 39)
                for action in live.legal(view.seat):
                    the_id, label = live.describe(action)
                    message.legal_actions.append(
                        common_pb2.LegalAction(
                            id=the_id, label=label, action_json=dumps(self.game.action_to_json(action))
                        )
                    )
        outcome = outcome_from_json(dict(live.facts.outcome)) if live.facts.outcome else None
        if outcome is not None:
            message.outcome.CopyFrom(outcome)
        return message

    # ----------------------------------------------------------------- reading
    async def view(
        self, match_id: str, caller: Caller, wanted_seat: int | None, at_version: int | None
    ) -> match_pb2.WatchMatchResponse:
        held = await self.settled(match_id)
        live = held.live
        require_watch(live.facts, caller)
        seat = seat_of(live.facts, caller, wanted_seat)
        if at_version is None or at_version == live.version:
            view = StepView(seat, live.view(seat), ())
            if at_version is not None and live.recent:
                last = next(reversed(live.recent.values()))
                if last.version == live.version:
                    view = StepView(seat, view.view, tuple(e for e in last.events() if e.visible_to(seat)))
            return self._message(live, view, live.version)
        if at_version > live.version:
            raise ClientError(
                grpc.StatusCode.OUT_OF_RANGE,
                f"match {match_id} is at version {live.version}, not {at_version} yet",
                common_pb2.ERROR_REASON_MALFORMED,
            )
        past, last_events = await self._state_at(live, at_version)
        message = match_pb2.WatchMatchResponse(
            version=at_version,
            view_json=dumps(self.game.view(past, seat)),
            to_act=sorted(self.game.to_act(past)),
            events=[event_to_proto(e) for e in last_events if e.visible_to(seat)],
        )
        if seat is not None:
            message.seat = seat
        outcome = self.game.outcome(past)
        if outcome is not None:
            message.outcome.CopyFrom(outcome_to_proto(outcome))
        return message

    async def _state_at(self, live: LiveMatch, version: int) -> tuple[Any, tuple[Any, ...]]:
        """The state at an earlier version and the events of the step that reached it: from memory when this
        replica made that step, else rebuilt in process from the projection."""
        for step in live.recent.values():
            if step.version == version:
                return step.state(self.game), step.events()
        await self._projected(live.facts.id, version)
        request = ppb.LoadMatchStateRequest(match_id=live.facts.id, at_version=max(0, version - 1))
        loaded = await self._call("LoadMatchState", request)
        past = LiveMatch.rebuild(
            self.game,
            live.facts,
            loaded.snapshot or None,
            int(loaded.snapshot_version),
            [logged_from_entry(a) for a in loaded.actions],
        )
        if version == 0:
            return past.state, ()
        step_entry = await self._call(
            "GetActions", ppb.GetActionsRequest(match_id=live.facts.id, from_version=version, to_version=version)
        )
        entry = logged_from_entry(step_entry.actions[0])
        state, emitted = self.game.apply(past.state, entry.seat, self.game.parse_action(entry.action))
        return state, tuple(emitted)

    async def head(self, match_id: str) -> tuple[MatchFacts, int]:
        """The match's facts and version as this owner holds them (fresher than the projection)."""
        held = await self.settled(match_id)
        return held.live.facts, held.live.version

    async def legal(self, match_id: str, caller: Caller, wanted_seat: int | None) -> match_pb2.ListLegalActionsResponse:
        held = await self.settled(match_id)
        live = held.live
        seat = require_seat(live.facts, caller, wanted_seat)
        response = match_pb2.ListLegalActionsResponse(version=live.version, seat=seat)
        if live.facts.status == "running" and seat in live.to_act:
            for action in live.legal(seat):
                the_id, label = live.describe(action)
                response.actions.append(
                    common_pb2.LegalAction(id=the_id, label=label, action_json=dumps(self.game.action_to_json(action)))
                )
        return response

    async def replay(
        self, match_id: str, caller: Caller, from_version: int = 1, page_size: int = 0
    ) -> tuple[match_pb2.GetReplayResponse, int]:
        """(a page of the match's replay from `from_version`, the version the next page starts at or 0): at most
        `page_size` steps (0: no count limit) and, past the first step, at most REPLAY_PAGE_BYTES of views."""
        held = await self.held(match_id, fresh=True)
        facts = held.live.facts
        require_watch(facts, caller)
        complete = facts.status in ("finished", "aborted")
        seat = None if complete else seat_of(facts, caller, None)
        first = max(1, from_version)
        actions = await self._actions(held.live, held.live.version)
        return await asyncio.to_thread(self._replay_page, facts, actions, seat, complete, first, page_size)

    def _replay_page(
        self,
        facts: MatchFacts,
        actions: list[LoggedAction],
        seat: int | None,
        complete: bool,
        first: int,
        page_size: int,
    ) -> tuple[match_pb2.GetReplayResponse, int]:
        page = replay_page(
            self.game, facts, actions, seat, complete, first, page_size, pages.REPLAY_PAGE_BYTES, encode=dumps
        )
        response = match_pb2.GetReplayResponse(complete=complete, initial_view_json=page.initial_view_json)
        for step, view_json in page.steps:
            response.steps.append(
                match_pb2.ReplayStep(
                    version=step.version,
                    seat=step.seat,
                    action=logged_to_public(step.action) if step.action else common_pb2.LegalAction(label=HIDDEN),
                    view_json=view_json,
                )
            )
        return response, page.next_version

    async def _actions(self, live: LiveMatch, to_version: int) -> list[LoggedAction]:
        """Logged actions 1..`to_version`: the projection's, then this replica's own newest steps for any
        the projection has not written yet (it runs milliseconds behind the log)."""
        mine = {s.version: s for s in live.recent.values()}
        for pause in (0.0, *PROJECTION_WAIT):
            await asyncio.sleep(pause)
            logged = await self._call(
                "GetActions", ppb.GetActionsRequest(match_id=live.facts.id, from_version=1, to_version=to_version)
            )
            actions = [logged_from_entry(a) for a in logged.actions]
            while len(actions) < to_version and len(actions) + 1 in mine:
                actions.append(mine[len(actions) + 1].logged_action())
            if len(actions) == to_version:
                return actions
        raise ClientError(
            grpc.StatusCode.UNAVAILABLE, f"match {live.facts.id}: its history is not projected yet; retry shortly"
        )

    async def _projected(self, match_id: str, version: int) -> None:
        """Wait (briefly) until the projection holds `version`."""
        for pause in (0.0, *PROJECTION_WAIT):
            await asyncio.sleep(pause)
            record = (await self._call("GetMatch", ppb.GetMatchRequest(match_id=match_id))).match
            if record.version >= version:
                return
        raise ClientError(
            grpc.StatusCode.UNAVAILABLE, f"match {match_id}: version {version} is not projected yet; retry shortly"
        )

    # ----------------------------------------------------------------- lifecycle
    async def time_out(self, match_id: str, seat: int, version: int) -> str:
        """The seat's clock ran out at `version`: its default action, or a forfeit when the game has none."""
        held = await self.held(match_id, fresh=True)
        live = held.live
        if live.version != version or live.facts.status != "running" or seat not in live.to_act:
            return "stale"
        action = live.default_action(seat)
        if action is None:
            await self.forfeit(match_id, seat, "ran out of time", version)
            return "forfeited"
        try:  # the clock acts for the seat, whoever holds it
            await self._play(
                match_id,
                lambda _: seat,
                f"clock:{version}:{seat}",
                version,
                action_json=self.game.action_to_json(action),
            )
        except (IllegalAction, MatchError):
            return "stale"
        except ClientError as exc:
            if exc.code in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION):
                return "stale"
            raise
        return "played"

    async def forfeit(
        self, match_id: str, seat: int, why: str, version: int | None = None, key: str | None = None
    ) -> int:
        """End the running match with `seat` ranked last, guarded by the version it was judged at. `key` is the log
        entry's request id (default `forfeit:<version>:<seat>`; a leave's is `leave:<its request id>`)."""
        outcome = forfeit_outcome(len((await self.held(match_id)).live.facts.seats), seat, why)
        live = await self._close(match_id, "finished", outcome, lambda v: key or f"forfeit:{v}:{seat}", version, seat)
        log.info("seat forfeited", match_id=match_id, seat=seat, why=why)
        return int(live.version)

    async def abandon(self, match_id: str, version: int, idle_ms: int) -> bool:
        """Close the match as aborted, nobody having stepped for its inactivity limit (issue 20, finding 8), if it
        is still running at `version`; False when a step or a close came first."""
        why = f"abandoned: no move for {idle_ms // 1000} s"
        try:
            outcome: dict[str, Any] = {"ranks": [], "scores": None, "reason": why}
            await self._close(match_id, "aborted", outcome, lambda v: f"abandon:{v}", version)
        except (MatchNotRunning, VersionConflict):
            return False
        log.info("abandoned match closed", match_id=match_id, version=version, why=why)
        return True

    async def close_match(
        self, match_id: str, status: str, outcome: dict[str, Any] | None, expected_version: int | None
    ) -> int:
        """Close the match from outside its rules (a no-show, an operator's abort or adjudication), as its owner.

        A running match gets a close entry in its log (guarded by `expected_version`; a move that lands first
        makes it judge again). An open match has not started, so it is not in the log yet (the lobby keeps it in
        the store): persistence aborts it there, and refuses if a join started it meanwhile, in which case the
        close is judged again on the running match. Returns the version the match closed at."""
        if status not in ("finished", "aborted"):
            raise ClientError(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"a match closes as finished or aborted, not {status!r}",
                common_pb2.ERROR_REASON_MALFORMED,
            )
        if status == "finished" and not outcome:
            raise ClientError(
                grpc.StatusCode.INVALID_ARGUMENT, "a finished match needs an outcome", common_pb2.ERROR_REASON_MALFORMED
            )
        for _ in range(2):
            held = await self.held(match_id, fresh=True)
            if held.live.facts.status != "open":
                live = await self._close(match_id, status, outcome, lambda v: f"close:{status}:{v}", expected_version)
                log.info("match closed by its owner", match_id=match_id, status=status, version=live.version)
                return int(live.version)
            request = ppb.CloseMatchRequest(
                match_id=match_id, status=status, outcome_json=dumps(outcome) if outcome else ""
            )
            if expected_version is not None:
                request.expected_version = expected_version
            try:
                closed = await self._call("CloseMatch", request)
            except ClientError as exc:
                if exc.code != grpc.StatusCode.FAILED_PRECONDITION:
                    raise
                continue  # started meanwhile (or closed): judge again on what the store and the log say now
            return int(closed.match.version)
        raise ClientError(
            grpc.StatusCode.ABORTED, f"match {match_id} kept changing; retry", common_pb2.ERROR_REASON_VERSION_CONFLICT
        )

    async def _close(
        self,
        match_id: str,
        status: str,
        outcome: dict[str, Any] | None,
        key: Callable[[int], str],
        version: int | None,
        seat: int | None = None,
    ) -> LiveMatch:
        """Append the match's close entry (request id `key(the version it closes at)`; `seat`: whose forfeit, which
        the projection records as that seat's account's leave), guarded by `version` when given; a move that lands
        first makes it judge again on the newer copy."""
        for _ in range(MAX_ATTEMPTS):
            held = await self.held(match_id, fresh=True)
            async with held.lock:
                live = held.live
                if live.facts.status != "running":
                    raise MatchNotRunning.of(match_id, live.facts.status)
                if version is not None and version != live.version:
                    raise VersionConflict(match_id, version, live.version)
                entry = close_entry(live.facts, live.version, status, outcome, key(live.version), now_ms())
                if seat is not None:
                    entry.seat = seat
                try:
                    matchlog = await self._match_log()
                    held.seq = await matchlog.append(entry, held.seq)
                except LogConflict:
                    self.drop(match_id)
                    continue  # a move landed first: judge the close again
                except LogUnavailable as exc:
                    self.drop(match_id)
                    raise ClientError(grpc.StatusCode.UNAVAILABLE, str(exc)) from exc
                live.close(status, outcome)
                self.stepped(live)
                break
        else:
            raise ClientError(
                grpc.StatusCode.ABORTED,
                f"match {match_id} kept changing; retry",
                common_pb2.ERROR_REASON_VERSION_CONFLICT,
            )
        await self._push(live, None)
        return live

    async def leave(
        self, match_id: str, caller: Caller, why: str, request_id: str = ""
    ) -> live_pb2.LeaveMatchResponse:
        """The caller leaves the match, decided here in one call (issue 37: the gateway looped up to 8 times over
        three calls): an open match's seat is freed, a running match's seat forfeits, and a join that filled the
        match meanwhile turns the release into a forfeit.

        With `request_id`, a retry returns the match without leaving again, also after a lost reply or a restart of
        this replica: the first try is recorded in the store, with the seat's release in its transaction, or as
        the projection of the forfeit's log entry (request id `leave:<request_id>`, with the seat), which this
        waits for briefly when the match shows the caller's seat resigned but the record is not there yet."""
        if request_id:
            replayed = await self._prior_leave(match_id, caller, request_id, wait=False)
            if replayed is not None:
                return replayed
        for _ in range(MAX_ATTEMPTS):
            held = await self.held(match_id, fresh=True)
            facts = held.live.facts
            seat = require_seat(facts, caller, None)
            if facts.status == "open":
                release = ppb.ReleaseSeatRequest(
                    match_id=match_id, seat=seat, account_id=caller.account_id, request_id=request_id
                )
                try:
                    await self._call("ReleaseSeat", release)
                except ClientError as exc:
                    if exc.code != grpc.StatusCode.FAILED_PRECONDITION:
                        raise
                    self.drop(match_id)
                    continue  # the last seat was taken meanwhile and the match started: forfeit instead
                return live_pb2.LeaveMatchResponse(match=await self._record_now(match_id))
            if facts.status == "running":
                key = f"{LEAVE_KEY_PREFIX}{request_id}" if request_id else None
                try:
                    await self.forfeit(match_id, seat, why, key=key)
                except MatchNotRunning:
                    continue  # closed meanwhile (perhaps by this very leave's first try): judge again
                return live_pb2.LeaveMatchResponse(match=await self._record_now(match_id))
            if request_id and (facts.outcome or {}).get("reason") == f"forfeit: seat {seat} {why}":
                replayed = await self._prior_leave(match_id, caller, request_id, wait=True)
                if replayed is not None:
                    return replayed
            raise MatchNotRunning.of(match_id, facts.status)
        raise ClientError(
            grpc.StatusCode.ABORTED, f"match {match_id} kept changing; retry", common_pb2.ERROR_REASON_VERSION_CONFLICT
        )

    async def _prior_leave(
        self, match_id: str, caller: Caller, request_id: str, *, wait: bool
    ) -> live_pb2.LeaveMatchResponse | None:
        """The answer to a retried leave from the store's record of its first try (None: no such try). `wait`: the
        record may be a forfeit the projection writes milliseconds behind the log, so look a few times."""
        lookup = ppb.GetLifecycleRequestRequest(account_id=caller.account_id, kind="leave", request_id=request_id)
        for pause in (0.0, *PROJECTION_WAIT) if wait else (0.0,):
            await asyncio.sleep(pause)
            prior = await self._call("GetLifecycleRequest", lookup)
            if prior.found:
                if prior.match_id != match_id:
                    raise ClientError(
                        grpc.StatusCode.ALREADY_EXISTS,
                        f"request_id {request_id[:64]!r} was used to leave another match",
                        common_pb2.ERROR_REASON_ALREADY_EXISTS,
                    )
                return live_pb2.LeaveMatchResponse(match=await self._record_now(match_id), replayed=True)
        return None

    async def _record_now(self, match_id: str) -> ppb.MatchRecord:
        """The stored record with the head this owner holds when it is newer (the projection runs behind the log)."""
        record: ppb.MatchRecord = (await self._call("GetMatch", ppb.GetMatchRequest(match_id=match_id))).match
        held = self._held.get(match_id)
        if held is not None and held.live.version >= record.version:
            facts = held.live.facts
            record.version, record.status = held.live.version, facts.status
            record.outcome_json = dumps(dict(facts.outcome)) if facts.outcome else record.outcome_json
            record.clock_state_json = dumps(dict(facts.clock_state)) if facts.clock_state else record.clock_state_json
        return record


def _advanced(facts: MatchFacts, entry: Any) -> MatchFacts:
    """The facts after a log entry the projection does not hold yet (status, clock, outcome)."""
    changes: dict[str, Any] = {"status": entry.status or facts.status}
    if entry.clock_state_json:
        changes["clock_state"] = json.loads(entry.clock_state_json)
    if entry.outcome_json:
        changes["outcome"] = json.loads(entry.outcome_json)
    return replace(facts, **changes)


def _submitted(
    step: Step | Remembered, to_act: Sequence[int] = (), *, replayed: bool = False
) -> match_pb2.SubmitActionResponse:
    """A move's answer: for a new step, with the seats to act after it; for a retry of a remembered one, without."""
    response = match_pb2.SubmitActionResponse(
        version=step.version,
        action=common_pb2.LegalAction(id=step.action_id, label=step.label, action_json=dumps(dict(step.action_json))),
        to_act=list(to_act),
        replayed=replayed,
    )
    if step.outcome is not None:
        response.outcome.CopyFrom(outcome_to_proto(step.outcome))
    return response
