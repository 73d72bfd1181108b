"""`gamehall play`'s pure pieces: rendering views, legal actions and outcomes of a real game, and
reading the player's choice."""

from __future__ import annotations

import io
import json
from typing import Any

from rich.console import Console, RenderableType

from gamehall.cli.play_render import (
    parse_choice,
    render_events,
    render_legal,
    render_legal_lines,
    render_outcome,
    render_status,
    render_view,
)
from gamehall.engine import Outcome, action_id
from gamehall.wire.convert import dumps, outcome_to_proto
from gamehall_sdk import GameEvent, LegalAction, LegalActions, MatchUpdate, View
from gamehall_sdk.v1 import common_pb2, match_pb2
from tests.fixtures.high_card import GAME as HIGH_CARD
from tests.fixtures.high_card import State


def text_of(renderable: RenderableType) -> str:
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(renderable)
    output = console.file.getvalue()
    assert isinstance(output, str)
    return output


def start() -> State:
    return HIGH_CARD.new_match(HIGH_CARD.configure("duel", 2), seed=7)


def view_of(state: State, seat: int, version: int = 0) -> View:
    data = json.loads(json.dumps(HIGH_CARD.view(state, seat)))  # as it crosses the wire
    return View(version=version, seat=seat, data=data, to_act=tuple(sorted(HIGH_CARD.to_act(state))), outcome=None)


def legal_of(state: State, seat: int, version: int = 0) -> LegalActions:
    """The seat's legal actions as the owner lists them (id, label, the action's JSON)."""
    actions = tuple(
        LegalAction.from_proto(
            common_pb2.LegalAction(
                id=action_id(a), label=HIGH_CARD.describe(state, a), action_json=dumps(HIGH_CARD.action_to_json(a))
            )
        )
        for a in HIGH_CARD.legal_actions(state, seat)
    )
    return LegalActions(version=version, seat=seat, actions=actions)


def finished_match(outcome: Outcome) -> match_pb2.Match:
    return match_pb2.Match(
        id="m-123",
        game="high-card",
        status=match_pb2.MATCH_STATUS_FINISHED,
        version=10,
        seats=[
            match_pb2.Seat(seat=0, kind=match_pb2.SEAT_KIND_HUMAN, username="alice"),
            match_pb2.Seat(seat=1, kind=match_pb2.SEAT_KIND_BOT, bot_difficulty="easy"),
        ],
        outcome=outcome_to_proto(outcome),
    )


def test_the_view_shows_every_field_of_the_seat() -> None:
    state = start()
    view = view_of(state, 0)
    shown = text_of(render_view(view))
    assert "seat 0 · v0 · to act: 0, 1" in shown
    for key in view.data:
        assert key in shown
    assert json.dumps(view.data["hand"]) in shown  # short values stay on one line

    compact = text_of(render_view(view, compact=True))
    assert f"hand={json.dumps(view.data['hand'], separators=(',', ':'))}" in compact
    assert "ties_score=false" in compact


def test_legal_actions_are_numbered_in_the_servers_order() -> None:
    state = start()
    legal = legal_of(state, 0)
    hand: list[Any] = state.hands[0]
    assert [a.id for a in legal] == [f"play(card={c})" for c in hand] + ["resign"]

    lines = render_legal_lines(legal)
    assert len(lines) == len(legal) == len(hand) + 1
    for number, (line, action) in enumerate(zip(lines, legal, strict=True), start=1):
        assert line.startswith(f"{number}. {action.label or action.id}")
        assert json.dumps(action.action, separators=(", ", ": ")) in line

    table = text_of(render_legal(legal))
    rows = [row for row in table.splitlines() if row.strip()[:1].isdigit()]
    assert [row.split()[0] for row in rows] == [str(n) for n in range(1, len(legal) + 1)]
    assert all(action.id in row for row, action in zip(rows, legal, strict=True))


def test_choices_map_numbers_to_legal_actions() -> None:
    legal = legal_of(start(), 1)
    assert parse_choice("1", legal) == legal[0]
    assert parse_choice(f" {len(legal)} \n", legal) == legal[-1]
    assert parse_choice("q", legal) == "quit"
    assert parse_choice("V", legal) == "view"
    assert parse_choice(legal[2].id, legal) == legal[2]
    for nonsense in ("0", str(len(legal) + 1), "", "x", "-1"):
        assert parse_choice(nonsense, legal) is None


def test_the_outcome_names_ranks_reason_and_the_match_id() -> None:
    text = render_outcome(finished_match(Outcome((2, 1), (1.0, 4.0), reason="all cards played")), seat=0)
    assert "match over: all cards played" in text
    assert "seat 0 (you): 2nd, score 1" in text
    assert "seat 1 (bot easy): 1st, score 4" in text
    assert "you finished 2nd of 2" in text
    assert "match id: m-123" in text and "gamehall replay m-123 --seat 0" in text

    assert "you won" in render_outcome(finished_match(Outcome((1, 2), reason="resigned")), seat=0)
    assert "you tied for first" in render_outcome(finished_match(Outcome((1, 1), (2.0, 2.0))), seat=1)
    spectator = render_outcome(finished_match(Outcome((1, 2))), seat=None)
    assert "seat 0 (alice): 1st" in spectator and "you " not in spectator


def test_an_outcome_from_a_played_out_engine_match() -> None:
    state = start()
    while (outcome := HIGH_CARD.outcome(state)) is None:
        for seat in sorted(HIGH_CARD.to_act(state)):
            action = HIGH_CARD.legal_actions(state, seat)[0]  # the lowest card
            state, _ = HIGH_CARD.apply(state, seat, action)
    text = render_outcome(finished_match(outcome), seat=0)
    assert f"match over: {outcome.reason}" in text
    for seat, rank in enumerate(outcome.ranks):
        assert f"seat {seat} (" in text and f"score {outcome.scores[seat]:g}" in text  # type: ignore[index]
        assert rank in (1, 2)


def test_status_line_and_events() -> None:
    match = match_pb2.Match(id="m-1", game="high-card", status=match_pb2.MATCH_STATUS_RUNNING, version=3, to_act=[1])
    assert render_status(match, 0) == "high-card · match m-1 · running · v3 · waiting for seat 1"
    match.to_act[:] = [0, 1]
    assert render_status(match, 0).endswith("your turn (with seat 1)")
    update = MatchUpdate(
        version=4,
        seat=0,
        data={},
        to_act=(0,),
        outcome=None,
        events=(GameEvent("committed", {"seat": 1}, ()), GameEvent("tick", {}, ())),
    )
    assert render_events(update) == ['v4 · committed {"seat":1}', "v4 · tick"]
