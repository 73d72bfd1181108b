"""The character pack: 45 designed characters, 9 per faction, schema-valid and rule-sound."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from gamehall.engine.content import ContentError, decode_pack
from gamehall.games.grimmoir.catalog import CARDS, FACTIONS, PACK, build_catalog
from gamehall.games.grimmoir.content.schema import CharacterPack, Effect, Skill, check_character, check_pack


def test_45_characters_9_per_faction() -> None:
    assert len(PACK.characters) == 45
    assert Counter(c.faction for c in PACK.characters) == {f: 9 for f in FACTIONS}


def test_every_character_is_designed_with_a_ref() -> None:
    for c in PACK.characters:
        assert c.provenance.source == "designed", c.id
        assert c.provenance.ref.strip()


def test_pack_is_schema_valid_and_rule_sound() -> None:
    assert check_pack(PACK) == []
    assert len({c.id for c in PACK.characters}) == 45
    assert len({c.name for c in PACK.characters}) == 45
    for c in PACK.characters:
        assert c.id.startswith(c.faction[:3] + "-")
        assert c.skills and all(s.text.strip() for s in c.skills)
        assert 1 <= c.attack <= 5 and 3 <= c.strength <= 10


def test_pen_numbers_and_books_match_the_icons() -> None:
    for c in CARDS:
        assert (c.pens > 0) == (c.source.icon == "pen"), c.id
        assert c.pens <= 3, c.id
        assert c.has_book == (c.special is not None), c.id


def test_skills_use_the_effect_language_broadly() -> None:
    triggers = {s.trigger for c in PACK.characters for s in c.skills}
    assert triggers == {"on_attack", "on_attacked", "special", "end_of_round", "on_death", "passive"}
    ops = {e.op for c in PACK.characters for s in c.skills for e in s.effects}
    assert {
        "damage",
        "wound",
        "heal",
        "strengthen",
        "weaken",
        "drain_coins",
        "gain_coins",
        "prepare",
        "add_pen",
        "swap_rows",
        "armor",
        "attack_bonus",
    } <= ops


def test_schema_rejects_unknown_fields_and_bad_values() -> None:
    good = msgspec.json.encode(PACK)
    assert decode_pack(good, CharacterPack, "x").characters[0].id == PACK.characters[0].id
    bad = good.replace(b'"trigger":"passive"', b'"trigger":"sometimes"', 1)
    with pytest.raises(ContentError, match=r"sometimes|Invalid enum"):
        decode_pack(bad, CharacterPack, "x")
    with pytest.raises(ContentError):
        decode_pack(good.replace(b'"theme"', b'"flavour"', 1), CharacterPack, "x")


def test_rule_checks_catch_unsound_cards() -> None:
    card = next(c for c in PACK.characters if c.icon == "book")
    no_book = msgspec.structs.replace(card, icon="none")
    assert any("only book characters" in p for p in check_character(no_book))
    passive_damage = msgspec.structs.replace(
        card, skills=(Skill(trigger="passive", text="x", effects=(Effect(op="damage", amount=1),)),), icon="none"
    )
    assert any("cannot be used by a passive" in p for p in check_character(passive_damage))
    twin = msgspec.structs.replace(PACK, characters=(*PACK.characters, PACK.characters[0]))
    with pytest.raises(ContentError, match="duplicate character id"):
        build_catalog(twin)
