"""One turn for a bot: take the seat's view and legal actions from the turn, think, play once on the owner.

The worker never sees a match's state: a turn carries exactly what the seat's player would read
through the API (its view and legal actions at the turn's version, written by the match's owner),
and the worker searches over determinizations of that view in-process. It plays on the owning rules
replica directly (the gateway is the door for outside clients; the ai is inside), as the `bot` role,
which may act only for bot seats. Its request id is ``bot:<match>:<version>:<seat>`` with the turn's
version expected, so a turn that is redelivered after a crash (or handled by two replicas) is applied
at most once, and a turn the match has moved past is dropped as stale.
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
from gamehall.events.v1 import match_pb2
from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.internal.v1 import live_pb2
from gamehall.runtime import metrics
from gamehall.runtime.bus import SUBJECT_ROOT, PermanentEventError, classify_rpc_error
from gamehall.runtime.errors import ClientError
from gamehall.runtime.rules_replicas import RulesReplicas
from gamehall_sdk.v1.match_pb2 import WatchMatchResponse

log = structlog.get_logger("gamehall.ai")
LOG_ROOT = f"{SUBJECT_ROOT}.log."

# Thinking budget per level (ms), capped by the seat's clock.
THINK_MS = {"random": 0.0, "easy": 300.0, "normal": 800.0, "hard": 1500.0, "expert": 4000.0}
CLOCK_MARGIN_MS = 1500.0
STALE = {grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION}
INLINE_THINK_SECONDS = 0.002
"""A think whose game and level have lately taken less CPU than this runs on the event loop: handing it to a
thread and back costs a good part of a millisecond's think (and the loop waits for the GIL meanwhile anyway),
while a longer think would hold up every other turn's I/O. Unknown ones (a first think) go to a thread."""
THINK_SMOOTHING = 0.2
"""Weight of the newest think in the running estimate of a game and level's think time."""


@dataclass(frozen=True)
class Turn:
    match_id: str
    game: str
    version: int
    seat: int
    difficulty: str
    deadline_unix_ms: int
    view_json: str = ""
    """The seat's view at `version` ("" for a turn announced without it: the worker then asks the owner)."""
    legal: tuple[tuple[str, str], ...] = ()
    """(id, action JSON) of each legal action at `version`."""

    @classmethod
    def parse(cls, payload: bytes) -> Turn:
        """A match's first turn, announced when it starts (a `turn_to_act` event on the turns stream)."""
        event = match_pb2.MatchEvent.FromString(payload)
        if event.WhichOneof("payload") != "turn_to_act":
            raise ValueError(f"not a turn: {event.WhichOneof('payload')}")
        t = event.turn_to_act
        difficulty = t.difficulty if t.difficulty in LEVELS else "normal"
        legal = tuple((c.id, c.action_json) for c in t.legal)
        return cls(
            event.match_id, event.game, event.version, t.seat, difficulty, t.deadline_unix_ms, t.view_json, legal
        )

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
                t.view_json,
                tuple((c.id, c.action_json) for c in t.legal),
            )
            for t in entry.bot_turns
        ]

    @property
    def request_id(self) -> str:
        return f"bot:{self.match_id}:{self.version}:{self.seat}"


async def handle_turn(worker: TurnWorker, msg: Msg) -> str:
    """The bot consumer's handler, for a match log entry after which bots are to act (several seats at once
    are played together): a turn that can never be played (undecodable, not a turn, an unknown game, a
    match or seat the owner rejects) is a `PermanentEventError` for the dead letter; an owner that is
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
    except (grpc.aio.AioRpcError, ClientError) as exc:
        raise classify_rpc_error(exc, f"turn {turn.request_id[:100]}") from exc
    # Quiet when all is well, as the access log is: a played turn at debug, one the match moved past at info.
    (log.debug if outcome == "played" else log.info)(
        "turn", match_id=turn.match_id, version=turn.version, seat=turn.seat, result=outcome
    )
    return outcome


def _due_in(view: WatchMatchResponse, turn: Turn) -> bool:
    """Whether `view` is of a running match at the turn's version with the turn's seat to act."""
    return bool(view.version == turn.version and turn.seat in view.to_act and not view.HasField("outcome"))


class TurnWorker:
    """Plays turns on the matches' owners with the service's bot identity."""

    def __init__(self, rules: dict[str, RulesReplicas], account_id: str) -> None:
        self.rules = rules
        self.caller = live_pb2.Caller(account_id=account_id, role="bot")
        self.think_seconds: dict[tuple[str, str], float] = {}
        """(game, level) -> a running estimate of one think's CPU seconds, which decides where thinks run."""

    def _owner(self, turn: Turn) -> RulesReplicas:
        replicas = self.rules.get(turn.game)
        if replicas is None:
            raise PermanentEventError(f"turn {turn.request_id[:100]}: no rules service hosts {turn.game!r}")
        return replicas

    async def _read(self, turn: Turn) -> tuple[str, tuple[tuple[str, str], ...]] | None:
        """The seat's view and legal actions at the turn's version, from the owner (for a turn announced
        without them); None when the match is past that version."""
        legal_request = live_pb2.ListLegalActionsRequest(match_id=turn.match_id, caller=self.caller, seat=turn.seat)
        view, legal = await asyncio.gather(
            self._view(turn), self._owner(turn).on_owner(turn.match_id, "ListLegalActions", legal_request)
        )
        legal = legal.result
        if not _due_in(view, turn) or legal.version != turn.version or not legal.actions:
            return None
        return view.view_json, tuple((a.id, a.action_json) for a in legal.actions)

    async def _view(self, turn: Turn) -> WatchMatchResponse:
        """The turn's seat's view of the match now, from its owner."""
        request = live_pb2.GetViewRequest(match_id=turn.match_id, caller=self.caller, seat=turn.seat)
        view: WatchMatchResponse = (await self._owner(turn).on_owner(turn.match_id, "GetView", request)).view
        return view

    async def play(self, turn: Turn) -> str:
        """Play `turn` if it is still due; returns what happened (for logs and tests)."""
        view_json, legal = turn.view_json, turn.legal
        if not view_json:
            read = await self._read(turn)
            if read is None:
                return "stale"
            view_json, legal = read
        if not legal:
            return "stale"
        game = get_game(turn.game)
        actions = {aid: game.parse_action(json.loads(action_json)) for aid, action_json in legal}
        started = time.perf_counter()
        chosen = await self._thought(game, json.loads(view_json), turn, list(actions.values()))
        metrics.BOT_THINK.labels(turn.game, turn.difficulty).observe(time.perf_counter() - started)
        chosen_id = next(aid for aid, action in actions.items() if action == chosen)
        request = live_pb2.PlayRequest(
            match_id=turn.match_id,
            caller=self.caller,
            seat=turn.seat,
            action_id=chosen_id,
            request_id=turn.request_id,
            expected_version=turn.version,
        )
        try:
            await self._owner(turn).on_owner(turn.match_id, "Play", request)
        except ClientError as exc:
            if exc.code not in STALE:
                raise
            if await self._still_due(turn):  # refused, yet nothing moved (the owner's "kept changing; retry")
                raise ClientError(
                    grpc.StatusCode.UNAVAILABLE,
                    f"turn {turn.request_id[:100]} refused while still due ({exc.code.name}: {str(exc)[:200]}); retry",
                ) from exc
            log.info("turn moved on", match_id=turn.match_id, version=turn.version, detail=str(exc)[:200])
            return "stale"
        metrics.BOT_DECISIONS.labels(turn.game, turn.difficulty).inc()
        return "played"

    async def _still_due(self, turn: Turn) -> bool:
        """Whether the match is still at the turn's version with its seat to act. A refused turn is dropped as
        stale only when another move or a clock got there first: dropped otherwise, nobody would announce it
        again and the seat would wait for the idle policy."""
        return _due_in(await self._view(turn), turn)

    async def _thought(self, game: Game[Any], view: dict[str, Any], turn: Turn, legal: list[Action]) -> Action:
        """The bot's choice: thought on the event loop when this game and level think briefly, else in a thread."""
        key = (turn.game, turn.difficulty)
        typical = self.think_seconds.get(key)
        if typical is not None and typical < INLINE_THINK_SECONDS:
            chosen, cpu = self._timed_think(game, view, turn, legal)
        else:
            chosen, cpu = await asyncio.to_thread(self._timed_think, game, view, turn, legal)
        self.think_seconds[key] = cpu if typical is None else typical + THINK_SMOOTHING * (cpu - typical)
        return chosen

    @classmethod
    def _timed_think(
        cls, game: Game[Any], view: dict[str, Any], turn: Turn, legal: list[Action]
    ) -> tuple[Action, float]:
        """The choice and the CPU seconds it took this thread (waits for the GIL not counted)."""
        started = time.thread_time()
        chosen = cls._think(game, view, turn, legal)
        return chosen, time.thread_time() - started

    @staticmethod
    def _think(game: Game[Any], view: dict[str, Any], turn: Turn, legal: list[Action]) -> Action:
        budget = THINK_MS[turn.difficulty]
        if turn.deadline_unix_ms:
            left = turn.deadline_unix_ms - time.time() * 1000 - CLOCK_MARGIN_MS
            budget = max(50.0, min(budget, left)) if budget else budget
        bot = make_bot(turn.difficulty, time_ms=budget) if budget else make_bot(turn.difficulty)
        rng = random.Random(derive_seed(0, "bot", turn.match_id, turn.version, turn.seat))
        return bot.choose(game, view, turn.seat, legal, rng)
