"""Hidden information: what a seat and a spectator may see."""

from __future__ import annotations

import json
import random

import pytest

from gamehall.engine.errors import IllegalAction
from gamehall.games.grimslingers import GAME
from gamehall.games.grimslingers.actions import EndStandoff, Pick, Play, Surge

from .builders import BASICS, P, build


def test_commitment_is_secret_until_everyone_committed() -> None:
    s = build([P(hand=[*BASICS, "Magnify"]), P()], flags={"draw_in_turn_order": False})
    for seat in (0, 1):
        s, _ = GAME.apply(s, seat, EndStandoff())
    s, _ = GAME.apply(s, 0, Play("Magnify"))
    other = GAME.view(s, 1)
    assert other["players"][0]["commit"] is None and other["players"][0]["decided"] is True
    assert other["players"][0]["hand_size"] == 7  # the face-down card still counts in the hand
    assert "Magnify" not in json.dumps(other) and "Magnify" not in json.dumps(GAME.view(s, None))
    assert GAME.view(s, 0)["my_commit"] == {"kind": "play", "cards": ["Magnify"]}


def test_hand_deactivated_pile_and_rng_are_hidden() -> None:
    s = build([P(hand=[*BASICS, "Pierce"]), P()])
    for a in (Surge(), Pick("Pierce"), Pick("FIRE"), Pick("ICE")):
        s, _ = GAME.apply(s, 0, a)
    text = json.dumps(GAME.view(s, 1))
    assert "Pierce" not in text and "hand" not in GAME.view(s, None) and "rng" not in text
    assert GAME.view(s, 1)["players"][0]["deactivated_size"] == 3
    assert GAME.view(s, 0)["deactivated"] == ["Pierce", "FIRE", "ICE"]


def test_determinize_keeps_view_and_legal_actions() -> None:
    s = build([P(hand=[*BASICS, "Pierce", "Hush"]), P(hand=[*BASICS, "Magnify", "Salve"])])
    v = GAME.view(s, 0)
    guess = GAME.determinize(json.loads(json.dumps(v)), 0, random.Random(3))
    assert GAME.view(guess, 0) == v and list(GAME.legal_actions(guess, 0)) == list(GAME.legal_actions(s, 0))
    assert len(guess.seats[1].hand) == 8


def test_illegal_actions_are_named() -> None:
    s = build([P(), P()])
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, Play("Magnify"))


def test_core_step_two_shows_that_a_seat_played_but_not_the_card() -> None:
    s = build([P(hand=[*BASICS, "Magnify"]), P()])
    for seat in (0, 1):
        s, _ = GAME.apply(s, seat, EndStandoff())
    s, _ = GAME.apply(s, 0, Play("Magnify"))
    other = GAME.view(s, 1)
    assert other["players"][0]["commit"] == "play" and other["players"][0]["hand_size"] == 7
    assert "Magnify" not in json.dumps(other) and "Magnify" not in json.dumps(GAME.view(s, None))
