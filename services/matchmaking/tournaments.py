"""Tournaments: operator and player operations, and the driver that turns rounds into matches.

The tournament state is the library's `Tournament` (a pure state machine) inside a document
stored in persistence; every change is one compare-and-swap on the document's revision, with its
event (`gamehall.v1.tournament.<id>.<kind>`, dedupe id `<id>:<revision>:<kind>`) written to the
outbox in the same transaction. Which match plays which pairing is a row per match, and the
outcomes of finished matches go to the tournament's inbox (once per match); the driver, run by
every replica, folds the inbox into the document in one update per step, so a tournament of
thousands of players is not rewritten once per match. Every step is idempotent: the gateway
request id of a pairing's match is derived from the pairing, so a crash never makes a second match.

The driver runs on events, not on a timer (issue 37): a committed change (through this replica's RPCs, or
heard from any replica as the tournament's outbox event on `gamehall.v1.tournament.<id>.<kind>`), a result
in the inbox (the finished-match consumer), and one `loop.call_at` timer per pairing match for its no-show
deadline. Each tournament is stepped by at most one task per replica at a time. A rare safety sweep
(`SAFETY_SWEEP_S`) covers what raises no event: a lost notification, a match aborted from outside.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import json
import math
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import structlog

from gamehall.engine import get_game
from gamehall.events.v1 import matchmaking_pb2 as epb
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches.clocks import ClockSpec
from gamehall.runtime import metrics
from gamehall.runtime.bus import SUBJECT_ROOT
from gamehall.tournaments import (
    InvalidConfig,
    Pairing,
    TimeControl,
    TournamentConfig,
    TournamentError,
    current_pairings,
    machine,
)
from gamehall.wire.public import clock_to_proto
from gamehall_sdk.v1 import match_pb2
from gamehall_services.matchmaking.caller import not_found
from gamehall_services.matchmaking.creator import MatchCreator
from gamehall_services.matchmaking.documents import TournamentDoc, decode_doc, encode_doc, link_key
from gamehall_services.matchmaking.store_client import InboxResult, MatchmakingStore, Stale, TournamentLink

log = structlog.get_logger("gamehall.matchmaking.tournaments")

BOT_LEVELS = ("random", "easy", "normal", "hard", "expert")
CLOCK_FORFEIT = "ran out of time"
LIVE = ("running", "paused")
CLOSED = ("finished", "cancelled")
_DRIVING: contextvars.ContextVar[bool] = contextvars.ContextVar("driving", default=False)
SAFETY_SWEEP_S = 300.0
"""How often each replica steps every running tournament as if it had missed every event, and looks at every
pending pairing's match record. The driver otherwise acts only on events; this pass is what keeps a tournament
from stalling for good when one goes missing: a core NATS notification lost, a replica that crashed between a
commit and its next step, a match aborted from outside (an aborted match announces nothing), or a finish whose
projection raced the link of its match (its event then names no tournament). Minutes, not a poll: listed in
docs/ARCHITECTURE.md, "Periodic loops that remain"."""
RETRY_S = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
"""Backoff before a failed step of a tournament is tried again (the store or the gateway away)."""
DEADLINE_SLACK_S = 0.05
"""A timer fires this much after its deadline, so the step it starts finds the deadline passed."""
MAX_ATTEMPTS = 32
CONCURRENCY = 16
"""Pairings of one tournament started (or checked) at once: a 4,096-player round is 2,048 matches."""
MAX_REMEMBERED = 50_000
Change = Callable[[TournamentDoc], Any]


class Unchanged(Exception):
    """Raised by a change to leave the tournament as it is (no write, no event)."""


def latest_links(links: Iterable[TournamentLink]) -> dict[str, str]:
    """Link key → the newest match created for it."""
    out: dict[str, str] = {}
    for link in sorted(links, key=lambda k: k.created_at):
        out[link.pairing_id] = link.match_id
    return out


def event_of(doc: TournamentDoc, revision: int, kind: str, **extra: Any) -> ppb.OutboxEntry:
    t = doc.tournament
    event = epb.TournamentEvent(
        tournament_id=t.id, revision=revision, kind=kind, status=t.status, round=t.round, **extra
    )
    return ppb.OutboxEntry(
        subject=f"{SUBJECT_ROOT}.tournament.{t.id}.{kind}",
        msg_id=f"{t.id}:{revision}:{kind}",
        payload=event.SerializeToString(),
    )


class Tournaments:
    """Every tournament, stored in persistence through the matchmaking store."""

    def __init__(self, store: MatchmakingStore, creator: MatchCreator, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.creator = creator
        self.clock = clock
        self._driving = False
        """True once `run` started: events then step tournaments in tasks of their own (tests step by hand)."""
        self._steps: dict[str, asyncio.Task[None]] = {}
        """Tournament id → the task stepping it on this replica (one at a time per tournament)."""
        self._again: set[str] = set()
        """Tournaments poked while their step ran: they are stepped once more."""
        self._sweeping: set[str] = set()
        """Tournaments whose next step looks at every pending match record (start, safety sweep, a retry)."""
        self._failures: dict[str, int] = {}
        self._retries: dict[str, asyncio.TimerHandle] = {}
        self._deadlines: dict[str, dict[str, float]] = {}
        """Tournament id → pending pairing match → its no-show deadline (`math.inf`: none left), as last seen."""
        self._timers: dict[str, asyncio.TimerHandle] = {}
        """Match id → the timer that steps its tournament at the match's no-show deadline."""
        self._revisions: dict[str, int] = {}
        """Tournament id → newest revision heard, so a change is acted on once (here, then its event echoed)."""
        self._listeners: dict[str, set[asyncio.Event]] = {}
        """Tournament id → the events of the `WatchStandings` streams open on it here."""
        self._live: set[str] = set()
        """Tournaments running or paused, as last heard (the `TOURNAMENTS_ACTIVE` gauge)."""
        self.steps_taken = 0
        """Steps of any tournament on this replica (for tests and logs)."""

    # ----------------------------------------------------------------- reading
    async def get(self, tournament_id: str) -> tuple[TournamentDoc, int]:
        if not tournament_id:
            raise not_found("no tournament ''")
        stored = await self.store.tournament(tournament_id)
        assert stored is not None
        return decode_doc(stored.doc), stored.revision

    async def get_if_newer(self, tournament_id: str, revision: int) -> tuple[TournamentDoc, int] | None:
        """The tournament if it changed since `revision` (a cheap poll for watch streams)."""
        stored = await self.store.tournament(tournament_id, newer_than=revision)
        return None if stored is None else (decode_doc(stored.doc), stored.revision)

    async def all(self, statuses: Sequence[str] = ()) -> list[tuple[TournamentDoc, int]]:
        return [(decode_doc(s.doc), s.revision) for s in await self.store.tournaments(statuses)]

    async def match_ids(self, tournament_id: str, round_no: int = 0) -> dict[str, str]:
        """Link key → match id of a round's pairings (every round when `round_no` is 0)."""
        return latest_links(await self.store.links(tournament_id, round_no))

    # ----------------------------------------------------------------- changing
    async def change(
        self,
        tournament_id: str,
        kind: str,
        apply: Change,
        *,
        folded: Callable[[], Sequence[str]] = tuple,
        **event: Any,
    ) -> tuple[TournamentDoc, int]:
        """Apply `apply(doc)` (which mutates the doc, or raises) as one compare-and-swap with its event,
        re-reading and re-applying when another replica wrote first."""
        for _ in range(MAX_ATTEMPTS):
            if not tournament_id:
                raise not_found("no tournament ''")
            stored = await self.store.tournament(tournament_id)
            assert stored is not None
            doc = decode_doc(stored.doc)
            apply(doc)
            revision = stored.revision + 1
            if doc.tournament.status == "finished" and stored.status != "finished":
                kind = "finished"  # whatever finished it (the last round, an operator), it is announced so
            try:
                await self.store.update_tournament(
                    tournament_id,
                    stored.revision,
                    encode_doc(doc),
                    doc.tournament.status,
                    folded=folded(),  # asked after `apply`: what this attempt consumed from the inbox
                    outbox=[event_of(doc, revision, kind, **event)],
                )
            except Stale:
                continue
            # the driver's own steps need no further step (it carries on), but standings watchers hear of them
            self.changed(tournament_id, revision, doc.tournament.status, step=not _DRIVING.get())
            return doc, revision
        raise Stale(f"tournament {tournament_id}: too many concurrent writers")

    async def create(
        self,
        *,
        name: str,
        game: str,
        mode: str,
        format: str,
        rounds: int,
        seats: int,
        opens: float,
        closes: float,
        max_players: int,
        check_in: bool,
        no_show_s: float,
        clock: dict[str, int],
        created_by: str,
        tournament_id: str = "",
        request_digest: str = "",
    ) -> tuple[TournamentDoc, int]:
        """A new tournament (`tournament_id`: derived from a request id, so that a retry finds it)."""
        engine = get_game(game)
        mode = mode or engine.modes[0].id
        found = next((m for m in engine.modes if m.id == mode), None)
        if found is None:
            raise InvalidConfig(f"{game} has no mode {mode!r}")
        seats = seats or 2
        if seats not in found.seats:
            raise InvalidConfig(f"mode {mode} plays {list(found.seats)} seats, not {seats}")
        if format not in ("swiss", "single-elimination", "double-elimination", "round-robin", "pods"):
            raise InvalidConfig(f"unknown format {format!r}")
        config = TournamentConfig(
            game=game,
            mode=mode,
            format=format,  # type: ignore[arg-type]
            registration_opens=opens,
            registration_closes=closes,
            rounds=rounds,
            seats=seats,
            max_players=max_players,
            check_in=check_in,
            time_control=TimeControl(clock.get("bank_ms", 0) // 1000, clock.get("increment_ms", 0) // 1000),
        )
        tournament = machine.create(tournament_id or f"tn-{uuid.uuid4().hex[:16]}", config)
        doc = TournamentDoc(tournament, name or tournament.id, created_by, self.clock(), no_show_s, clock)
        doc.request_digest = request_digest
        stored = await self.store.create_tournament(
            tournament_id=tournament.id,
            name=doc.name,
            game=game,
            mode=mode,
            format=format,
            status=tournament.status,
            doc=encode_doc(doc),
            created_by=created_by,
            outbox=[event_of(doc, 1, "created")],
        )
        self.changed(tournament.id, stored.revision, tournament.status, step=False)
        return doc, stored.revision

    def add_bot(self, difficulty: str) -> Change:
        """A change registering a new bot entrant of `difficulty` (its id is `bot-<difficulty>-<n>`)."""
        if difficulty not in BOT_LEVELS:
            raise InvalidConfig(f"bot difficulty must be one of {list(BOT_LEVELS)}")

        def apply(doc: TournamentDoc) -> None:
            doc.bot_count += 1
            player = f"bot-{difficulty}-{doc.bot_count}"
            doc.tournament = machine.register(doc.tournament, player, 0.0, self.clock())
            doc.tournament = machine.check_in(doc.tournament, player)  # a bot is always ready
            doc.bots[player] = difficulty

        return apply

    # ----------------------------------------------------------------- events
    def changed(self, tournament_id: str, revision: int = 0, status: str = "", *, step: bool = True) -> None:
        """A change of the tournament committed (here, or heard from any replica's outbox event): wake its
        standings watchers, and step it (`step`). A revision already heard is ignored (0: always acted on)."""
        if revision:
            if revision <= self._revisions.get(tournament_id, 0):
                return
            if len(self._revisions) > MAX_REMEMBERED:
                self._revisions.clear()
            self._revisions[tournament_id] = revision
        for listener in self._listeners.get(tournament_id, ()):
            listener.set()
        if status:
            self._count(tournament_id, status)
        if status in CLOSED:
            self._disarm(tournament_id)
            self._revisions.pop(tournament_id, None)
        elif step and status in ("", "running", "paused"):  # a pause disarms its timers; registration needs no step
            self.poke(tournament_id)

    def _count(self, tournament_id: str, status: str) -> None:
        """Keep the live-tournaments gauge from the statuses heard (every replica hears every change)."""
        if status in LIVE:
            self._live.add(tournament_id)
        else:
            self._live.discard(tournament_id)
        metrics.TOURNAMENTS_ACTIVE.set(len(self._live))

    @contextlib.contextmanager
    def listening(self, tournament_id: str) -> Iterator[asyncio.Event]:
        """An event set whenever the tournament changes, for as long as the block runs (a watch stream)."""
        event = asyncio.Event()
        self._listeners.setdefault(tournament_id, set()).add(event)
        try:
            yield event
        finally:
            listeners = self._listeners.get(tournament_id, set())
            listeners.discard(event)
            if not listeners:
                self._listeners.pop(tournament_id, None)

    # ----------------------------------------------------------------- results
    async def on_match_closed(self, match: ppb.MatchRecord, ranks: Sequence[int], reason: str) -> bool:
        """Put a tournament match's outcome in its inbox (idempotent) and step its tournament; False when it
        plays no pairing."""
        tournament_id = await self.store.record_result(match.id, ranks, reason)
        if tournament_id:
            self.poke(tournament_id)
        return bool(tournament_id)

    def result_recorded(self, tournament_id: str) -> None:
        """A result reached a tournament's inbox without passing through here (persistence records it with the
        match's finish, and its finished event names the tournament): step that tournament now."""
        self.poke(tournament_id)

    # ----------------------------------------------------------------- the driver
    def poke(self, tournament_id: str, *, sweep: bool = False) -> None:
        """Step the tournament soon: now if no step of it runs here, else once more after the running one.
        Does nothing before `run` (a test steps by hand with `drive`)."""
        if sweep:
            self._sweeping.add(tournament_id)
        if not self._driving:
            return
        if tournament_id in self._steps:
            self._again.add(tournament_id)
            return
        self._steps[tournament_id] = asyncio.get_running_loop().create_task(self._step_while_poked(tournament_id))

    async def _step_while_poked(self, tournament_id: str) -> None:
        _DRIVING.set(True)  # this task's context only: its own changes do not poke it again
        try:
            while True:
                self._again.discard(tournament_id)
                sweep = tournament_id in self._sweeping
                self._sweeping.discard(tournament_id)
                try:
                    await self.drive(tournament_id, sweep=sweep)
                    self._failures.pop(tournament_id, None)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    self._retry_later(tournament_id, sweep)
                if tournament_id not in self._again:
                    return
        finally:
            self._steps.pop(tournament_id, None)

    def _retry_later(self, tournament_id: str, sweep: bool) -> None:
        """Retry backoff: the failed step (idempotent) is tried again after a growing pause."""
        failures = self._failures[tournament_id] = self._failures.get(tournament_id, 0) + 1
        pause = RETRY_S[min(failures, len(RETRY_S)) - 1]
        log.exception("tournament step failed; retrying", tournament_id=tournament_id, pause=pause)
        if sweep:
            self._sweeping.add(tournament_id)
        if (old := self._retries.pop(tournament_id, None)) is not None:
            old.cancel()

        def retry() -> None:
            self._retries.pop(tournament_id, None)
            self.poke(tournament_id)

        self._retries[tournament_id] = asyncio.get_running_loop().call_later(pause, retry)

    async def run(self, sweep: float = SAFETY_SWEEP_S) -> None:
        """Drive the running tournaments on events. At start, one read of the running tournaments steps each
        (its pairings' no-show timers armed from their match records); then every `sweep` seconds the same
        again, the safety net of `SAFETY_SWEEP_S` (`math.inf`: never)."""
        self._driving = True
        try:
            while True:
                try:
                    live = await self.store.tournaments(LIVE, with_docs=False)
                    self._live = {stored.id for stored in live}
                    metrics.TOURNAMENTS_ACTIVE.set(len(live))
                    for stored in live:
                        if stored.status == "running":
                            self.poke(stored.id, sweep=True)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("reading the running tournaments failed; retrying")
                    await asyncio.sleep(RETRY_S[-1] if math.isinf(sweep) else min(sweep, RETRY_S[-1]))
                    continue
                if math.isinf(sweep):
                    await asyncio.Event().wait()  # no sweep: only events step tournaments from here on
                await asyncio.sleep(sweep)
        finally:
            self._driving = False
            self.close()

    def close(self) -> None:
        """Cancel every step, retry and deadline timer of this replica (the service stops)."""
        for task in self._steps.values():
            task.cancel()
        for handle in [*self._retries.values(), *self._timers.values()]:
            handle.cancel()
        self._retries.clear()
        self._timers.clear()
        self._deadlines.clear()

    def _arm(self, tournament_id: str, match_id: str, deadline: float) -> None:
        """One timer per pending match: at its no-show deadline the tournament is stepped (the step checks it)."""
        self._deadlines.setdefault(tournament_id, {})[match_id] = deadline
        if math.isinf(deadline) or match_id in self._timers or not self._driving:
            return
        loop = asyncio.get_running_loop()

        def due() -> None:
            self._timers.pop(match_id, None)
            self.poke(tournament_id)

        delay = max(0.0, deadline - self.clock()) + DEADLINE_SLACK_S
        self._timers[match_id] = loop.call_at(loop.time() + delay, due)

    def _disarm(self, tournament_id: str, keep: Iterable[str] = ()) -> None:
        """Forget the deadlines of the tournament's matches that no longer play a pending pairing."""
        kept = set(keep)
        deadlines = self._deadlines.get(tournament_id, {})
        for match_id in [m for m in deadlines if m not in kept]:
            del deadlines[match_id]
            if (handle := self._timers.pop(match_id, None)) is not None:
                handle.cancel()
        if not deadlines:
            self._deadlines.pop(tournament_id, None)

    async def drive(self, tournament_id: str, *, sweep: bool = False) -> None:
        """One idempotent step: fold results, next round if done, matches for new pairings, no-shows.

        A pairing's match record is read when this replica first sees the match (a match that finished before
        it was linked has its outcome recorded; its no-show deadline is armed), when its deadline has passed,
        and on a `sweep`; otherwise a step reads only the document, the inbox and the round's links."""
        self.steps_taken += 1
        doc, revision = await self.get(tournament_id)
        if doc.tournament.status != "running":
            self._disarm(tournament_id)
            return
        inbox = await self.store.unfolded(tournament_id)
        if inbox:
            doc, revision = await self._fold(doc, revision, inbox)
        if machine.round_complete(doc.tournament):
            try:
                doc, revision = await self.change(tournament_id, "round", _next_round)
            except (Unchanged, TournamentError):
                return
            if doc.tournament.status == "finished":
                log.info("tournament finished", tournament_id=tournament_id)
                self._disarm(tournament_id)
                return
            metrics.TOURNAMENT_ROUNDS.labels(doc.tournament.config.format).inc()
        t = doc.tournament
        made = await self.match_ids(t.id, t.round)
        pending = current_pairings(t)
        self._disarm(t.id, keep=[m for p in pending if (m := made.get(link_key(p))) is not None])
        known = self._deadlines.get(t.id, {})
        now = self.clock()
        gate = asyncio.Semaphore(CONCURRENCY)

        async def step(pairing: Pairing) -> None:
            async with gate:
                match_id = made.get(link_key(pairing))
                if match_id is None:
                    match_id = await self._start_pairing(doc, revision, pairing)
                    deadline = await self._check_pairing(doc, pairing, match_id)
                else:
                    seen = known.get(match_id)
                    deadline = seen if seen is not None else 0.0
                    if sweep or seen is None or deadline <= now:
                        deadline = await self._check_pairing(doc, pairing, match_id)
                self._arm(t.id, match_id, deadline)

        outcomes = await asyncio.gather(*(step(p) for p in pending), return_exceptions=True)
        failures = [o for o in outcomes if isinstance(o, BaseException)]
        if failures:  # the others went ahead; the next step retries these (every step is idempotent)
            raise failures[0]

    async def _fold(self, doc: TournamentDoc, revision: int, inbox: list[InboxResult]) -> tuple[TournamentDoc, int]:
        """Record every waiting result in one update; results of pairings that are settled or re-paired
        away are marked folded too. `made` is read for the round seen here: if the round moves on
        before the write, results of the new round are left in the inbox for the next step."""
        tournament_id = doc.tournament.id
        made_round = doc.tournament.round
        made = await self.match_ids(tournament_id, made_round)
        consumed: list[str] = []

        def fold(d: TournamentDoc) -> None:
            consumed[:] = _fold_results(d, inbox, made, made_round)
            if not consumed:
                raise Unchanged()

        with contextlib.suppress(Unchanged):
            doc, revision = await self.change(
                tournament_id,
                "result",
                fold,
                folded=lambda: list(consumed),
                match_id=inbox[-1].match_id,
            )
        return doc, revision

    async def _start_pairing(self, doc: TournamentDoc, revision: int, pairing: Pairing) -> str:
        t = doc.tournament
        seats = [
            match_pb2.SeatSpec(bot=doc.bots[p]) if p in doc.bots else match_pb2.SeatSpec(reserved_for=p)
            for p in pairing.players
        ]
        key = hashlib.sha256(f"{pairing.id}|{'|'.join(pairing.players)}".encode()).hexdigest()[:24]
        clock = clock_to_proto(ClockSpec.from_json(doc.clock)) if doc.clock else None
        created = await self.creator.create(t.config.game, t.config.mode, seats, f"tn-{key}", clock=clock)
        event = event_of(doc, revision, "match-created", pairing_id=pairing.id, match_id=created.id)
        event.msg_id = f"{t.id}:match-created:{created.id}"
        await self.store.link(t.id, pairing.round, link_key(pairing), created.id, [event])
        log.info("tournament match created", tournament_id=t.id, pairing_id=pairing.id, match_id=created.id)
        return str(created.id)

    async def _check_pairing(self, doc: TournamentDoc, pairing: Pairing, match_id: str) -> float:
        """Look at a pairing's match record: record an outcome the finished event could not carry to the inbox
        (the match finished before it was linked), forfeit no-shows (the match still open at its deadline, or
        aborted). Returns the match's no-show deadline, `math.inf` when none is left to watch for."""
        match = await self.creator.record(match_id)
        if match.status == "finished" and match.outcome_json:
            outcome = json.loads(match.outcome_json)
            await self.on_match_closed(match, outcome.get("ranks", []), outcome.get("reason", ""))
            return math.inf
        deadline = match.created_unix_ms / 1000 + doc.no_show_s
        if match.status == "open" and self.clock() < deadline:
            return deadline
        if match.status == "aborted" or match.status == "open":
            absent = [
                pairing.players[s.seat]
                for s in match.seats
                if s.kind not in ("human", "bot") and s.seat < len(pairing.players)
            ] or list(pairing.players)
            try:
                await self.change(
                    doc.tournament.id,
                    "no-show",
                    lambda d: _forfeit(d, pairing, absent),
                    pairing_id=pairing.id,
                    match_id=match.id,
                )
            except Unchanged:
                return math.inf
            self.poke(doc.tournament.id)  # the forfeit may complete the round: step once more
            if match.status == "open":
                await self.creator.abort(match.id, match.game, "no-show")
        return math.inf


def _next_round(doc: TournamentDoc) -> None:
    if not machine.round_complete(doc.tournament) or doc.tournament.status != "running":
        raise Unchanged()
    doc.tournament = machine.next_round(doc.tournament)


def _pending(doc: TournamentDoc, pairing_id: str) -> Pairing | None:
    """The current round's pairing still waiting for a result, if `pairing_id` names one."""
    return next((p for p in current_pairings(doc.tournament) if p.id == pairing_id), None)


def _fold_results(doc: TournamentDoc, inbox: Sequence[InboxResult], made: dict[str, str], made_round: int) -> list[str]:
    """Record the inbox's outcomes whose match still plays a pending pairing of the current round;
    returns the match ids consumed (recorded, or moot for good).

    `made` (link key → match id) was read for round `made_round`. Clock forfeits become
    forfeits; everything else is recorded as one batch of results (`knockout_ranks` settles a
    drawn knockout game).
    """
    t = doc.tournament
    if t.status != "running":
        raise Unchanged()  # paused: the results wait in the inbox until it resumes
    consumed: list[str] = []
    batch: list[tuple[str, list[int]]] = []
    for result in inbox:
        if result.round < t.round:
            consumed.append(result.match_id)  # its round is complete: settled by a forfeit or an operator
            continue
        if result.round > t.round or made_round != t.round:
            continue  # the round moved while we read: the next step looks again
        consumed.append(result.match_id)
        pairing = _pending(doc, result.pairing_id.rsplit("/", 1)[0])
        if pairing is None or made.get(link_key(pairing)) != result.match_id:
            continue  # recorded already, or re-paired away
        reason = result.reason
        if reason.startswith("forfeit: seat ") and reason.endswith(CLOCK_FORFEIT):
            seat = int(reason.split()[2])
            doc.tournament = machine.record_forfeit(doc.tournament, pairing.id, [pairing.players[seat]], "clock")
            continue
        batch.append((pairing.id, machine.knockout_ranks(doc.tournament, pairing, result.ranks)))
    if batch:
        try:
            doc.tournament = machine.record_results(doc.tournament, batch)
        except TournamentError:  # one bad outcome must not hold the others back
            for pairing_id, ranks in batch:
                try:
                    doc.tournament = machine.record_result(doc.tournament, pairing_id, ranks)
                except TournamentError as exc:
                    log.warning("tournament result refused", pairing_id=pairing_id, ranks=ranks, why=str(exc))
    return consumed


def _forfeit(doc: TournamentDoc, pairing: Pairing, absent: list[str]) -> None:
    current = _pending(doc, pairing.id)
    if current is None or current.players != pairing.players or doc.tournament.status != "running":
        raise Unchanged()
    doc.tournament = machine.record_forfeit(doc.tournament, pairing.id, absent, "no-show")
