"""Drive every public RPC with drawn messages against a running platform and judge each answer (issue 20).

`public_rpcs` walks the service descriptors of the public API package, so an RPC added to the protos is
fuzzed without anyone listing it. `Fuzzer.exercise` sends one request as each role (anonymous, a player,
the operator) with a deadline: unary calls wait for their answer, server streams are read for a short
window and cancelled; a bidirectional stream (PlaySeat) gets the drawn message as its only message, then is
read like a server stream. An answer is a finding when its status is INTERNAL, UNKNOWN or DATA_LOSS, when a
unary call runs into its deadline (a hang), or when its error metadata echoes a large part of the input.
With a `StoreWatch`, every refused call (any status but OK) must leave the store as it was: see there.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import pkgutil
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from hashlib import blake2b
from types import ModuleType

import grpc
from google.protobuf import message_factory
from google.protobuf.descriptor import MethodDescriptor, ServiceDescriptor
from google.protobuf.message import Message

from gamehall.testing.fuzz import short_repr

FORBIDDEN = frozenset({grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DATA_LOSS})
"""Statuses a client must never get, whatever it sends: each is a server bug (a crash, an unhandled case)."""
MAX_ERROR_BYTES = 4096
"""Details plus trailers of an error: above this, the server echoed a large part of the input."""


@dataclass(frozen=True)
class Rpc:
    """One public method, with everything needed to call it without generated stubs."""

    service: ServiceDescriptor
    method: MethodDescriptor

    @property
    def name(self) -> str:
        return str(self.method.name)

    @property
    def path(self) -> str:
        return f"/{self.service.full_name}/{self.method.name}"

    @property
    def streaming(self) -> bool:
        return bool(self.method.server_streaming)

    @property
    def client_streaming(self) -> bool:
        """A client stream (PlaySeat): the drawn message is sent as the stream's only message."""
        return bool(self.method.client_streaming)

    def request_class(self) -> type[Message]:
        return message_factory.GetMessageClass(self.method.input_type)  # type: ignore[no-any-return]

    def response_class(self) -> type[Message]:
        return message_factory.GetMessageClass(self.method.output_type)  # type: ignore[no-any-return]


def public_rpcs(package: ModuleType) -> list[Rpc]:
    """Every method of every service declared in the `*_pb2` modules of `package` (e.g. gamehall_sdk.v1)."""
    rpcs = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if not info.name.endswith("_pb2"):
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for service in module.DESCRIPTOR.services_by_name.values():
            for method in service.methods:
                if method.client_streaming and not method.server_streaming:
                    raise NotImplementedError(f"{service.full_name}.{method.name}: client-only streams are not fuzzed")
                rpcs.append(Rpc(service, method))
    return rpcs


@dataclass(frozen=True)
class Answer:
    code: grpc.StatusCode
    details: str
    elapsed: float
    error_bytes: int
    received: int
    """Responses read (1 for a unary success, the messages seen in a stream's window)."""


def invoke(
    channel: grpc.Channel,
    rpc: Rpc,
    request: Message,
    metadata: Sequence[tuple[str, str]],
    deadline: float,
    stream_window: float,
) -> Answer:
    """Call `rpc` once. A server stream is read for `stream_window` seconds, then cancelled by the client
    (that cancellation is reported as OK: the stream was let through and behaved)."""
    serialize, deserialize = type(request).SerializeToString, rpc.response_class().FromString
    started = time.monotonic()
    received = 0
    try:
        if not rpc.streaming:
            unary = channel.unary_unary(rpc.path, request_serializer=serialize, response_deserializer=deserialize)
            unary(request, metadata=tuple(metadata), timeout=deadline)
            received = 1
        else:
            if rpc.client_streaming:  # the drawn message as the whole client side of the stream
                both = channel.stream_stream(rpc.path, request_serializer=serialize, response_deserializer=deserialize)
                call = both(iter([request]), metadata=tuple(metadata), timeout=deadline)
            else:
                stream = channel.unary_stream(rpc.path, request_serializer=serialize, response_deserializer=deserialize)
                call = stream(request, metadata=tuple(metadata), timeout=deadline)
            timer = threading.Timer(stream_window, call.cancel)
            timer.start()
            try:
                for _ in call:
                    received += 1
            finally:
                timer.cancel()
        return Answer(grpc.StatusCode.OK, "", time.monotonic() - started, 0, received)
    except grpc.RpcError as exc:
        code, details = exc.code(), exc.details() or ""
        elapsed = time.monotonic() - started
        if rpc.streaming and code == grpc.StatusCode.CANCELLED and elapsed >= stream_window:
            code = grpc.StatusCode.OK  # our own cancel at the end of the window
        trailers = exc.trailing_metadata() or ()
        size = len(details.encode()) + sum(len(k) + len(v) for k, v in trailers)
        return Answer(code, details, elapsed, size, received)


def problems(rpc: Rpc, answer: Answer, deadline: float) -> list[str]:
    """What is wrong with one answer ([] when nothing is)."""
    found = []
    if answer.code in FORBIDDEN:
        found.append(f"{answer.code.name}: {answer.details[:300]!r}")
    if answer.code == grpc.StatusCode.DEADLINE_EXCEEDED and answer.elapsed >= deadline * 0.95:
        found.append(f"no answer within the {deadline:.0f} s deadline (a hang)")
    if answer.error_bytes > MAX_ERROR_BYTES:
        found.append(f"{answer.error_bytes} bytes of error details and trailers (the input echoed back?)")
    return found


# --------------------------------------------------------------------------------------------- the store


@dataclass
class Snapshot:
    """Row digests keyed by (table, primary key), each with its owners (match and tournament ids), and
    the owners that change by themselves (see `StoreWatch`)."""

    rows: dict[tuple[str, str], tuple[bytes, tuple[str, ...]]]
    automated: frozenset[str]
    version: int
    parent: dict[str, str] = field(default_factory=dict)
    """match id -> the tournament or ticket that made it; match request -> its ticket (rows of a match
    belong to its maker too)."""


class StoreWatch:
    """Row digests of the SQLite store's tables that public calls can change, to check that a refused call
    changed nothing.

    Left out, each for its reason: `audit_events` (the audit trail records operator calls, refused ones
    too, by design), `outbox` (the transport of events written with the change they announce, which then
    shows in the other tables; its publication marks are set in the background), `mm_ratings` and
    `mm_rated_matches` (written only by the rating consumer after a match ends, which shows in `matches`),
    `archived_matches` (retention, a background task) and `schema_migrations`.
    Rows that change by themselves are not compared: those of running matches with a clock or a bot seat
    (timeouts and bot moves), of running tournaments (their driver) and of queued tickets (pairing, as
    skill windows widen), with the matches they make (any match opened by the matchmaking service's
    account), as of the snapshot before the call. The platform
    under test should not fill queues with bots (bot fill after a long wait only).
    """

    EXCLUDED = frozenset(
        {"audit_events", "outbox", "mm_ratings", "mm_rated_matches", "archived_matches", "schema_migrations"}
    )
    _OWNER_COLUMNS = ("match_id", "tournament_id", "ticket_id", "request_id", "match_request")
    _OWN_ID = ("matches", "mm_tournaments", "mm_tickets")
    _MATCH_STATE = {"matches": "id", "seats": "match_id", "action_log": "match_id", "snapshots": "match_id"}
    """Tables of match state, and the column naming the match."""
    BACKGROUND_ACCOUNT = "matchmaking-service"
    """The account that opens the matches of pairings and tournament rounds (work done in the background)."""
    """Tables whose `id` is an owner (a match, a tournament, a ticket)."""

    def __init__(self, path: str, nats_url: str = "") -> None:
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA query_only = 1")
        self.nats_url = nats_url
        self._last: Snapshot | None = None
        self._tables = self._layout()

    def _layout(self) -> dict[str, tuple[list[str], list[str], list[str]]]:
        """table -> (columns, primary key columns, owner columns)."""
        names = [r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        layout = {}
        for table in sorted(set(names) - self.EXCLUDED):
            if table.startswith("sqlite_"):
                continue
            info = self.db.execute(f'PRAGMA table_info("{table}")').fetchall()
            columns = [r[1] for r in info]
            keys = [r[1] for r in sorted(info, key=lambda r: r[5]) if r[5] > 0] or ["rowid"]
            owners = [c for c in self._OWNER_COLUMNS if c in columns]
            if table in self._OWN_ID:
                owners = ["id", *owners]
            layout[table] = (columns, keys, owners)
        return layout

    def _version(self) -> int:
        return int(self.db.execute("PRAGMA data_version").fetchone()[0])

    def snapshot(self) -> Snapshot:
        """The store now (the last snapshot again when no other connection has committed since)."""
        version = self._version()
        if self._last is not None and self._last.version == version:
            return self._last
        rows: dict[tuple[str, str], tuple[bytes, tuple[str, ...]]] = {}
        self.db.execute("BEGIN")
        try:
            parent = {
                str(m): str(t)
                for m, t in self.db.execute(
                    "SELECT id, tournament_id FROM matches WHERE tournament_id IS NOT NULL "
                    "UNION SELECT match_id, tournament_id FROM mm_tournament_matches "
                    "UNION SELECT match_id, id FROM mm_tickets WHERE match_id IS NOT NULL "
                    "UNION SELECT match_request, id FROM mm_tickets WHERE match_request IS NOT NULL "
                    "UNION SELECT matches.id, created_by FROM matches JOIN accounts ON accounts.id = created_by "
                    f"WHERE accounts.username = '{self.BACKGROUND_ACCOUNT}'"
                )
            }
            automated = {
                str(r[0])
                for r in self.db.execute(
                    "SELECT id FROM matches WHERE status = 'running' AND (next_deadline_ms IS NOT NULL "
                    "OR EXISTS (SELECT 1 FROM seats WHERE seats.match_id = matches.id AND kind = 'bot')) "
                    "UNION SELECT id FROM mm_tournaments WHERE status = 'running' "
                    "UNION SELECT id FROM mm_tickets WHERE state IN ('queued', 'matching') "
                    f"UNION SELECT id FROM accounts WHERE username = '{self.BACKGROUND_ACCOUNT}'"
                )
            }
            # The state of automated matches (bot play, tournament rounds) is never compared: not read at all,
            # so a snapshot's cost does not grow with the matches bots play in the background.
            skipped = json.dumps(sorted(automated | {m for m, p in parent.items() if p in automated}))
            for table, (columns, keys, owners) in self._tables.items():
                select = ", ".join(f'"{c}"' for c in [*keys, *owners, *columns])
                where, args = "", []
                if table in self._MATCH_STATE:
                    where = f' WHERE "{self._MATCH_STATE[table]}" NOT IN (SELECT value FROM json_each(?))'
                    args = [skipped]
                for row in self.db.execute(f'SELECT {select} FROM "{table}"{where}', args):
                    key = repr(row[: len(keys)])
                    owned = tuple(str(v) for v in row[len(keys) : len(keys) + len(owners)] if v)
                    rows[(table, key)] = (blake2b(repr(row).encode(), digest_size=16).digest(), owned)
        finally:
            self.db.execute("COMMIT")
        self._last = Snapshot(rows, frozenset(automated), version, parent)
        return self._last

    @staticmethod
    def changes(before: Snapshot, after: Snapshot) -> list[str]:
        """Rows added, removed or changed from `before` to `after`, but those of automated owners."""
        changed = []
        for key in before.rows.keys() | after.rows.keys():
            old, new = before.rows.get(key), after.rows.get(key)
            if old == new:
                continue
            owners = set((old or new or (b"", ()))[1]) | set((new or old or (b"", ()))[1])
            owners |= {p[o] for o in list(owners) for p in (before.parent, after.parent) if o in p}
            if owners & before.automated:
                continue
            what = "added" if old is None else "removed" if new is None else "changed"
            changed.append(f"{key[0]} {key[1][:80]} {what}")
        return sorted(changed)

    def settled(self, quiet: float = 0.1, limit: float = 3.0) -> Snapshot:
        """The store once its asynchronous work is done: the match log projected, then two snapshots
        `quiet` seconds apart without a change (at most `limit` seconds)."""
        if self.nats_url:
            from gamehall.runtime.matchlog import wait_projected_at

            asyncio.run(wait_projected_at(self.nats_url, timeout=limit))
        end = time.monotonic() + limit
        last = self.snapshot()
        while time.monotonic() < end:
            time.sleep(quiet)
            now = self.snapshot()
            if not self.changes(last, now):
                return now
            last = now
        return last

    def close(self) -> None:
        self.db.close()


# --------------------------------------------------------------------------------------------- the driver


SESSION_ENDING = frozenset({"Logout"})
"""RPCs whose success ends the caller's session (the token is revoked): sent only as the anonymous caller, or the
session's later calls would all be UNAUTHENTICATED (their request is empty: there is nothing to draw)."""


@dataclass
class Fuzzer:
    """Calls, verdicts and counts of one fuzzing session."""

    channel: grpc.Channel
    roles: Mapping[str, Sequence[tuple[str, str]]]
    """Role name -> call metadata (empty for the anonymous caller)."""
    store: StoreWatch | None = None
    deadline: float = 15.0
    stream_window: float = 0.3
    calls: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(rpc, status) -> how many calls answered it."""
    store_findings: list[str] = field(default_factory=list)
    _before: Snapshot | None = None
    _previous: str = ""

    def exercise(self, rpc: Rpc, request: Message) -> None:
        """Send `request` as every role; raise AssertionError naming the call for any problem with an answer.
        Store changes by refused calls are collected in `store_findings` (reported by the caller)."""
        for role, metadata in self.roles.items():
            if rpc.name in SESSION_ENDING and metadata:
                continue
            if self.store is not None and self._before is None:
                self._before = self.store.settled()
            answer = invoke(self.channel, rpc, request, metadata, self.deadline, self.stream_window)
            self.calls[(rpc.name, answer.code.name)] += 1
            label = f"{rpc.name} as {role}: {short_repr(request)}"
            if self.store is not None:
                self._check_store(answer, label)
            found = problems(rpc, answer, self.deadline)
            assert not found, f"{label}\n  -> " + "; ".join(found)

    def _check_store(self, answer: Answer, label: str) -> None:
        assert self.store is not None and self._before is not None
        if answer.code == grpc.StatusCode.OK:
            self._before = self.store.settled()  # the call's own changes (and what they set off) are done
        else:
            after = self.store.snapshot()
            changed = self.store.changes(self._before, after)
            if changed:  # once settled, the automated work that shows up late is told apart (a new match's maker)
                after = self.store.settled()
                changed = self.store.changes(self._before, after)
            if changed:
                self.store_findings.append(
                    f"refused with {answer.code.name} ({answer.details[:120]!r}) yet the store changed: {label}"
                    f"\n    (the call before: {self._previous or 'none'})\n    " + "\n    ".join(changed[:12])
                )
            self._before = after
        self._previous = label[:300]

    def total(self) -> int:
        return sum(self.calls.values())

    def table(self) -> str:
        """Calls per RPC and status, for the test's report."""
        per: dict[str, Counter[str]] = {}
        for (rpc, code), n in self.calls.items():
            per.setdefault(rpc, Counter())[code] += n
        return "\n".join(
            f"  {rpc:<20} " + ", ".join(f"{code} {n}" for code, n in codes.most_common())
            for rpc, codes in sorted(per.items())
        )
