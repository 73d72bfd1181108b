"""Tournaments: operator and player operations, and the driver that turns rounds into matches.

The tournament state is the library's `Tournament` (a pure state machine) inside a document
stored in persistence; every change is one compare-and-swap on the document's revision, with its
event (`gamehall.v1.tournament.<id>.<kind>`, dedupe id `<id>:<revision>:<kind>`) written to the
outbox in the same transaction. Which match plays which pairing is a row per match, and the
outcomes of finished matches go to the tournament's inbox (once per match); the driver, run by
every replica, folds the inbox into the document in one update per step, so a tournament of
thousands of players is not rewritten once per match. Every step is idempotent: the gateway
request id of a pairing's match is derived from the pairing, so a crash never makes a second match.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import json
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
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
IDLE_SWEEP_SECONDS = 30.0
"""With no tournament running, how often the driver looks for one another replica started."""
_DRIVING: contextvars.ContextVar[bool] = contextvars.ContextVar("driving", default=False)
SAFETY_CHECK_S = 5.0
"""How often the driver looks at a pairing's match itself (beside the finished-event consumer)."""
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
        self._checked: dict[str, float] = {}
        """Match id → when this replica last looked at it (the safety net's pace)."""
        self.wake = asyncio.Event()
        """Set by a change through this replica or a result it recorded: the driver steps at once."""

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
            if not _DRIVING.get():  # the driver's own steps need no wake-up: it looks again anyway
                self.wake.set()
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

    # ----------------------------------------------------------------- results
    async def on_match_closed(self, match: ppb.MatchRecord, ranks: Sequence[int], reason: str) -> bool:
        """Put a tournament match's outcome in its inbox (idempotent); False when it plays no pairing."""
        recorded = await self.store.record_result(match.id, ranks, reason)
        if recorded:
            self.wake.set()
        return recorded

    def result_recorded(self) -> None:
        """A result reached a tournament's inbox without passing through here (persistence records it with the
        match's finish): step the driver now rather than at its next pass."""
        self.wake.set()

    # ----------------------------------------------------------------- the driver
    async def run(self, interval: float = 0.5, idle_sweep: float = IDLE_SWEEP_SECONDS) -> None:
        """Drive the running tournaments: at once after a change or a result through this replica, every
        `interval` while one runs (no-show deadlines, results recorded by other replicas), and with none
        running, once per `idle_sweep` (a tournament another replica started)."""
        _DRIVING.set(True)  # this task's context only: changes made through RPCs still wake it
        while True:
            running = True
            self.wake.clear()
            try:
                live = await self.store.tournaments(LIVE, with_docs=False)
                metrics.TOURNAMENTS_ACTIVE.set(len(live))
                running = any(stored.status == "running" for stored in live)
                for stored in live:
                    if stored.status == "running":
                        await self.drive(stored.id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("tournament driver round failed; retrying")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), interval if running else idle_sweep)

    async def drive(self, tournament_id: str) -> None:
        """One idempotent step: fold results, next round if done, matches for new pairings, no-shows."""
        doc, revision = await self.get(tournament_id)
        if doc.tournament.status != "running":
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
                return
            metrics.TOURNAMENT_ROUNDS.labels(doc.tournament.config.format).inc()
        t = doc.tournament
        made = await self.match_ids(t.id, t.round)
        gate = asyncio.Semaphore(CONCURRENCY)

        async def step(pairing: Pairing) -> None:
            async with gate:
                match_id = made.get(link_key(pairing))
                if match_id is None:
                    await self._start_pairing(doc, revision, pairing)
                else:
                    await self._check_pairing(doc, pairing, match_id)

        outcomes = await asyncio.gather(*(step(p) for p in current_pairings(t)), return_exceptions=True)
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

    async def _start_pairing(self, doc: TournamentDoc, revision: int, pairing: Pairing) -> None:
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

    async def _check_pairing(self, doc: TournamentDoc, pairing: Pairing, match_id: str) -> None:
        """Safety net beside the finished-event consumer: outcomes it could not link yet, and no-shows."""
        now = self.clock()
        if now - self._checked.get(match_id, 0.0) < SAFETY_CHECK_S:
            return
        if len(self._checked) > MAX_REMEMBERED:  # forget matches not looked at for a while (finished ones)
            self._checked = {m: at for m, at in self._checked.items() if now - at < 2 * SAFETY_CHECK_S}
        self._checked[match_id] = now
        match = await self.creator.record(match_id)
        if match.status == "finished" and match.outcome_json:
            outcome = json.loads(match.outcome_json)
            await self.on_match_closed(match, outcome.get("ranks", []), outcome.get("reason", ""))
            return
        late = now - match.created_unix_ms / 1000 >= doc.no_show_s
        if match.status == "aborted" or (match.status == "open" and late):
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
                return
            if match.status == "open":
                await self.creator.abort(match.id, match.game, "no-show")


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
