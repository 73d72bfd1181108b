"""The match library's steps <-> match log entries (`gamehall.events.v1.LogEntry`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gamehall.engine import Game
from gamehall.engine.protocol import action_id
from gamehall.events.v1.log_pb2 import BotChoice, BotTurn, LogEntry
from gamehall.matches.live import MatchFacts, Step, outcome_json
from gamehall.wire.convert import dumps


def next_bot(to_act: Iterable[int], bots: Mapping[int, str]) -> int | None:
    """The one bot seat to announce among the seats to act: the lowest. Every play expects the version it was
    judged at and moves it on, so of several turns announced at one version only the first to land could
    ever be played; the rest were thought about for nothing and refused (ABORTED). The next entry announces
    the bot seats still to act, so each gets its turn, one at a time."""
    return next((s for s in sorted(to_act) if s in bots), None)


def bot_turn(game: Game[Any], state: Any, seat: int, difficulty: str, deadline_unix_ms: int) -> BotTurn:
    """A bot seat's turn with the seat's view and legal actions in `state`: exactly what its player would
    read through the API, so the ai decides without asking the owner (and never sees more)."""
    return BotTurn(
        seat=seat,
        difficulty=difficulty,
        deadline_unix_ms=deadline_unix_ms,
        view_json=dumps(game.view(state, seat)),
        legal=[
            BotChoice(id=action_id(a), action_json=dumps(game.action_to_json(a)))
            for a in game.legal_actions(state, seat)
        ],
    )


def entry_for_step(game: Game[Any], facts: MatchFacts, step: Step, unix_ms: int) -> LogEntry:
    """The log entry of a judged step: the action, its digest, the clock, who acts next (and, for each bot
    among them, its turn: view and legal actions); the encoded state rides along every `SNAPSHOT_EVERY`
    versions and at the end."""
    entry = LogEntry(
        match_id=facts.id,
        game=facts.game,
        version=step.version,
        kind=LogEntry.KIND_ACTION,
        seat=step.seat,
        action_json=dumps(step.logged()),
        request_id=step.request_id,
        state_digest=step.digest,
        unix_ms=unix_ms,
        clock_state_json=dumps(dict(step.clock_state)) if step.clock_state else "",
        to_act=list(step.to_act),
        status="finished" if step.outcome is not None else "running",
    )
    if step.outcome is not None:
        entry.outcome_json = dumps(outcome_json(step.outcome))
    else:
        bots = facts.bot_seats()
        seat = next_bot(step.to_act, bots)
        if seat is not None:
            entry.bot_turns.append(bot_turn(game, step.state, seat, bots[seat], step.deadlines(facts).get(seat, 0)))
    if step.wants_snapshot():
        entry.snapshot = step.encoded
    return entry


def close_entry(
    facts: MatchFacts, version: int, status: str, outcome: Mapping[str, Any] | None, request_id: str, unix_ms: int
) -> LogEntry:
    """A match closed outside the rules (a forfeit, an abort) at `version`."""
    return LogEntry(
        match_id=facts.id,
        game=facts.game,
        version=version,
        kind=LogEntry.KIND_CLOSE,
        request_id=request_id,
        unix_ms=unix_ms,
        status=status,
        outcome_json=dumps(dict(outcome)) if outcome else "",
    )


__all__ = ["bot_turn", "close_entry", "entry_for_step", "next_bot"]
