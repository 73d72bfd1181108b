"""The fuzzer's parts on their own: strategies drawn from descriptors reach both sides of every edge bound,
verdicts flag what must never happen, and the store watch sees a refused call's write but not the
background's (issue 20, fuzzing; the e2e run is tests/e2e/test_fuzz.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf.message import Message
from hypothesis import HealthCheck, Phase, given, seed, settings

import gamehall_sdk.v1
from gamehall.runtime.errors import ClientError
from gamehall.testing.fuzz import DEEP_JSON, Drawn, MessageStrategies, Seeds, short_repr
from gamehall.testing.fuzz_driver import Answer, StoreWatch, problems, public_rpcs
from gamehall_sdk.v1 import match_pb2, tournament_pb2
from gamehall_services.gateway.edge import BOUNDS, check_request

RPCS = public_rpcs(gamehall_sdk.v1)
STRATEGIES = MessageStrategies(BOUNDS, Seeds({"match_id": ["seeded-match-id"]}, ["max_rounds"]))
SEARCH = settings(
    max_examples=1000, database=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck), deadline=None
)
SEEDS = range(4)
"""Independent searches (fixed seeds) a boundary gets before a test says it is never drawn: one search once came
back empty in a full CI run though it finds the value on its own (Hypothesis can end a search early)."""


class _Found(Exception):
    def __init__(self, message: Message) -> None:
        self.message = message


def _find(request_type: type[Message], condition: Any) -> Message:
    """The first drawn message meeting `condition` (no shrinking: the first one found is enough)."""
    for number in SEEDS:

        @seed(number)
        @SEARCH
        @given(STRATEGIES.messages(request_type.DESCRIPTOR).map(Drawn))
        def look(drawn: Drawn) -> None:
            if condition(drawn.message):
                raise _Found(drawn.message)

        try:
            look()
        except _Found as found:
            return found.message
    raise AssertionError(f"no drawn {request_type.DESCRIPTOR.name} met the condition in {len(SEEDS)} searches")


def _refused(message: Message) -> bool:
    try:
        check_request("", message)
    except ClientError:
        return True
    return False


def test_public_rpcs_are_found_from_the_descriptors() -> None:
    names = {r.name for r in RPCS}
    assert {"CreateMatch", "WatchMatch", "AdjudicatePairing", "WhoAmI", "ListGames"} <= names
    assert {r.name for r in RPCS if r.streaming} == {"WatchMatch", "WatchTickets", "WatchStandings", "PlaySeat"}
    assert {r.name for r in RPCS if r.client_streaming} == {"PlaySeat"}
    assert all(r.path.startswith("/gamehall.v1.") for r in RPCS)


@pytest.mark.parametrize("rpc", [r for r in RPCS if r.method.input_type.fields], ids=lambda r: r.name)
def test_drawn_requests_fall_on_both_sides_of_the_edge(rpc: Any) -> None:
    """For every request type with fields, some drawn messages pass the gateway's bounds and some do not."""
    request_type = rpc.request_class()
    assert not _refused(_find(request_type, lambda m: m.ListFields() and not _refused(m)))
    assert _refused(_find(request_type, _refused))


def test_boundaries_are_drawn() -> None:
    deep = _find(match_pb2.SubmitActionRequest, lambda m: m.action_json.count("[") >= DEEP_JSON)
    assert deep.action_json.startswith("[" * DEEP_JSON)
    limit = BOUNDS["GetMatchRequest"]["match_id"].max_chars  # type: ignore[union-attr]
    over = _find(match_pb2.GetMatchRequest, lambda m: len(m.match_id) == limit + 1)
    assert _refused(over)
    assert _find(match_pb2.GetMatchRequest, lambda m: m.match_id == "seeded-match-id")
    unknown = _find(match_pb2.ListMatchesRequest, lambda m: m.status not in match_pb2.MatchStatus.values())
    assert _refused(unknown)
    huge = _find(match_pb2.WatchMatchRequest, lambda m: m.from_version >= 2**63)
    assert _refused(huge)
    nanos = _find(tournament_pb2.CreateTournamentRequest, lambda m: m.no_show_timeout.nanos >= 10**9)
    assert _refused(nanos)
    options = _find(match_pb2.CreateMatchRequest, lambda m: '"max_rounds"' in m.config.options_json)
    assert "max_rounds" in options.config.options_json


@settings(max_examples=200, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(STRATEGIES.messages(match_pb2.SubmitActionRequest.DESCRIPTOR).map(Drawn))
def test_a_oneof_carries_at_most_one_member(drawn: Drawn) -> None:
    message = drawn.message
    assert message.WhichOneof("action") in (None, "action_id", "action_json")
    assert not (message.HasField("action_id") and message.HasField("action_json"))


def test_short_repr_cuts_long_strings() -> None:
    text = short_repr(match_pb2.GetMatchRequest(match_id="x" * 100_000))
    assert len(text) < 300 and "+99840 chars" in text


def _answer(code: grpc.StatusCode, elapsed: float = 0.01, error_bytes: int = 10) -> Answer:
    return Answer(code, "details", elapsed, error_bytes, 0)


def test_verdicts() -> None:
    rpc = RPCS[0]
    assert problems(rpc, _answer(grpc.StatusCode.NOT_FOUND), 5.0) == []
    assert problems(rpc, _answer(grpc.StatusCode.DEADLINE_EXCEEDED, 0.5), 5.0) == []  # the server's own, early
    for code in (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DATA_LOSS):
        assert problems(rpc, _answer(code), 5.0)
    assert "hang" in problems(rpc, _answer(grpc.StatusCode.DEADLINE_EXCEEDED, 5.0), 5.0)[0]
    assert "echoed" in problems(rpc, _answer(grpc.StatusCode.INVALID_ARGUMENT, error_bytes=20_000), 5.0)[0]


@pytest.fixture
def db(tmp_path: Path) -> tuple[sqlite3.Connection, str]:
    path = str(tmp_path / "store.db")
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript(
        """
        CREATE TABLE accounts (id TEXT PRIMARY KEY, username TEXT);
        INSERT INTO accounts VALUES ('mm', 'matchmaking-service'), ('p1', 'player-1');
        CREATE TABLE matches (id TEXT PRIMARY KEY, status TEXT, next_deadline_ms INTEGER, tournament_id TEXT,
                              version INTEGER, created_by TEXT);
        CREATE TABLE seats (match_id TEXT, seat INTEGER, kind TEXT, PRIMARY KEY (match_id, seat));
        CREATE TABLE mm_tournaments (id TEXT PRIMARY KEY, status TEXT, revision INTEGER);
        CREATE TABLE mm_tournament_matches (match_id TEXT PRIMARY KEY, tournament_id TEXT);
        CREATE TABLE action_log (match_id TEXT, version INTEGER, PRIMARY KEY (match_id, version));
        CREATE TABLE mm_tickets (id TEXT PRIMARY KEY, state TEXT, match_id TEXT, match_request TEXT);
        INSERT INTO mm_tickets VALUES ('queued-ticket', 'queued', NULL, NULL), ('old-ticket', 'cancelled', NULL, NULL);
        CREATE TABLE audit_events (id TEXT PRIMARY KEY, outcome TEXT);
        INSERT INTO matches VALUES ('quiet', 'running', NULL, NULL, 0, 'p1'),
                                   ('clocked', 'running', 5, NULL, 0, 'p1'),
                                   ('botted', 'running', NULL, NULL, 0, 'p1'),
                                   ('cup-match', 'running', NULL, 't1', 0, 'mm');
        INSERT INTO seats VALUES ('quiet', 0, 'human'), ('botted', 1, 'bot');
        INSERT INTO mm_tournaments VALUES ('t1', 'running', 1);
        """
    )
    return conn, path


def test_store_watch_sees_writes_but_not_background_or_audit(db: tuple[sqlite3.Connection, str]) -> None:
    conn, path = db
    watch = StoreWatch(path)
    before = watch.snapshot()
    assert watch.snapshot() is before  # nothing committed since: the same snapshot, no re-read
    conn.execute("INSERT INTO audit_events VALUES ('a1', 'refused')")
    conn.execute("UPDATE matches SET version = 1 WHERE id IN ('clocked', 'botted', 'cup-match')")
    conn.execute("UPDATE mm_tournaments SET revision = 2")
    conn.execute("INSERT INTO matches VALUES ('round-2', 'open', NULL, 't1', 0, 'mm')")
    conn.execute("INSERT INTO matches VALUES ('round-2b', 'running', NULL, NULL, 0, 'p1')")  # linked by the cup's table
    conn.execute("INSERT INTO mm_tournament_matches VALUES ('round-2b', 't1')")
    conn.execute("INSERT INTO action_log VALUES ('round-2b', 1)")
    conn.execute("INSERT INTO matches VALUES ('paired', 'running', NULL, NULL, 0, 'p1')")  # a queued ticket's pairing
    conn.execute("UPDATE mm_tickets SET state = 'matched', match_id = 'paired' WHERE id = 'queued-ticket'")
    conn.execute("INSERT INTO matches VALUES ('made-late', 'open', NULL, NULL, 0, 'mm')")  # not linked yet
    assert watch.changes(before, watch.snapshot()) == []
    conn.execute("INSERT INTO seats VALUES ('quiet', 1, 'human')")
    conn.execute("INSERT INTO matches VALUES ('new', 'open', NULL, NULL, 0, 'p1')")
    conn.execute("UPDATE mm_tickets SET state = 'queued' WHERE id = 'old-ticket'")
    changed = watch.changes(before, watch.snapshot())
    assert [c.split()[0] for c in changed] == ["matches", "mm_tickets", "seats"], changed
    watch.close()


def test_maps_times_and_nested_lists_are_drawn() -> None:
    """Response types have what requests lack: a map (StandingRow.tiebreaks), Timestamps and Durations
    (Tournament), repeated nested messages (ListMatchesResponse)."""
    standing = _find(tournament_pb2.StandingRow, lambda m: len(m.tiebreaks) > 0)
    assert all(isinstance(k, str) for k in standing.tiebreaks)
    cup = _find(tournament_pb2.Tournament, lambda m: m.HasField("registration_open_time") and m.HasField("clock"))
    assert cup.SerializeToString()
    page = _find(match_pb2.ListMatchesResponse, lambda m: len(m.matches) >= 2 and m.matches[0].HasField("config"))
    assert page.SerializeToString()
