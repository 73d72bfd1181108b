"""One turn for a bot: read the seat's view through the gateway, think, submit once.

The worker never sees a match's state: it gets exactly what the seat's player would get
(its view and legal actions, over the public API) and searches over determinizations of
that view in-process. Its request id is ``bot:<match>:<version>:<seat>``, so a turn that is
redelivered after a crash (or handled by two replicas) is applied at most once.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass
from typing import Any

import grpc
import structlog
from google.protobuf.message import DecodeError
from nats.aio.msg import Msg

from gamehall.ai.levels import LEVELS, make_bot
from gamehall.engine import Action, Game, UnknownGame, derive_seed, get_game
from gamehall.events.v1 import match_pb2 as match_events_pb2
from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.runtime import metrics
from gamehall.runtime.bus import SUBJECT_ROOT, PermanentEventError, classify_rpc_error
from gamehall_sdk.v1 import match_pb2, match_pb2_grpc
from gamehall_services.ai.identity import BotIdentity

log = structlog.get_logger("gamehall.ai")
LOG_ROOT = f"{SUBJECT_ROOT}.log."

# Thinking budget per level (ms), capped by the seat's clock.
THINK_MS = {"random": 0.0, "easy": 300.0, "normal": 800.0, "hard": 1500.0, "expert": 4000.0}
CLOCK_MARGIN_MS = 1500.0
STALE = {grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION}
CATCH_UP_TRIES = 20
CATCH_UP_SECONDS = 0.1
"""How long a turn waits for its match to reach the announced version before it is judged stale."""


@dataclass(frozen=True)
class Turn:
    match_id: str
    game: str
    version: int
    seat: int
    difficulty: str
    deadline_unix_ms: int

    @classmethod
    def parse(cls, payload: bytes) -> Turn:
        """A match's first turn, announced when it starts (a `turn_to_act` event on the turns stream)."""
        event = match_events_pb2.MatchEvent.FromString(payload)
        if event.WhichOneof("payload") != "turn_to_act":
            raise ValueError(f"not a turn: {event.WhichOneof('payload')}")
        t = event.turn_to_act
        difficulty = t.difficulty if t.difficulty in LEVELS else "normal"
        return cls(event.match_id, event.game, event.version, t.seat, difficulty, t.deadline_unix_ms)

    @classmethod
    def all_in(cls, payload: bytes) -> list[Turn]:
        """The bot turns a match log entry announces (the seats to act next that bots hold)."""
        entry = LogEntry.FromString(payload)
        if not entry.match_id or not entry.bot_turns:
            raise ValueError("not a log entry with bot turns")
        return [
            cls(
                entry.match_id,
                entry.game,
                int(entry.version),
                int(t.seat),
                t.difficulty if t.difficulty in LEVELS else "normal",
                int(t.deadline_unix_ms),
            )
            for t in entry.bot_turns
        ]

    @property
    def request_id(self) -> str:
        return f"bot:{self.match_id}:{self.version}:{self.seat}"


async def handle_turn(worker: TurnWorker, msg: Msg) -> str:
    """The bot consumer's handler, for a match log entry after which bots are to act (several seats at once
    are played together): a turn that can never be played (undecodable, not a turn, an unknown game, a
    match or seat the gateway rejects) is a `PermanentEventError` for the dead letter; a gateway that is
    away or busy is retried by the bus with backoff (issue 20, finding 2)."""
    try:
        turns = Turn.all_in(msg.data) if msg.subject.startswith(LOG_ROOT) else [Turn.parse(msg.data)]
        for turn in turns:
            get_game(turn.game)
    except (DecodeError, ValueError, UnknownGame) as exc:
        raise PermanentEventError(f"unplayable turn ({len(msg.data)} bytes): {str(exc)[:200]}") from exc
    if msg.metadata and msg.metadata.timestamp:
        lag = max(0.0, time.time() - msg.metadata.timestamp.timestamp())
        metrics.TURN_QUEUE_LAG.labels(turns[0].game).set(lag)
    outcomes = await asyncio.gather(*(_play_one(worker, t) for t in turns))
    return ",".join(outcomes)


async def _play_one(worker: TurnWorker, turn: Turn) -> str:
    try:
        outcome = await worker.play(turn)
    except grpc.aio.AioRpcError as exc:
        raise classify_rpc_error(exc, f"turn {turn.request_id[:100]}") from exc
    log.info("turn", match_id=turn.match_id, version=turn.version, seat=turn.seat, result=outcome)
    return outcome


class TurnWorker:
    """Plays turns through the gateway with the service's bot identity."""

    def __init__(self, gateway: match_pb2_grpc.MatchServiceStub, identity: BotIdentity) -> None:
        self.gateway = gateway
        self.identity = identity

    async def play(self, turn: Turn) -> str:
        """Play `turn` if it is still due; returns what happened (for logs and tests)."""
        meta = self.identity.metadata()
        view_request = match_pb2.GetViewRequest(match_id=turn.match_id, seat=turn.seat)
        legal_request = match_pb2.ListLegalActionsRequest(match_id=turn.match_id, seat=turn.seat)

        async def read() -> tuple[Any, Any]:  # both at once: the owner answers each from memory
            return await asyncio.gather(
                self.gateway.GetView(view_request, metadata=meta),
                self.gateway.ListLegalActions(legal_request, metadata=meta),
            )

        view, legal = await read()
        for _ in range(CATCH_UP_TRIES):  # the turn's event can outrun the view it announces: wait, not drop
            if min(view.version, legal.version) >= turn.version:
                break
            await asyncio.sleep(CATCH_UP_SECONDS)
            view, legal = await read()
        if view.version != turn.version or turn.seat not in view.to_act or view.HasField("outcome"):
            return "stale"
        if legal.version != turn.version or not legal.actions:
            return "stale"
        game = get_game(turn.game)
        actions = {a.id: game.parse_action(json.loads(a.action_json)) for a in legal.actions}
        started = time.perf_counter()
        chosen = await asyncio.to_thread(self._think, game, json.loads(view.view_json), turn, list(actions.values()))
        metrics.BOT_THINK.labels(turn.game, turn.difficulty).observe(time.perf_counter() - started)
        chosen_id = next(aid for aid, action in actions.items() if action == chosen)
        try:
            await self.gateway.SubmitAction(
                match_pb2.SubmitActionRequest(
                    match_id=turn.match_id,
                    seat=turn.seat,
                    action_id=chosen_id,
                    request_id=turn.request_id,
                    expected_version=turn.version,
                ),
                metadata=meta,
            )
        except grpc.aio.AioRpcError as exc:
            if exc.code() in STALE:  # another move or a clock got there first
                log.info("turn moved on", match_id=turn.match_id, version=turn.version, detail=exc.details())
                return "stale"
            raise
        metrics.BOT_DECISIONS.labels(turn.game, turn.difficulty).inc()
        return "played"

    @staticmethod
    def _think(game: Game[Any], view: dict[str, Any], turn: Turn, legal: list[Action]) -> Action:
        budget = THINK_MS[turn.difficulty]
        if turn.deadline_unix_ms:
            left = turn.deadline_unix_ms - time.time() * 1000 - CLOCK_MARGIN_MS
            budget = max(50.0, min(budget, left)) if budget else budget
        bot = make_bot(turn.difficulty, time_ms=budget) if budget else make_bot(turn.difficulty)
        rng = random.Random(derive_seed(0, "bot", turn.match_id, turn.version, turn.seat))
        return bot.choose(game, view, turn.seat, legal, rng)
