"""In-memory ports for tests of the owner (`gamehall.matches.owner.MatchOwner`): a match log with the real
compare-and-swap, a store of match records a test scripts (subclass and override a method to make it stall,
refuse or change under a load), a publisher that records what it is given, and timers on a fake clock that a
test fires by hand. No network, no threads; each satisfies its port structurally (no `type: ignore`).

A store that runs the real projection over SQLite is `tests.support.owner_ports.ProjectedStore`.
"""

from __future__ import annotations

from collections.abc import Iterable

from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches.errors import AlreadyUsed, LogConflict, LogUnavailable, NoSuchMatch, StoreRefused
from gamehall.matches.live import LoggedAction
from gamehall.matches.ports import Fire, Loaded, Logged
from gamehall_sdk.v1 import match_pb2


class MemoryLog:
    """A match log in memory: one stream sequence for all matches, a compare-and-swap on each match's newest."""

    def __init__(self) -> None:
        self.logged: list[Logged] = []
        self.refuse: str = ""
        """When set, every append fails with `LogUnavailable(refuse)` (a log that refuses the entry)."""
        self.appends: list[int] = []
        """The expected sequence of every append tried, in order."""
        self.purged_to: dict[str, int] = {}

    def entries(self, match_id: str | None = None) -> list[LogEntry]:
        return [x.entry for x in self.logged if match_id is None or x.entry.match_id == match_id]

    async def last_seq(self, game: str, match_id: str) -> int:
        mine = [x.seq for x in self.logged if x.entry.match_id == match_id]
        return mine[-1] if mine else 0

    async def tail(self, game: str, match_id: str, after_seq: int) -> list[Logged]:
        return [x for x in self.logged if x.entry.match_id == match_id and x.seq > after_seq]

    async def append(self, entry: LogEntry, expected_seq: int) -> int:
        self.appends.append(expected_seq)
        if self.refuse:
            raise LogUnavailable(self.refuse)
        if await self.last_seq(entry.game, entry.match_id) != expected_seq:
            raise LogConflict(f"match {entry.match_id}: entry {expected_seq} already has a successor")
        seq = (self.logged[-1].seq if self.logged else 0) + 1
        self.logged.append(Logged(seq, entry))
        return seq

    def purge(self, match_id: str) -> None:
        """Drop every entry of the match (the projection has them)."""
        self.logged = [x for x in self.logged if x.entry.match_id != match_id]


class MemoryStore:
    """The store port over records a test puts in (`put`); each read is counted by name in `asked`.

    Lobby writes change the record in place: enough for tests of the owner's flow, not a model of persistence
    (which `ProjectedStore` runs for real)."""

    def __init__(self, *records: ppb.MatchRecord) -> None:
        self.records: dict[str, ppb.MatchRecord] = {}
        self.actions_of: dict[str, list[LoggedAction]] = {}
        self.lifecycle: dict[tuple[str, str, str], tuple[str, int]] = {}
        self.clocked_matches: list[tuple[str, int]] = []
        self.asked: list[str] = []
        self.closes: list[ppb.CloseMatchRequest] = []
        for record in records:
            self.put(record)

    def put(self, record: ppb.MatchRecord) -> None:
        self.records[record.id] = record

    def _record(self, match_id: str) -> ppb.MatchRecord:
        if match_id not in self.records:
            raise NoSuchMatch(f"no match {match_id}")
        found = ppb.MatchRecord()
        found.CopyFrom(self.records[match_id])
        return found

    async def load(self, match_id: str) -> Loaded:
        self.asked.append("load")
        return Loaded(record=self._record(match_id), actions=list(self.actions_of.get(match_id, [])))

    async def load_before(self, match_id: str, version: int) -> Loaded:
        self.asked.append("load_before")
        actions = [a for a in self.actions_of.get(match_id, []) if a.version <= version]
        return Loaded(record=self._record(match_id), actions=actions)

    async def prior_action(self, match_id: str, request_id: str, seat: int) -> LoggedAction | None:
        self.asked.append("prior_action")
        found = [a for a in self.actions_of.get(match_id, []) if (a.request_id, a.seat) == (request_id, seat)]
        return found[0] if found else None

    async def actions(self, match_id: str, first: int, last: int) -> list[LoggedAction]:
        self.asked.append("actions")
        return [a for a in self.actions_of.get(match_id, []) if first <= a.version <= last]

    async def record(self, match_id: str) -> ppb.MatchRecord:
        self.asked.append("record")
        return self._record(match_id)

    async def head(self, match_id: str) -> tuple[str, int]:
        self.asked.append("head")
        record = self._record(match_id)
        return record.status, int(record.version)

    async def lifecycle_request(self, account_id: str, kind: str, request_id: str) -> tuple[str, int] | None:
        self.asked.append("lifecycle_request")
        return self.lifecycle.get((account_id, kind, request_id))

    async def clocked(self, game: str, after: tuple[int, str], limit: int) -> list[tuple[str, int]]:
        self.asked.append("clocked")
        return [(m, at) for m, at in sorted(self.clocked_matches, key=lambda c: (c[1], c[0])) if (at, m) > after][
            :limit
        ]

    async def create(self, request: ppb.CreateMatchRequest) -> ppb.MatchRecord:
        if request.match_id in self.records:
            raise AlreadyUsed(f"match {request.match_id} exists")
        record = ppb.MatchRecord(
            id=request.match_id,
            game=request.game,
            status=request.status,
            seed=request.seed,
            config_json=request.config_json,
            seats=request.seats,
            created_by=request.created_by,
            clock_json=request.clock_json,
            clock_state_json=request.clock_state_json,
        )
        self.put(record)
        return self._record(record.id)

    async def claim_seat(self, request: ppb.ClaimSeatRequest) -> None:
        record = self.records[request.match_id]
        seat = record.seats[request.seat]
        if seat.kind not in ("open", "reserved") and seat.account_id != request.account_id:
            raise StoreRefused(f"seat {request.seat} is taken")
        seat.kind, seat.account_id = request.kind, request.account_id
        if request.request_id:
            self.lifecycle[(request.account_id, "join", request.request_id)] = (request.match_id, request.seat)
        if request.HasField("start_when_full") and all(s.kind in ("human", "bot") for s in record.seats):
            await self.start(request.start_when_full)

    async def release_seat(self, request: ppb.ReleaseSeatRequest) -> None:
        record = self.records[request.match_id]
        if record.status != "open":
            raise StoreRefused(f"match {request.match_id} is {record.status}")
        record.seats[request.seat].kind, record.seats[request.seat].account_id = "open", ""
        if request.request_id:
            self.lifecycle[(request.account_id, "leave", request.request_id)] = (request.match_id, request.seat)

    async def start(self, request: ppb.StartMatchRequest) -> ppb.MatchRecord:
        record = self.records[request.match_id]
        if record.status != "open":
            raise StoreRefused(f"match {request.match_id} is {record.status}")
        record.status, record.clock_state_json = "running", request.clock_state_json
        return self._record(request.match_id)

    async def close_open(self, request: ppb.CloseMatchRequest) -> ppb.MatchRecord:
        record = self.records[request.match_id]
        if record.status != "open":
            raise StoreRefused(f"match {request.match_id} is {record.status}: its owner closes it")
        self.closes.append(request)
        record.status, record.outcome_json = request.status, request.outcome_json
        return self._record(request.match_id)


class RecordingPublisher:
    """Records every view pushed; `watching` is what `audiences` answers (None: every audience)."""

    def __init__(self, watching: Iterable[int | None] | None = None) -> None:
        self.watching = list(watching) if watching is not None else None
        self.pushed: list[tuple[str, int | None, match_pb2.WatchMatchResponse]] = []

    def audiences(self, match_id: str) -> list[int | None] | None:
        return list(self.watching) if self.watching is not None else None

    async def view(self, match_id: str, seat: int | None, message: match_pb2.WatchMatchResponse) -> None:
        self.pushed.append((match_id, seat, message))


class FakeTimers:
    """Timers that never fire by themselves: a test reads the armed deadlines and fires them (`fire_due`)."""

    def __init__(self, fire: Fire) -> None:
        self._fire = fire
        self.at: dict[str, int] = {}

    def arm(self, match_id: str, at_ms: int) -> None:
        if at_ms <= 0:
            self.cancel(match_id)
        else:
            self.at[match_id] = at_ms

    def cancel(self, match_id: str) -> None:
        self.at.pop(match_id, None)

    def armed(self) -> list[str]:
        return list(self.at)

    def deadline(self, match_id: str) -> int:
        return self.at.get(match_id, 0)

    def __contains__(self, match_id: object) -> bool:
        return match_id in self.at

    def __len__(self) -> int:
        return len(self.at)

    def close(self) -> None:
        self.at.clear()

    async def fire_due(self, now_ms: int) -> list[str]:
        """Fire every timer due at `now_ms`, as the event loop would; each is armed again at its next deadline."""
        fired = []
        for match_id, at_ms in sorted(self.at.items(), key=lambda item: item[1]):
            if at_ms <= now_ms:
                fired.append(match_id)
                self.arm(match_id, await self._fire(match_id))
        return fired


class FakeClock:
    """Unix milliseconds that move only when a test says so."""

    def __init__(self, now_ms: int = 1_700_000_000_000) -> None:
        self.ms = now_ms

    def __call__(self) -> int:
        return self.ms

    def advance(self, ms: int) -> None:
        self.ms += ms


__all__ = ["FakeClock", "FakeTimers", "MemoryLog", "MemoryStore", "RecordingPublisher"]
