"""Play under a fault, then check that nothing acknowledged was lost (issue 36's fault tests).

`Load` keeps pairs of players and players against bots in high-card matches through the public API, one match
after another, each move retried with its request id while the platform says UNAVAILABLE. It records every
acknowledged request id and every status it met. `Load.verify` then reads the SQL projection through
persistence: every acknowledged move is there exactly once, versions have no gap, every match finished.
"""

from __future__ import annotations

import threading
import time
import traceback
import urllib.request
from collections import Counter
from dataclasses import dataclass, field

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.internal.v1 import persistence_pb2_grpc
from gamehall.launcher.platform import Platform
from gamehall_sdk.v1 import match_pb2
from gamehall_services.persistence.projector import HEALTH as PROJECTION_HEALTH
from tests.e2e.client import Client

RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.RESOURCE_EXHAUSTED}
NEVER = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DATA_LOSS}


@dataclass
class Load:
    gateway: Client
    """A client on the gateway's channel; players are registered from it."""
    think: float = 0.6
    """Seconds a player waits between rounds of moves in its matches (a match of high-card is 5 moves a seat)."""
    retry_for: float = 150.0
    acknowledged: dict[str, set[str]] = field(default_factory=dict)
    """match id -> request ids of the moves the platform acknowledged."""
    codes: Counter[str] = field(default_factory=Counter)
    errors: list[BaseException] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _threads: list[threading.Thread] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self, pairs: int = 3, against_bots: int = 3, prepared: int = 1) -> None:
        """Register the players and open `prepared` matches for each, then play in a thread per pair or lone player;
        returns once every prepared match has had its first move (a match is opened, joined and first loaded by
        its owner through the database; from then on its moves need only the owner and the log)."""
        started = []
        for n in range(pairs + against_bots):
            bot = n >= pairs
            players = [Client(self.gateway.channel).register() for _ in range(1 if bot else 2)]
            queued = [self._open(players, bot, f"{n}-{k}") for k in range(prepared)]
            first_round = threading.Event()
            thread = threading.Thread(target=self._keep_playing, args=(players, bot, n, queued, first_round))
            thread.daemon = True
            self._threads.append(thread)
            started.append(first_round)
        for thread in self._threads:
            thread.start()
        for first_round in started:
            assert first_round.wait(120), "a player never made its first moves"

    def stop(self, timeout: float = 150.0) -> None:
        """No new match; each player finishes the ones it is in, without thinking any more."""
        self.think = 0.1
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout)
        assert not any(t.is_alive() for t in self._threads), "a player never finished its match"
        assert not self.errors, "\n".join(f"{e!r}\n{''.join(getattr(e, '__notes__', []))}" for e in self.errors)

    @property
    def moves(self) -> int:
        with self._lock:
            return sum(len(ids) for ids in self.acknowledged.values())

    def _call(self, call):  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + self.retry_for
        while True:
            try:
                result = call()
                self.codes["OK"] += 1
                return result
            except grpc.RpcError as exc:
                self.codes[exc.code().name] += 1
                if exc.code() in NEVER or exc.code() not in RETRYABLE or time.monotonic() > deadline:
                    raise
                time.sleep(0.25)

    def _keep_playing(
        self, players: list[Client], bot: bool, n: int, active: list[str], first_round: threading.Event
    ) -> None:
        """Round after round, a move in each of this player's matches, then `think` seconds; a finished match is
        replaced by a new one until `stop`."""
        try:
            target, opened = len(active), len(active)
            while active:
                for match_id in list(active):
                    if self._move(players, match_id):
                        active.remove(match_id)
                first_round.set()
                while not self._stop.is_set() and len(active) < target:
                    active.append(self._open(players, bot, f"{n}-{opened}"))
                    opened += 1
                time.sleep(self.think)
        except BaseException as exc:
            exc.add_note(traceback.format_exc(limit=6))
            self.errors.append(exc)
        finally:
            first_round.set()

    def _open(self, players: list[Client], bot: bool, tag: str) -> str:
        creator = players[0]
        second = match_pb2.SeatSpec(bot="easy") if bot else match_pb2.SeatSpec(open=True)
        seats = [match_pb2.SeatSpec(open=True), second]
        request = match_pb2.CreateMatchRequest(
            game="high-card", seats=seats, join_seat=0, public=True, request_id=f"create-{creator.account.id}-{tag}"
        )
        match = self._call(lambda: creator.call("CreateMatch", request).match)
        if not bot:
            self._call(lambda: players[1].join(match.id, seat=1))
        with self._lock:
            self.acknowledged[match.id] = set()
        return str(match.id)

    def _move(self, players: list[Client], match_id: str) -> bool:
        """Each player of `match_id` whose turn it is moves once; True once the match is over."""
        for player in players:
            legal = self._call(lambda p=player: p.legal(match_id))
            if not legal.actions:
                continue
            choice = next(a for a in legal.actions if a.id != "resign")
            with self._lock:
                step = sum(1 for r in self.acknowledged[match_id] if r.startswith(f"{match_id}:{player.account.id}:"))  # type: ignore[union-attr]
            request_id = f"{match_id}:{player.account.id}:{step}"  # type: ignore[union-attr]
            result = self._call(lambda p=player, c=choice, r=request_id: p.submit(match_id, c.id, request_id=r))
            with self._lock:
                self.acknowledged[match_id].add(request_id)
            if result.HasField("outcome"):
                return True
        return self._call(lambda: players[0].view(match_id)).HasField("outcome")  # from the owner, not SQL

    def verify(self, platform: Platform, timeout: float = 60.0) -> None:
        """Every acknowledged move in SQL exactly once, versions 1..n without a gap, every match finished there."""
        with self._lock:
            expected = {m: set(ids) for m, ids in self.acknowledged.items()}
        stub = persistence_pb2_grpc.PersistenceServiceStub(platform.channel("persistence"))
        deadline = time.monotonic() + timeout
        pending = dict(expected)
        while pending and time.monotonic() < deadline:
            for match_id in list(pending):
                record = stub.GetMatch(ppb.GetMatchRequest(match_id=match_id), timeout=10).match
                if record.status != "finished":
                    continue
                actions = stub.GetActions(ppb.GetActionsRequest(match_id=match_id, from_version=1), timeout=10).actions
                versions = [int(a.version) for a in actions]
                assert versions == list(range(1, int(record.version) + 1)), (match_id, versions)
                ids = [a.request_id for a in actions]
                assert len(ids) == len(set(ids)), f"{match_id}: an action projected twice"
                missing = pending[match_id] - set(ids)
                assert not missing, f"{match_id}: acknowledged moves missing from SQL: {sorted(missing)}"
                del pending[match_id]
            time.sleep(0.5)
        assert not pending, f"matches not finished in SQL after {timeout:.0f}s: {sorted(pending)}"


def scrape(platform: Platform, service: str) -> str:
    port = platform.service(service).metrics_port
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
        return str(reply.read().decode())


def metric(text: str, name: str, **labels: str) -> float:
    """The value of one sample in an exposition (0 when absent)."""
    from prometheus_client.parser import text_string_to_metric_families

    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return float(sample.value)
    return 0.0


def projection_health(platform: Platform) -> int:
    stub = health_pb2_grpc.HealthStub(platform.channel("persistence"))
    return int(stub.Check(health_pb2.HealthCheckRequest(service=PROJECTION_HEALTH), timeout=5).status)


def wait_caught_up(platform: Platform, timeout: float = 60.0) -> float:
    """Seconds until the projection reports nothing unprojected and no wait (AssertionError after `timeout`)."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        text = scrape(platform, "persistence")
        waiting = metric(text, "gamehall_consumer_waiting", stream="GAMEHALL_MATCHLOG")
        caught_up = waiting == 0 and metric(text, "gamehall_match_log_projection_lag_entries") == 0
        if caught_up and projection_health(platform) == health_pb2.HealthCheckResponse.SERVING:
            return time.monotonic() - started
        time.sleep(0.5)
    raise AssertionError(f"the projection had not caught up {timeout:.0f}s after the fault")
