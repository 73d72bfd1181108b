"""Tournaments: operator and player operations, and the driver that turns rounds into matches.

The tournament state is the library's `Tournament` (a pure state machine) inside a stored
document; every change is one compare-and-swap write of that document, followed by an event on
`gamehall.v1.tournament.<id>.<kind>` (dedupe id `<id>:<revision>:<kind>`). The driver, run by
every replica, is idempotent step by step: it creates the current round's matches through the
gateway (the request id is the pairing, so a crash never makes a second match), records results
from finished matches, forfeits no-shows, and pairs the next round once the current one is done.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
import structlog

from gamehall.engine import get_game
from gamehall.events.v1 import matchmaking_pb2 as epb
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.runtime import metrics
from gamehall.runtime.bus import SUBJECT_ROOT, Bus
from gamehall.tournaments import (
    InvalidConfig,
    Pairing,
    TimeControl,
    TournamentConfig,
    TournamentError,
    current_pairings,
    machine,
)
from gamehall.tournaments.machine import ELIMINATION
from gamehall.v1 import gateway_pb2
from gamehall_services.matchmaking.caller import not_found
from gamehall_services.matchmaking.creator import MatchCreator
from gamehall_services.matchmaking.documents import MatchLink, PairingMatch, TournamentDoc
from gamehall_services.matchmaking.kv import Documents, Unchanged

log = structlog.get_logger("gamehall.matchmaking.tournaments")

BOT_LEVELS = ("random", "easy", "normal", "hard", "expert")
CLOCK_FORFEIT = "ran out of time"
INDEX = "tournaments"
"""The index document listing every tournament id (KV key listing needs a consumer per call)."""
Change = Callable[[TournamentDoc], Any]


class Tournaments:
    """Every tournament, one stored document each, plus a match → pairing link per created match."""

    def __init__(
        self,
        docs: Documents[TournamentDoc],
        links: Documents[MatchLink],
        creator: MatchCreator,
        bus: Bus | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.docs = docs
        self.links = links
        self.index: Documents[list[str]] = Documents(docs.kv, "index", list[str])
        self.creator = creator
        self.bus = bus
        self.clock = clock

    # ----------------------------------------------------------------- reading
    async def get(self, tournament_id: str) -> tuple[TournamentDoc, int]:
        got = await self.docs.get(tournament_id) if tournament_id else None
        if got is None:
            raise not_found(f"no tournament {tournament_id!r}")
        return got

    async def ids(self) -> list[str]:
        got = await self.index.get(INDEX)
        return list(got[0]) if got is not None else []

    async def all(self) -> list[tuple[TournamentDoc, int]]:
        rows = []
        for name in await self.ids():
            got = await self.docs.get(name)
            if got is not None:
                rows.append(got)
        return sorted(rows, key=lambda row: -row[0].created_at)

    # ----------------------------------------------------------------- changing
    async def change(self, tournament_id: str, kind: str, apply: Change, **event: Any) -> tuple[TournamentDoc, int]:
        """Apply `apply(doc)` (which mutates the doc or raises) in one CAS, then publish `kind`."""

        def step(doc: TournamentDoc | None) -> tuple[TournamentDoc, None]:
            if doc is None:
                raise not_found(f"no tournament {tournament_id!r}")
            apply(doc)
            return doc, None

        doc, _, revision = await self.docs.mutate(tournament_id, step)
        await self._publish(doc, revision, kind, **event)
        return doc, revision

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
    ) -> tuple[TournamentDoc, int]:
        engine = get_game(game)
        mode = mode or engine.modes[0].id
        found = next((m for m in engine.modes if m.id == mode), None)
        if found is None:
            raise InvalidConfig(f"{game} has no mode {mode!r}")
        seats = seats or 2
        if seats not in found.seats:
            raise InvalidConfig(f"mode {mode} plays {list(found.seats)} seats, not {seats}")
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
        if format not in ("swiss", "single-elimination", "double-elimination", "round-robin", "pods"):
            raise InvalidConfig(f"unknown format {format!r}")
        tournament = machine.create(f"tn-{uuid.uuid4().hex[:16]}", config)
        doc = TournamentDoc(tournament, name or tournament.id, created_by, self.clock(), no_show_s, clock)
        revision = await self.docs.put_new(tournament.id, doc)
        await self.index.mutate(INDEX, lambda ids: ([*(ids or []), tournament.id], None))
        await self._publish(doc, revision, "created")
        return doc, revision

    def add_bot(self, difficulty: str) -> Change:
        """A change registering a new bot entrant of `difficulty` (returns its id via the doc)."""
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
        """Record the result of a tournament match (idempotent); False when it is not one, or known."""
        got = await self.links.get(match.id)
        if got is None:
            return False
        link = got[0]
        try:
            await self.change(
                link.tournament_id,
                "result",
                lambda doc: _record(doc, link.pairing_id, match, ranks, reason),
                pairing_id=link.pairing_id,
                match_id=match.id,
            )
        except Unchanged:
            return False
        return True

    # ----------------------------------------------------------------- the driver
    async def run(self, interval: float = 0.5) -> None:
        while True:
            try:
                live = [doc for doc, _ in await self.all() if doc.tournament.status in ("running", "paused")]
                metrics.TOURNAMENTS_ACTIVE.set(len(live))
                for doc in live:
                    await self.drive(doc.tournament.id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("tournament driver round failed; retrying")
            await asyncio.sleep(interval)

    async def drive(self, tournament_id: str) -> None:
        """One idempotent step: next round if done, matches for new pairings, results, no-shows."""
        doc, _ = await self.get(tournament_id)
        t = doc.tournament
        if t.status != "running":
            return
        if machine.round_complete(t):
            try:
                doc, revision = await self.change(tournament_id, "round", _next_round)
            except (Unchanged, TournamentError):
                return
            if doc.tournament.status == "finished":
                await self._publish(doc, revision, "finished")
                log.info("tournament finished", tournament_id=tournament_id)
                return
            metrics.TOURNAMENT_ROUNDS.labels(doc.tournament.config.format).inc()
        for pairing in current_pairings(doc.tournament):
            made = doc.matches.get(pairing.id)
            if made is None:
                await self._start_pairing(doc, pairing)
            else:
                await self._check_pairing(doc, pairing, made)

    async def _start_pairing(self, doc: TournamentDoc, pairing: Pairing) -> None:
        t = doc.tournament
        seats = [
            gateway_pb2.SeatSpec(bot=doc.bots[p]) if p in doc.bots else gateway_pb2.SeatSpec(reserved_for=p)
            for p in pairing.players
        ]
        key = hashlib.sha256(f"{pairing.id}|{'|'.join(pairing.players)}".encode()).hexdigest()[:24]
        clock = gateway_pb2.ClockSpec(**doc.clock) if doc.clock else None
        created = await self.creator.create(t.config.game, t.config.mode, seats, f"tn-{key}", clock=clock)
        await self.links.kv.put(self.links.key(created.id), _encode_link(MatchLink(t.id, pairing.id)))

        def remember(d: TournamentDoc) -> None:
            if pairing.id in d.matches or not any(
                p.id == pairing.id and p.players == pairing.players for p in current_pairings(d.tournament)
            ):
                raise Unchanged()
            d.matches[pairing.id] = PairingMatch(created.id, self.clock())

        with contextlib.suppress(Unchanged):
            await self.change(t.id, "match-created", remember, pairing_id=pairing.id, match_id=created.id)

    async def _check_pairing(self, doc: TournamentDoc, pairing: Pairing, made: PairingMatch) -> None:
        """Safety net beside the finished-event consumer: results of closed matches, and no-shows."""
        match = await self.creator.record(made.match_id)
        if match.status == "finished" and match.outcome_json:
            outcome = json.loads(match.outcome_json)
            await self.on_match_closed(match, outcome.get("ranks", []), outcome.get("reason", ""))
            return
        late = self.clock() - made.created_at >= doc.no_show_s
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
                    lambda d: _forfeit(d, pairing.id, absent),
                    pairing_id=pairing.id,
                    match_id=match.id,
                )
            except Unchanged:
                return
            if match.status == "open":
                await self.creator.abort(match.id, "no-show")

    async def _publish(self, doc: TournamentDoc, revision: int, kind: str, **extra: Any) -> None:
        if self.bus is None:
            return
        t = doc.tournament
        event = epb.TournamentEvent(
            tournament_id=t.id, revision=revision, kind=kind, status=t.status, round=t.round, **extra
        )
        try:
            await self.bus.publish(
                f"{SUBJECT_ROOT}.tournament.{t.id}.{kind}", event.SerializeToString(), f"{t.id}:{revision}:{kind}"
            )
        except Exception as exc:  # the state is stored; the event is a notification
            log.warning("could not publish a tournament event", error=str(exc))


def _encode_link(link: MatchLink) -> bytes:
    return msgspec.msgpack.encode(link)


def _next_round(doc: TournamentDoc) -> None:
    if not machine.round_complete(doc.tournament) or doc.tournament.status != "running":
        raise Unchanged()
    doc.tournament = machine.next_round(doc.tournament)


def _pending(doc: TournamentDoc, pairing_id: str) -> Pairing:
    for pairing in current_pairings(doc.tournament):
        if pairing.id == pairing_id:
            return pairing
    raise Unchanged()  # already recorded, re-paired away or from an earlier round


def _record(doc: TournamentDoc, pairing_id: str, match: ppb.MatchRecord, ranks: Sequence[int], reason: str) -> None:
    pairing = _pending(doc, pairing_id)
    made = doc.matches.get(pairing_id)
    if made is None or made.match_id != match.id or doc.tournament.status != "running":
        raise Unchanged()  # paused: the safety net records it after resume
    players = pairing.players
    if reason.startswith("forfeit: seat ") and reason.endswith(CLOCK_FORFEIT):
        seat = int(reason.split()[2])
        doc.tournament = machine.record_forfeit(doc.tournament, pairing_id, [players[seat]], "clock")
        return
    checked = [int(r) for r in ranks]
    if doc.tournament.config.format in ELIMINATION and len(set(checked)) == 1:
        # A drawn knockout game: the better seed goes through (see the report's departures).
        seed = {e.player: e.seed for e in doc.tournament.entrants}
        checked = [1, 2] if seed.get(players[0], 0) <= seed.get(players[1], 0) else [2, 1]
    doc.tournament = machine.record_result(doc.tournament, pairing_id, checked)


def _forfeit(doc: TournamentDoc, pairing_id: str, absent: list[str]) -> None:
    _pending(doc, pairing_id)
    if doc.tournament.status != "running":
        raise Unchanged()
    doc.tournament = machine.record_forfeit(doc.tournament, pairing_id, absent, "no-show")
