"""The stored form of a match state: readable Python names, the established encoded names."""

from __future__ import annotations

import msgspec

from gamehall.engine.protocol import MatchConfig
from gamehall.games.grimslingers import GAME
from gamehall.games.grimslingers.state import Phase, State

STORED_NAMES = [
    "mode",
    "n",
    "items",
    "archetypes",
    "draft",
    "light_dark",
    "flags",
    "rng",
    "seats",
    "phase",
    "turn",
    "fp",
    "cur",
    "order",
    "draft_round",
    "standoff_open",
    "plays",
    "cur_play",
    "stage",
    "pending",
    "prompts",
    "picking",
    "sig_deck",
    "item_deck",
    "field",
    "item_discard",
    "defused",
    "scourge_on",
    "scourge_owner",
    "scourge_n",
    "scourge_card",
    "instant",
    "creature",
    "ckey",
    "mods",
    "difficulty",
    "config_creature",
    "config_modifiers",
    "cdeck",
    "low_hp",
    "calm",
    "box",
    "evert",
    "out_steps",
    "ranks",
    "reason",
]


def test_stored_field_names_did_not_change_with_the_readable_attributes() -> None:
    assert list(State.__struct_encode_fields__)[: len(STORED_NAMES)] == STORED_NAMES


def test_enums_are_stored_as_plain_ints_and_decode_back() -> None:
    s = GAME.new_match(MatchConfig("versus-1v1", 2), 7)
    raw = msgspec.json.decode(msgspec.json.encode(s))
    assert raw["phase"] == int(s.phase) and type(raw["phase"]) is int
    back = msgspec.json.decode(msgspec.json.encode(s), type=State)
    assert back == s and isinstance(back.phase, Phase)
