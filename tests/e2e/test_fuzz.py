"""Fuzzing (issue 20): every public RPC, found by walking the service descriptors, gets messages drawn from
its descriptor (gamehall.testing.fuzz) as the anonymous caller, a player and the operator, against a
running platform of its own. No answer may be INTERNAL, UNKNOWN or DATA_LOSS, no unary call may hang
past its deadline, no error may echo its input back, a refused call must leave the store unchanged
(gamehall.testing.fuzz_driver.StoreWatch), and every service is healthy at the end.

Time: GAMEHALL_FUZZ_SECONDS (default 50, of which about 30 s are spent) shared by the RPCs, more to those
with more fields; `make fuzz` runs 600 s with random seeds (GAMEHALL_FUZZ_SEED=random; an integer fixes
the seed; default: derandomized, the same examples every run). A failure prints the call, the role and
the drawn message (long strings cut).
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
from hypothesis import HealthCheck, given, seed, settings

import gamehall_sdk.v1
from gamehall.launcher.platform import Platform, grpc_healthy
from gamehall.testing.fuzz import Drawn, MessageStrategies, Seeds
from gamehall.testing.fuzz_driver import Fuzzer, Rpc, StoreWatch, public_rpcs
from gamehall_sdk.v1 import auth_pb2, catalog_pb2, match_pb2, matchmaking_pb2, tournament_pb2
from gamehall_sdk.v1 import matchmaking_pb2_grpc as mm_grpc
from gamehall_sdk.v1 import tournament_pb2_grpc as tour_grpc
from gamehall_services.gateway.access_matrix import ACCESS
from gamehall_services.gateway.edge import BOUNDS
from tests.e2e.client import PASSWORD, Client
from tests.e2e.conftest import AUTH_UNLIMITED, OPERATOR_PASSWORD, TOKEN_KEY
from tests.support.processes import repo_env

SECONDS = float(os.environ.get("GAMEHALL_FUZZ_SECONDS", "50"))
SEED = os.environ.get("GAMEHALL_FUZZ_SEED", "")
RPCS = public_rpcs(gamehall_sdk.v1)
BOT_LEVELS = ("random", "easy")
"""Bot seeds: the cheap levels (a fuzzed bot match must not take the machine's two cores)."""


@dataclass
class Session:
    platform: Platform
    fuzzer: Fuzzer
    strategies: MessageStrategies
    started: float
    spent: float = 0.0
    examples: int = 0


@pytest.fixture(scope="module")
def fuzz_platform(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    """A platform of its own: the shared one carries other tests' bots and tournaments, which change the
    store while the fuzzer checks that refused calls do not. Queues never fill with bots here (a queued
    ticket changes only when another ticket pairs with it)."""
    mp = pytest.MonkeyPatch()
    for key, value in repo_env().items():
        mp.setenv(key, value)
    env = {
        "GAMEHALL_TOKEN_KEY": TOKEN_KEY,
        "GAMEHALL_OPERATOR_PASSWORD": OPERATOR_PASSWORD,
        "GAMEHALL_LOG_LEVEL": "warning",
        "GAMEHALL_GATEWAY_RATE_PER_SECOND": "100000",
        "GAMEHALL_GATEWAY_RATE_BURST": "100000",
        "GAMEHALL_MATCHMAKING_BOT_FILL_SECONDS": str(365 * 24 * 3600),
        "GAMEHALL_AI_ACK_WAIT_SECONDS": "3",
        **AUTH_UNLIMITED,
    }
    platform = Platform(data_dir=tmp_path_factory.mktemp("fuzz"), fixed_ports=False, extra_env=env)
    try:
        platform.start(ready_timeout=120)
        yield platform
    finally:
        platform.stop()
        mp.undo()


def _operator(channel: grpc.Channel) -> Client:
    client = Client(channel)
    reply = client.auth.Login(auth_pb2.LoginRequest(username="operator", password=OPERATOR_PASSWORD), timeout=30)
    client.token, client.account = reply.token, reply.account
    return client


def _seeds(channel: grpc.Channel) -> tuple[Seeds, dict[str, Client]]:
    """Things that exist, so drawn calls reach past "not found": an open match of every game held by the
    player, a running and a finished High Card match between the player and another account, the
    player's queued ticket, a tournament open for registration with the player in it."""
    player, other, operator = Client(channel).register(), Client(channel).register(), _operator(channel)
    games = operator.catalog.ListGames(catalog_pb2.ListGamesRequest(), metadata=operator.metadata, timeout=60).games
    running = player.create("high-card", join_seat=0, public=True).id
    other.join(running)
    finished = player.create("high-card", join_seat=0, public=True).id
    other.join(finished)
    other.call("LeaveMatch", match_pb2.LeaveMatchRequest(match_id=finished))
    opened = [player.create(g.id, join_seat=0, public=True).id for g in games if g.id != "high-card"]
    legal = player.legal(running).actions
    pool = f"fuzz-{uuid.uuid4().hex[:8]}"
    ticket = mm_grpc.MatchmakingServiceStub(channel).EnqueueTicket(
        matchmaking_pb2.EnqueueTicketRequest(game="high-card", no_bots=True, pool=pool), metadata=player.metadata
    )
    cups = tour_grpc.TournamentServiceStub(channel)
    tournament = cups.CreateTournament(
        tournament_pb2.CreateTournamentRequest(
            name="fuzz", game="high-card", format=tournament_pb2.TOURNAMENT_FORMAT_SWISS, max_players=8
        ),
        metadata=operator.metadata,
    ).tournament.id
    assert player.account is not None and other.account is not None and operator.account is not None
    cups.RegisterPlayer(
        tournament_pb2.RegisterPlayerRequest(tournament_id=tournament, account_id=player.account.id),
        metadata=operator.metadata,
    )
    accounts = [player.account.id, other.account.id, operator.account.id]
    by_field: dict[str, list[Any]] = {
        "match_id": [running, finished, *opened],
        "ticket_id": [ticket.ticket.id],
        "tournament_id": [tournament],
        "pairing_id": [f"{tournament}-r1-p1"],
        "account_id": accounts,
        "player": accounts,
        "players": accounts,
        "reserved_for": accounts,
        "game": [g.id for g in games],
        "mode": sorted({m.id for g in games for m in g.modes}),
        "pool": [pool],
        "bot": list(BOT_LEVELS),
        "action_id": [a.id for a in legal] + ["resign"],
        "action_json": [a.action_json for a in legal],
        "username": [player.account.username, "operator"],
        "password": [PASSWORD],
        "options_json": ["{}", *(f'{{"{o.name}": {o.default_json}}}' for g in games for o in g.options)],
    }
    keys = sorted({o.name for g in games for o in [*g.options, *g.flags]} | {"kind", "card", "seat", "target"})
    return Seeds(by_field, keys), {"player": player, "operator": operator}


@pytest.fixture(scope="module")
def session(fuzz_platform: Platform) -> Iterator[Session]:
    channel = grpc.insecure_channel(
        fuzz_platform.service("gateway").address,
        options=[("grpc.max_send_message_length", 8 * 1024 * 1024), ("grpc.max_receive_message_length", -1)],
    )
    seeds, clients = _seeds(channel)
    store = StoreWatch(str(fuzz_platform.data_dir / "gamehall.db"), fuzz_platform.nats_url)
    roles = {"anonymous": (), "player": clients["player"].metadata, "operator": clients["operator"].metadata}
    fuzzer = Fuzzer(channel, roles, store)
    yield Session(fuzz_platform, fuzzer, MessageStrategies(BOUNDS, seeds), time.monotonic())
    store.close()
    channel.close()


def test_every_public_rpc_is_fuzzed() -> None:
    """The descriptor walk finds every RPC the authorization matrix (kept by hand) lists."""
    assert {r.name for r in RPCS} == {name.split("(")[0] for name in ACCESS}
    assert {r.name for r in RPCS if r.method.client_streaming} == {"PlaySeat"}  # fuzzed too: one drawn message


def _fields(descriptor: Any, depth: int = 0) -> int:
    """Fields of a message, nested ones included: the share of the time an RPC gets grows with them."""
    if depth > 3:
        return 0
    return sum(1 + (_fields(f.message_type, depth + 1) if f.message_type else 0) for f in descriptor.fields)


WEIGHTS = {r.name: 2 + _fields(r.method.input_type) for r in RPCS}


@pytest.mark.parametrize("rpc", RPCS, ids=lambda r: r.name)
def test_fuzz_rpc(session: Session, rpc: Rpc) -> None:
    budget = SECONDS * WEIGHTS[rpc.name] / sum(WEIGHTS.values())
    per_example = session.spent / session.examples if session.examples else 0.3
    examples = max(3, int(budget / max(per_example, 0.01)))
    stop_at = time.monotonic() + 1.5 * budget
    findings_before = len(session.fuzzer.store_findings)
    ran = [0]

    @settings(
        max_examples=examples,
        deadline=None,
        database=None if not SEED else settings.default.database,
        derandomize=not SEED,
        print_blob=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(drawn=session.strategies.messages(rpc.method.input_type).map(Drawn))
    def fuzz(drawn: Drawn) -> None:
        if ran[0] >= 3 and time.monotonic() > stop_at:
            return  # this RPC's share of the time is spent (not reject(): a replayed example must stay valid)
        started = time.monotonic()
        try:
            session.fuzzer.exercise(rpc, drawn.message)
        finally:
            session.spent += time.monotonic() - started
            session.examples += 1
            ran[0] += 1

    if SEED and SEED != "random":
        fuzz = seed(int(SEED))(fuzz)
    fuzz()
    new = session.fuzzer.store_findings[findings_before:]
    assert not new, f"{len(new)} refused call(s) of {rpc.name} changed the store:\n" + "\n".join(new)


def test_platform_is_healthy_after_fuzzing(session: Session) -> None:
    platform, fuzzer = session.platform, session.fuzzer
    print(f"\n[fuzz] {fuzzer.total()} calls in {time.monotonic() - session.started:.0f} s:\n{fuzzer.table()}")
    assert not platform.dead(), f"crashed: {platform.dead()}"
    sick = [s.definition.name for s in platform.services if not grpc_healthy(s.address, timeout=5)]
    assert not sick, f"not serving after fuzzing: {sick}"
    assert fuzzer.total() >= 3 * len(RPCS)
