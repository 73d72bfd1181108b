"""One running match held in memory by the rules replica that owns it (ARCHITECTURE, "The move path").

`LiveMatch` is the engine state at a known log version plus the match's facts (seats, clock). A
move is judged and applied in memory (`play` returns a `Step` and changes nothing); the owner
appends the step to the log with a compare-and-swap on the version and only then `commit`s it, so
a lost race leaves this object as it was. Each step carries what every audience may see
(`views`): one view per seat and the spectators', with the events each may receive.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import msgspec

from gamehall.engine import Action, Event, Game, MatchConfig, Outcome
from gamehall.engine.lookup import action_from_json, legal_by_id
from gamehall.engine.protocol import action_id
from gamehall.matches import clocks
from gamehall.matches.clocks import ClockSpec
from gamehall.matches.errors import MatchNotRunning, VersionConflict

SNAPSHOT_EVERY = 32
"""A snapshot is stored every this many versions (and at the end), so a takeover replays at most that many."""

RECENT_REQUESTS = 256
"""Request ids remembered per match in memory; older ones are still caught by the log's unique key."""

RequestKey = tuple[int, str]
"""An idempotency key: (seat, request id). Each seat has its own request ids, so a player can neither squat on
an opponent's id (guessed or seen) nor be refused for picking the same one: only a retry by the same seat
returns the first answer (issue 20, finding 9)."""


@dataclass(frozen=True)
class SeatFacts:
    seat: int
    kind: str
    """`open`, `reserved`, `human` or `bot`."""
    account_id: str = ""
    bot_difficulty: str = ""


@dataclass(frozen=True)
class MatchFacts:
    """What the match domain needs of a stored match, besides its engine state."""

    id: str
    game: str
    status: str
    seed: int
    config: Mapping[str, Any]
    seats: tuple[SeatFacts, ...]
    public: bool = True
    created_by: str = ""
    clock: ClockSpec = field(default_factory=ClockSpec)
    clock_state: Mapping[str, Any] | None = None
    outcome: Mapping[str, Any] | None = None

    def bot_seats(self) -> dict[int, str]:
        return {s.seat: s.bot_difficulty or "normal" for s in self.seats if s.kind == "bot"}


@dataclass(frozen=True)
class LoggedAction:
    """One entry of the match log as the domain reads it back."""

    version: int
    seat: int
    action: Mapping[str, Any]
    """The action's JSON form `{"kind": ...}`."""
    request_id: str = ""
    action_id: str = ""
    label: str = ""


@dataclass(frozen=True)
class StepView:
    """What one audience sees after a step: `seat` None is the spectators."""

    seat: int | None
    view: Mapping[str, Any]
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Step:
    """A judged move, not yet in the log."""

    version: int
    seat: int
    request_id: str
    action: Action
    action_id: str
    label: str
    action_json: Mapping[str, Any]
    events: tuple[Event, ...]
    to_act: tuple[int, ...]
    outcome: Outcome | None
    clock_state: Mapping[str, Any]
    state: Any
    encoded: bytes
    events_json: bytes
    """The events as JSON, made while the move is judged: one that cannot be encoded fails before the log has it."""

    @property
    def digest(self) -> bytes:
        return hashlib.sha256(self.encoded).digest()

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    def logged(self) -> dict[str, Any]:
        """The log's form of the action: {"id", "label", "action"}."""
        return {"id": self.action_id, "label": self.label, "action": dict(self.action_json)}

    def wants_snapshot(self) -> bool:
        return self.finished or self.version % SNAPSHOT_EVERY == 0

    def deadlines(self, facts: MatchFacts) -> dict[int, int]:
        return {s: clocks.deadline_ms(facts.clock, dict(self.clock_state), s) for s in self.to_act}


_EVENTS = msgspec.json.Decoder(tuple[Event, ...])


class Remembered(NamedTuple):
    """A committed step as its match remembers it (`LiveMatch.recent`): what answers a retried request and serves
    a view at its version, held as texts, numbers and bytes (the state and events encoded) instead of the step's
    objects, so the cyclic collector has one object to walk per remembered step, not a state and its events.
    (Remembering whole steps, a rules replica of the bench held about 200 objects per 10-move match, and its full
    collections stalled every move for 0.3 to 0.4 s.)"""

    version: int
    seat: int
    request_id: str
    action_id: str
    label: str
    action_json: Mapping[str, Any]
    outcome: Outcome | None
    encoded: bytes
    """The state after the step (`Game.encode`)."""
    events_json: bytes
    """The step's events (audiences included), as JSON: a view reads them as a client would."""

    @classmethod
    def of(cls, step: Step) -> Remembered:
        return cls(
            step.version,
            step.seat,
            step.request_id,
            step.action_id,
            step.label,
            step.action_json,
            step.outcome,
            step.encoded,
            step.events_json,
        )

    def state(self, game: Game[Any]) -> Any:
        return game.decode(self.encoded)

    def events(self) -> tuple[Event, ...]:
        return _EVENTS.decode(self.events_json)

    def logged_action(self) -> LoggedAction:
        """The step as the log reads it back (`Step.logged` is its entry's JSON form)."""
        return LoggedAction(
            self.version, self.seat, dict(self.action_json), self.request_id, self.action_id, self.label
        )


@dataclass
class LiveMatch:
    game: Game[Any]
    facts: MatchFacts
    state: Any
    version: int
    recent: OrderedDict[RequestKey, Remembered] = field(default_factory=OrderedDict)
    logged_requests: set[RequestKey] = field(default_factory=set)
    """Every (seat, request id) in the match's log: idempotency beyond `recent`, for as long as the match lives."""

    # ----------------------------------------------------------------- building
    @classmethod
    def rebuild(
        cls,
        game: Game[Any],
        facts: MatchFacts,
        snapshot: bytes | None,
        snapshot_version: int,
        actions: Sequence[LoggedAction],
        logged_requests: Iterable[RequestKey] = (),
    ) -> LiveMatch:
        """The match at its newest logged version: the snapshot (or the seed's initial state) plus the tail.
        `logged_requests` are the (seat, request id) keys logged before the tail (the tail's own are added)."""
        if snapshot:
            state, version = game.decode(snapshot), snapshot_version
        else:
            config = game.validate_config(MatchConfig.from_json(facts.config))
            state, version = game.new_match(config, facts.seed), 0
        for entry in actions:
            if entry.version != version + 1:
                raise ValueError(f"match {facts.id}: log entry {entry.version} follows version {version}")
            state, _ = game.apply(state, entry.seat, action_from_json(game, entry.action))
            version = entry.version
        known = set(logged_requests)
        known.update((a.seat, a.request_id) for a in actions if a.request_id)
        return cls(game, facts, state, version, logged_requests=known)

    # ----------------------------------------------------------------- reading
    @property
    def to_act(self) -> list[int]:
        return [] if self.facts.status != "running" else sorted(self.game.to_act(self.state))

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    def legal(self, seat: int) -> list[Action]:
        if self.facts.status != "running":
            return []
        return list(self.game.legal_actions(self.state, seat))

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.game.view(self.state, seat)

    def describe(self, action: Action) -> tuple[str, str]:
        """(id, label) of an action in the current state."""
        return action_id(action), self.game.describe(self.state, action)

    # ----------------------------------------------------------------- playing
    def require_version(self, expected_version: int | None) -> None:
        """Refuse a move made against another version (or a match not running) before judging what it names: a
        client that moved on a stale version gets a conflict, not "no such action" from the newer state."""
        if self.facts.status != "running":
            raise MatchNotRunning.of(self.facts.id, self.facts.status)
        if expected_version is not None and expected_version != self.version:
            raise VersionConflict(self.facts.id, expected_version, self.version)

    def resolve(self, seat: int, *, action_id_: str = "", action_json: Mapping[str, Any] | None = None) -> Action:
        """The action a client named by legal-action id or by its JSON form (engine errors if neither fits)."""
        if action_id_:
            return legal_by_id(self.game, self.state, seat, action_id_)
        return action_from_json(self.game, action_json or {})

    def logged_before(self, request_id: str, seat: int) -> bool:
        """True when the seat's request id is in the log but its step is no longer remembered here (ask the log)."""
        key = (seat, request_id)
        return key in self.logged_requests and key not in self.recent

    def remembered(self, request_id: str, seat: int) -> Remembered | None:
        """The step an earlier try of this seat's request made, if this replica still remembers it (another
        seat's use of the same id is another request)."""
        return self.recent.get((seat, request_id))

    def play(
        self, seat: int, action: Action, request_id: str, now_ms: int, expected_version: int | None = None
    ) -> Step:
        """Judge and apply `action` for `seat` in memory; nothing changes until `commit`."""
        self.require_version(expected_version)
        next_state, events = self.game.apply(self.state, seat, action)
        to_act = tuple(sorted(self.game.to_act(next_state)))
        clock_state = clocks.advance(
            self.facts.clock, _mutable(self.facts.clock_state), len(self.facts.seats), seat, to_act, now_ms
        )
        the_id, label = self.describe(action)
        return Step(
            version=self.version + 1,
            seat=seat,
            request_id=request_id,
            action=action,
            action_id=the_id,
            label=label,
            action_json=self.game.action_to_json(action),
            events=tuple(events),
            to_act=to_act,
            outcome=self.game.outcome(next_state),
            clock_state=clock_state,
            state=next_state,
            encoded=self.game.encode(next_state),
            events_json=msgspec.json.encode(events),
        )

    def commit(self, step: Step) -> None:
        """The step is in the log: this object moves to it."""
        if step.version != self.version + 1:
            raise VersionConflict(self.facts.id, step.version - 1, self.version)
        self.state, self.version = step.state, step.version
        status = "finished" if step.finished else self.facts.status
        outcome = outcome_json(step.outcome) if step.outcome is not None else self.facts.outcome
        self.facts = replace(self.facts, status=status, clock_state=step.clock_state, outcome=outcome)
        self.recent[(step.seat, step.request_id)] = Remembered.of(step)
        self.logged_requests.add((step.seat, step.request_id))
        while len(self.recent) > RECENT_REQUESTS:
            self.recent.popitem(last=False)

    def close(self, status: str, outcome: Mapping[str, Any] | None) -> None:
        """The match ended outside the log (a forfeit, an abort)."""
        self.facts = replace(self.facts, status=status, outcome=outcome)

    def default_action(self, seat: int) -> Action | None:
        if self.facts.status != "running" or seat not in self.game.to_act(self.state):
            return None
        return self.game.default_action(self.state, seat)

    # ----------------------------------------------------------------- fan-out
    def views(self, step: Step | None = None, audiences: Iterable[int | None] | None = None) -> list[StepView]:
        """What each seat and the spectators (None) see at `step` (or now): the plan of one push per audience;
        `audiences` limits it to those (the ones someone watches)."""
        state = step.state if step is not None else self.state
        events = step.events if step is not None else ()
        if audiences is None:
            audiences = [*range(len(self.facts.seats)), None]
        return [
            StepView(seat, self.game.view(state, seat), tuple(e for e in events if e.visible_to(seat)))
            for seat in audiences
        ]


def forfeit_outcome(seats: int, forfeiting: int, why: str) -> dict[str, Any]:
    """Every other seat ranks first, the forfeiting seat last (rank 2)."""
    return {
        "ranks": [2 if s == forfeiting else 1 for s in range(seats)],
        "scores": None,
        "reason": f"forfeit: seat {forfeiting} {why}",
    }


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """An outcome as the log and the store keep it: {"ranks", "scores", "reason"}."""
    return {
        "ranks": list(outcome.ranks),
        "scores": list(outcome.scores) if outcome.scores else None,
        "reason": outcome.reason,
    }


def _mutable(state: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return dict(state) if state is not None else None


__all__ = [
    "RECENT_REQUESTS",
    "SNAPSHOT_EVERY",
    "LiveMatch",
    "LoggedAction",
    "MatchFacts",
    "Remembered",
    "SeatFacts",
    "Step",
    "StepView",
    "forfeit_outcome",
    "outcome_json",
]
