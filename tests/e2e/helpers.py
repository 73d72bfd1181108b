"""Shared steps of the e2e tests: play a match to the end through the gateway, collect watch streams,
and re-run a finished match locally from its revealed seed."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from dataclasses import dataclass, field
from typing import Any

import grpc

from gamehall.engine import Event, MatchConfig, get_game
from gamehall.runtime.matchlog import wait_projected_at
from gamehall_sdk.v1 import match_pb2
from tests.e2e.client import Client

MAX_ACTIONS = 5000


@dataclass
class Collector:
    """A watch stream read in a background thread until the match ends."""

    client: Client
    match_id: str
    kwargs: dict[str, Any] = field(default_factory=dict)
    messages: list[match_pb2.WatchMatchResponse] = field(default_factory=list)
    error: BaseException | None = None

    def __post_init__(self) -> None:
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            for message in self.client.watch(self.match_id, **self.kwargs):
                self.messages.append(message)
        except grpc.RpcError as exc:
            self.error = exc

    def join(self, timeout: float = 60) -> list[match_pb2.WatchMatchResponse]:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the watch stream did not end with the match"
        assert self.error is None, self.error
        return self.messages


def play_to_end(players: list[Client], match_id: str, rng: random.Random) -> match_pb2.SubmitActionResponse:
    """Every seat plays random legal actions (by id, never resigning when it has another choice)."""
    last: match_pb2.SubmitActionResponse | None = None
    for _ in range(MAX_ACTIONS):
        moved = False
        for player in players:
            legal = player.legal(match_id)
            if not legal.actions:
                continue
            choices = [a for a in legal.actions if a.id != "resign"] or list(legal.actions)
            result = last = player.submit(match_id, rng.choice(choices).id)
            moved = True
            if result.HasField("outcome"):
                return result
        assert moved, f"nobody could move but the match has no outcome: {_stuck(players, match_id, last)}"
    raise AssertionError(f"no outcome after {MAX_ACTIONS} actions")


def _stuck(players: list[Client], match_id: str, last: match_pb2.SubmitActionResponse | None) -> str:
    """What each seat reads of a match nobody can move in (a failure message that tells the cases apart: a
    match closed without an outcome, a copy behind the log, a final state whose outcome went missing)."""
    said = "no move answered"
    if last is not None:
        said = f"the last move answered version {last.version}, to act {list(last.to_act)}, replayed {last.replayed}"
    seen = []
    for seat, player in enumerate(players):
        view = player.view(match_id)
        record = player.match(match_id)
        status = match_pb2.MatchStatus.Name(record.status)
        seen.append(
            f"seat {seat} reads version {view.version}, to act {list(view.to_act)}, status {status}, "
            f"outcome {view.HasField('outcome')}, record version {record.version}"
        )
    return "; ".join([said, *seen])


@dataclass
class LocalRun:
    """The match re-run in this process: states[v] and the events of the action producing v."""

    game: Any
    states: list[Any]
    events: list[list[Event]]


def rerun(replay: match_pb2.GetReplayResponse) -> LocalRun:
    match = replay.match
    game = get_game(match.game)
    config = MatchConfig(
        mode=match.config.mode,
        seats=match.config.seats,
        options=json.loads(match.config.options_json or "{}"),
        flags=json.loads(match.config.flags_json or "{}"),
    )
    state = game.new_match(config, match.seed)
    states, events = [state], [[]]
    for step in replay.steps:
        state, produced = game.apply(state, step.seat, game.parse_action(json.loads(step.action.action_json)))
        states.append(state)
        events.append(produced)
    return LocalRun(game, states, events)


def canonical(view: Any) -> str:
    return json.dumps(view, separators=(",", ":"), sort_keys=True)


def projected(nats_url: str) -> None:
    """Wait until persistence has projected the whole match log (SQL runs milliseconds behind it): before a
    test reads the store directly or runs `gamehall verify` on it."""
    assert asyncio.run(wait_projected_at(nats_url)), "the match log was not projected within 30 s"
