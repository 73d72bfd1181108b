"""Scenarios S-13..S-25: NV, DMG definition, signature-spell and item clarifications."""

from __future__ import annotations

from gamehall.engine.rng import Rng
from gamehall.games.grimslingers import GAME
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.actions import Choose, EndStandoff, Pick, Play, Reload, Scavenge
from gamehall.games.grimslingers.content.schema import Branch, Effect
from gamehall.games.grimslingers.effects import Cast, boosted, compute
from gamehall.games.grimslingers.revival import JUJU
from gamehall.games.grimslingers.state import PromptKind, Resource

from .builders import BASICS, P, build, keys, turn


def test_S_13_nv_adds_to_numerals_not_words() -> None:
    dmg = Effect("dmg", n=2)
    foes_as_word = Effect("dmg", n=2, word=True)  # "any two foes": a count written as a word
    foes_as_numeral = Effect("dmg", n=2)  # "any 2 foes"
    assert boosted(dmg, 1) == 3
    assert boosted(foes_as_word, 1) == 2
    assert boosted(foes_as_numeral, 1) == 3


def test_S_14_roll_faces_are_not_nv() -> None:
    roll = Effect(
        "roll",
        branches=[
            Branch([1, 2, 3], [Effect("heal", who="self", n=3)]),
            Branch([4, 5, 6], [Effect("gain_ep", who="self", n=3)]),
        ],
    )
    s = build([P(hp=4, ep=4), P()])
    seen = set()
    for seed in range(40):
        atoms = compute(s, Cast(0, [0], nv_boost=1), [roll], Rng(seed))
        face = next(a[2] for a in atoms if a[1] == -1)
        gain = next(a for a in atoms if a[1] in (Resource.HP, Resource.EP))
        assert gain[2] == 4
        assert gain[1] == (Resource.HP if face <= 3 else Resource.EP)
        seen.add(gain[1])
    assert seen == {Resource.HP, Resource.EP}


def test_S_15_reduce_hp_is_not_damage() -> None:
    s = build([P(), P(hp=7, ep=5, archetype="forgotten", max_hp=10, max_ep=10)], options={"archetypes": True})
    s.seats[1].bloodlust_active = True
    cast = Cast(0, [1])
    atoms = compute(s, cast, [Effect("set_hp", n=1)], Rng(0))
    assert cast.absorbable == {} and s.seats[1].bloodlust_tally == 0  # no True Grit, no Bloodlust tally
    assert atoms[0][2] == 1


def test_S_16_equilibrium_copies_lightning() -> None:
    s = build([P(hand=[*BASICS, "Equilibrium"]), P()])
    s = turn(s, fire={0: Play("Equilibrium"), 1: Play("LIGHTNING")}, answers={0: [Choose(1)]})
    a, b = s.seats
    assert (a.hp, b.hp, b.ep, a.ep) == (5, 5, 9, 7)


def test_S_16_variant_everything_becomes_redirect_is_a_wash() -> None:
    s = build([P(hand=[*BASICS, "Equilibrium"]), P(hand=[*BASICS, "Redirect"])])
    s = turn(s, fire={0: Play("Equilibrium"), 1: Play("Redirect")}, answers={0: [Choose(1)]})
    a, b = s.seats
    assert (a.hp, b.hp) == (8, 8) and (a.ep, b.ep) == (6, 6)


def _bloodlust(protector: str):  # type: ignore[no-untyped-def]
    # seats [A (FP), X, B, Y]; teams {A, B} and {X, Y}
    a = P(hand=[*BASICS, "Bloodlust"])
    b = P(hand=[*BASICS, protector])
    s = build([a, P(), b, P()], mode="versus-teams")
    s = turn(
        s,
        aims={0: 1, 1: 0, 2: 0, 3: 0},
        fire={0: Play("Bloodlust"), 2: Play(protector), 1: Play("LIGHTNING"), 3: Play("FIRE")},
    )
    return s


def test_S_17_bloodlust_tally_counts_prevented_damage() -> None:
    s = _bloodlust("Exalt")
    a = s.seats[0]
    assert a.hp == 9 and a.bloodlust_bonus == 5  # Exalt: no DMG taken (+1 HP), tally 3 + 2
    s = turn(s)  # turn 2: everyone passes
    assert s.seats[0].bloodlust_bonus == 5
    s = turn(s, aims={0: 1, 1: 0, 2: 1, 3: 0}, fire={0: Play("FIRE")})
    assert s.seats[1].hp == 8 - 7 and s.seats[0].bloodlust_bonus == 0


def test_S_17_variant_a_evert_converts_so_no_tally() -> None:
    s = _bloodlust("Evert")
    assert s.seats[0].bloodlust_bonus == 0 and s.seats[0].hp == 10


def test_S_17_variant_b_bloodlust_reloaded_keeps_bonus() -> None:
    s = _bloodlust("Exalt")
    s = turn(s, standoff={0: [Reload(), Pick("Bloodlust")]})
    assert "Bloodlust" in keys(s.seats[0].hand) and s.seats[0].bloodlust_bonus == 5


def test_S_18_resurrect_triggers_immediately() -> None:
    a = P(hp=2, ep=5, hand=[*BASICS, "Resurrect", "Magnify"])
    s = build([P(), a])
    s = turn(s, fire={0: Play("LIGHTNING"), 1: Play("Magnify")}, answers={1: [Choose(3)]})
    me = s.seats[1]
    assert (me.hp, me.ep, me.alive) == (3, 0, True)
    assert {"Resurrect", "Magnify"} <= set(keys(me.discard)) and s.seats[0].hp == 4  # Magnify: 4 DMG (designed)


def test_S_18_skipped_resurrect_cannot_be_used_later() -> None:
    a = P(hp=2, ep=5, hand=[*BASICS, "Resurrect", "Magnify"])
    s = build([P(), a])
    s = turn(s, fire={0: Play("LIGHTNING"), 1: Play("Magnify")}, answers={1: [Choose(0)]})
    assert not s.seats[1].alive
    assert Play("Resurrect") not in GAME.legal_actions(build([P(), a]), 1)


def test_S_19_scourge_lifecycle() -> None:
    s = build([P(hand=[*BASICS, "Scourge"]), P()])
    s = turn(s, fire={0: Play("Scourge"), 1: Play("ICE")})
    # `turn` returns once the next Standoff has opened, so Scourge has already bitten once
    assert s.scourge_on == 1 and (s.seats[0].hp, s.seats[0].ep) == (6, 4) and s.seats[1].hp == 7
    assert "Scourge" not in keys(s.seats[0].discard)
    # item 22 (was "... or s.current != 0", true whenever B was first): A tries to Reload Scourge
    # and may not, since it is not in A's discard (even with another spell there to reload)
    probe = GAME.copy(s)
    probe.seats[0].discard.append(cat.ID["FIRE"])
    probe.seats[0].hand.remove(cat.ID["FIRE"])
    if probe.current != 0:
        probe, _ = GAME.apply(probe, probe.current, EndStandoff())
    assert probe.current == 0
    probe, _ = GAME.apply(probe, 0, Reload())
    picks = GAME.legal_actions(probe, 0)
    assert Pick("FIRE") in picks and Pick("Scourge") not in picks
    s = turn(s)
    assert s.seats[1].hp == 6
    s = turn(s, fire={1: Play("EARTH")})
    assert s.seats[1].hp == 8 and s.scourge_on == -1 and "Scourge" in keys(s.seats[0].discard)
    assert s.seats[0].hp == 4
    s = turn(s)
    assert s.seats[1].hp == 8


def _specter_turn1():  # type: ignore[no-untyped-def]
    a = P(hp=3, ep=4, hand=[*BASICS, "Specter"])
    s = build([P(), a])
    s = turn(s, fire={0: Play("LIGHTNING"), 1: Play("ICE")}, answers={1: [Choose(1)]})
    assert (s.seats[1].hp, s.seats[1].ep, s.seats[1].alive) == (4, 3, True)
    assert "ICE" in keys(s.seats[1].deact)
    return s


def test_S_20_specter_success() -> None:
    s = turn(_specter_turn1(), fire={1: Play("LIGHTNING")})
    assert s.seats[1].alive and s.seats[1].hp == 4 and s.seats[1].specter_turn == -1 and s.seats[0].hp == 5
    s = turn(s)
    assert s.seats[1].alive


def test_S_21_specter_failure() -> None:
    s = turn(_specter_turn1(), fire={1: Play("FIRE")})
    assert not s.seats[1].alive and GAME.outcome(s).winners() == (0,)  # type: ignore[union-attr]


def test_S_22_specter_kills_first_and_wins() -> None:
    s = _specter_turn1()
    s.seats[0].hp = 2
    s.seats[0].hand.append(cat.ID["Magnify"])
    assert s.first_player == 1
    s = turn(s, fire={0: Play("Magnify"), 1: Play("FIRE")})
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.ranks == (2, 1)
    assert "Magnify" in keys(s.seats[0].deact)


def test_S_22_specter_needs_two_ep_and_a_foes_card() -> None:
    a = P(hp=2, ep=0, hand=[*BASICS, "Specter"])
    s = build([P(), a])
    s = turn(s, fire={0: Play("FIRE"), 1: Play("WATER")})
    assert not s.seats[1].alive  # EP 0: no Specter offer


def test_S_23_revive_juju_deactivated_by_wind() -> None:
    a = P(hp=1, hand=["revive_juju.1", "FIRE", "WATER", "EARTH"])
    s = build([P(), a], options={"items": True})
    s = turn(s, fire={0: Play("WIND"), 1: Play("EARTH")})
    assert not s.seats[1].alive and "revive_juju.1" in keys(s.seats[1].deact)


def test_S_23_variant_juju_survives_and_revives() -> None:
    for seed in range(60):
        a = P(hp=1, hand=["revive_juju.1", "FIRE", "WATER", "ICE", "EARTH"])
        s = build([P(), a], options={"items": True}, seed=seed)
        for seat in (0, 1):
            s, _ = GAME.apply(s, seat, EndStandoff())
        s, _ = GAME.apply(s, 0, Play("WIND"))
        s, _ = GAME.apply(s, 1, Play("EARTH"))
        if s.prompts and Choose(JUJU) in GAME.legal_actions(s, 1):
            assert s.prompts[0].kind == PromptKind.RESURRECT  # the secret revival offer (item 5)
            s, _ = GAME.apply(s, 1, Choose(JUJU))
            assert s.seats[1].hp in (1, 3)  # 1, then EARTH heals 2 unless EARTH was already... (it resolves after)
            assert "revive_juju.1" in keys(s.item_discard)
            return
    raise AssertionError("no seed kept the Juju in hand")


def test_S_24_scavenge_costs_and_instant_timing() -> None:
    field = ["prosthetic_pistol.1", "lucky_charm.1", "tumbleweed_totem.1"]
    s = build(
        [P(ep=0), P(ep=3)],
        options={"items": True},
        field_=field,
        item_deck=["bandages.1", "snake_oil.2", "snake_oil.1"],
    )
    legal = GAME.legal_actions(s, 0)
    assert Scavenge(0) not in legal and Scavenge(1) in legal
    s, _ = GAME.apply(s, 0, Scavenge(1))
    assert keys(s.field) == ["prosthetic_pistol.1", "snake_oil.1", "tumbleweed_totem.1"] and s.seats[0].ep == 0
    assert GAME.to_act(s) == {1}  # one Standoff action: seat 0 is done
    s, _ = GAME.apply(s, 1, Scavenge(0))
    assert s.seats[1].ep == 2 and "prosthetic_pistol.1" in keys(s.seats[1].hand)
    s = turn(s)
    s.seats[1].ep = 5
    s, _ = GAME.apply(s, s.first_player, EndStandoff()) if s.first_player == 0 else (s, [])
    s, _ = GAME.apply(s, 1, Scavenge(2))
    assert s.seats[1].ep == 6 and "tumbleweed_totem.1" in keys(s.item_discard)
    assert keys(s.field)[2] == "bandages.1"


def test_S_25_unstable_dynamite_explodes_or_stays() -> None:
    outcomes = set()
    for seed in range(30):
        s = build(
            [P(), P()],
            options={"items": True},
            field_=["unstable_dynamite.1", "snake_oil.1", "snake_oil.2"],
            item_deck=["whiskey_flask.1"],
            seed=seed,
        )
        s, events = GAME.apply(s, 0, Scavenge(0))
        face = next(e.data["face"] for e in events if e.kind == "rolled")
        me = s.seats[0]
        if face <= 2:
            assert me.hp == 5 and "unstable_dynamite.1" in keys(s.item_discard)
        else:
            assert me.hp == 8 and "unstable_dynamite.1" in keys(me.hand)
            s = turn(s, fire={0: Play("unstable_dynamite.1")})
            assert s.seats[1].hp == 5
        assert keys(s.field)[0] == "whiskey_flask.1"  # item 22: the slot refills either way
        outcomes.add(face <= 2)
    assert outcomes == {True, False}


def test_S_24_instant_resolves_before_refill() -> None:
    s = build(
        [P(ep=5), P()],
        options={"items": True},
        field_=["cursed_coin.1", "snake_oil.1", "snake_oil.2"],
        item_deck=["whiskey_flask.1"],
    )
    s, events = GAME.apply(s, 0, Scavenge(0))
    kinds = [e.kind for e in events]
    # the Instant resolves (its roll) before the field is refilled from the deck (S-24 test c)
    assert "rolled" in kinds and keys(s.field)[0] == "whiskey_flask.1"
    face = next(e.data["face"] for e in events if e.kind == "rolled")
    assert (s.seats[0].hp, s.seats[0].ep) == ((6, 5) if face <= 3 else (8, 8))
    assert "cursed_coin.1" not in keys(s.seats[0].hand)  # an Instant never reaches the hand
    # item 22: S-24 test e, one core Standoff action: the scavenge used it, a second item is refused
    assert GAME.to_act(s) == {1}
    assert GAME.legal_actions(s, 0) == []
    assert not any(p.kind in (PromptKind.TRUE_GRIT, PromptKind.RESURRECT, PromptKind.EQUILIBRIUM) for p in s.prompts)
