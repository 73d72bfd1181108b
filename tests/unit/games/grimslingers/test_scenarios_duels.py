"""Scenarios S-01..S-12: the books' versus and archetype examples (../shared/rules/grimslingers.md, Part C)."""

from __future__ import annotations

from gamehall.games.grimslingers import GAME
from gamehall.games.grimslingers.actions import (
    BloodFeast,
    Cheat,
    Choose,
    IntoDarkness,
    Pick,
    Play,
    Purge,
    Reload,
    Sacrifice,
    SpellFlare,
    Surge,
)
from gamehall.games.grimslingers.state import PromptKind

from .builders import BASICS, P, build, keys, turn

KYLE_HAND = [*BASICS, "Magnify", "Pierce"]
PAIGE_HAND = ["FIRE", "WATER", "WIND", "ICE", "LIGHTNING", "Hush", "Salve"]


def _kyle_paige(fp: int, paige_card: str, mode: str = "versus-1v1"):  # type: ignore[no-untyped-def]
    s = build([P(hand=KYLE_HAND), P(hp=4, ep=6, hand=PAIGE_HAND, discard=["EARTH"])], fp=fp, mode=mode)
    return turn(
        s,
        standoff={0: [Surge(), Pick("WATER"), Pick("WIND"), Pick("Magnify")], 1: [Reload(), Pick("EARTH")]},
        fire={0: Play("LIGHTNING"), 1: Play(paige_card)},
    )


def test_S_01_kyle_paige_element_resolution() -> None:
    s = _kyle_paige(0, "EARTH")
    kyle, paige = s.seats
    assert (kyle.hp, kyle.ep, paige.hp, paige.ep) == (6, 8, 6, 3)
    assert sorted(keys(kyle.hand)) == sorted(["FIRE", "EARTH", "ICE", "Pierce"])
    assert keys(kyle.discard) == ["LIGHTNING"] and sorted(keys(kyle.deact)) == ["Magnify", "WATER", "WIND"]
    assert not kyle.surged and keys(paige.discard) == ["EARTH"]
    assert s.first_player == 1


def test_S_01_variant_a_paige_first_player_same_end() -> None:
    s = _kyle_paige(1, "EARTH")
    assert (s.seats[0].hp, s.seats[1].hp, s.seats[1].ep) == (6, 6, 3)
    assert keys(s.seats[0].discard) == ["LIGHTNING"]


def test_S_01_variant_b_surged_lightning_defeats_paige() -> None:
    s = _kyle_paige(0, "ICE")
    assert GAME.outcome(s) is not None and GAME.outcome(s).winners() == (0,)  # type: ignore[union-attr]
    assert (s.seats[0].hp, s.seats[0].ep) == (8, 8)
    assert s.seats[1].ep == 5 and "ICE" in keys(s.seats[1].deact)


def test_S_02_zach_julie_advanced_duels() -> None:
    s = _kyle_paige(0, "EARTH", mode="advanced-duels")
    assert (s.seats[0].hp, s.seats[1].hp, s.seats[1].ep) == (6, 6, 3)
    assert s.first_player == 1


def test_S_02_one_anima_ability_per_turn() -> None:
    s = build([P(hand=KYLE_HAND), P(hp=4, ep=6, hand=PAIGE_HAND, discard=["EARTH"])], mode="advanced-duels")
    for a in (Surge(), Pick("WATER"), Pick("WIND"), Pick("Magnify")):
        s, _ = GAME.apply(s, 0, a)
    legal = GAME.legal_actions(s, 0)
    assert Reload() not in legal and Purge() not in legal and Sacrifice(1) in legal
    s, _ = GAME.apply(s, 0, Sacrifice(1))
    assert GAME.to_act(s) == {1}
    s, _ = GAME.apply(s, 1, Reload())
    s, _ = GAME.apply(s, 1, Pick("EARTH"))
    assert Purge() not in GAME.legal_actions(s, 1) and Sacrifice(1) in GAME.legal_actions(s, 1)
    s, _ = GAME.apply(s, 1, Sacrifice(1))
    assert (s.seats[1].hp, s.seats[1].ep) == (3, 4)


def _ffa(seats: list[P], fp: int, aims: dict[int, int], fire: dict[int, Play], **kw):  # type: ignore[no-untyped-def]
    return turn(build(seats, fp=fp, **kw), aims=aims, fire=fire)


def test_S_03_three_player_ffa() -> None:
    ian = P(hp=5, ep=4, hand=[*BASICS, "Magnify"])
    s = _ffa([ian, P(), P()], 0, {1: 2, 2: 0, 0: 1}, {1: Play("WIND"), 2: Play("ICE"), 0: Play("Magnify")})
    ian_s, andrew, maggie = s.seats
    assert (andrew.hp, andrew.ep, keys(andrew.discard)) == (8, 8, ["WIND"])
    assert (maggie.hp, maggie.ep, keys(maggie.discard)) == (8, 8, ["ICE"])
    assert (ian_s.hp, ian_s.ep, keys(ian_s.deact)) == (3, 0, ["Magnify"])
    assert all(x.aim == -1 for x in s.seats) and s.first_player == 1


def test_S_03_variant_resolved_ice_no_longer_beats_wind() -> None:
    # seats [Maggie (FP), Ian, Andrew]: Maggie's ICE resolves before Andrew's WIND reaches her
    ian = P(hp=5, ep=4, hand=[*BASICS, "Magnify"])
    s = _ffa([P(), ian, P()], 0, {2: 0, 0: 1, 1: 2}, {2: Play("WIND"), 0: Play("ICE"), 1: Play("Magnify")})
    maggie, ian_s, _ = s.seats
    assert (ian_s.hp, ian_s.ep) == (3, 0)
    assert maggie.hp == 7 and len(maggie.hand) == 5 - 3 and len(maggie.deact) == 3


def _redirect(order: list[str], cycle: str = "A"):  # type: ignore[no-untyped-def]
    people = {"Kevin": P(hp=4, hand=[*BASICS, "Redirect"]), "Miles": P(hp=5), "Erica": P()}
    seats = [people[name] for name in order]
    idx = {name: i for i, name in enumerate(order)}
    kevin, miles, erica = idx["Kevin"], idx["Miles"], idx["Erica"]
    s = build(seats, fp=0, flags={"element_cycle": cycle})
    return idx, turn(
        s,
        aims={erica: kevin, miles: kevin, kevin: miles},
        fire={erica: Play("LIGHTNING"), miles: Play("FIRE"), kevin: Play("Redirect")},
        answers={kevin: [Choose(miles), Choose(miles)]},
    )


def test_S_04_redirect_erica_miles_kevin() -> None:
    idx, s = _redirect(["Kevin", "Miles", "Erica"])
    kevin, miles, erica = (s.seats[idx[k]] for k in ("Kevin", "Miles", "Erica"))
    assert not miles.alive and miles.hp == 0
    assert (kevin.hp, kevin.ep, erica.hp, erica.ep) == (4, 6, 8, 8)
    assert kevin.alive and erica.alive


def test_S_04_discriminating_seating_under_option_a() -> None:
    idx, s = _redirect(["Kevin", "Erica", "Miles"])
    assert not s.seats[idx["Miles"]].alive


def test_S_05_redirect_turns_a_spell_on_its_caster() -> None:
    s = build([P(hand=[*BASICS, "Redirect"]), P()])
    prompts = []
    s = turn(s, fire={0: Play("Redirect"), 1: Play("FIRE")}, answers={0: [Choose(1)]}, events=prompts)
    a, b = s.seats
    assert (a.hp, b.hp) == (8, 6) and len(b.hand) == 4
    assert next(e for e in prompts if e.kind == "resolved").data["card"] == "Redirect"


def test_S_06_daemon_into_darkness() -> None:
    daniel = P(archetype="daemon", max_hp=10, max_ep=10)
    s = _ffa(
        [daniel, P(), P()],
        0,
        {1: 0, 2: 0, 0: 1},
        {0: IntoDarkness(), 1: Play("LIGHTNING"), 2: Play("ICE")},
        options={"archetypes": True},
    )
    d, o1, o2 = s.seats
    assert (d.hp, d.ep) == (6, 10)
    assert keys(o1.discard) == ["LIGHTNING"] and keys(o2.discard) == ["ICE"]


def test_S_06_counterfactual_plain_pass() -> None:
    daniel = P(archetype="daemon", max_hp=10, max_ep=10)
    s = _ffa(
        [daniel, P(), P()], 0, {1: 0, 2: 0, 0: 1}, {1: Play("LIGHTNING"), 2: Play("ICE")}, options={"archetypes": True}
    )
    # the spec writes EP 8+2+1-2 = 9, ignoring the cap: the pass takes EP to 10, LIGHTNING's +1 is lost
    # at the cap (each card resolves on its own), then ICE drains 2 -> 8
    assert (s.seats[0].hp, s.seats[0].ep) == (3, 8)


def _susan(absorb: int):  # type: ignore[no-untyped-def]
    s = build([P(), P(hp=2, ep=9, archetype="forgotten", max_hp=10, max_ep=10)], options={"archetypes": True})
    return turn(s, fire={0: Play("FIRE"), 1: Play("WATER")}, answers={1: [Choose(absorb)]})


def test_S_07_forgotten_true_grit() -> None:
    s = _susan(2)
    susan = s.seats[1]
    assert (susan.hp, susan.ep, susan.alive) == (2, 9, True)
    assert len(susan.hand) == 4  # FIRE's non-DMG FX still applied (1 random discard)


def test_S_07_variant_a_partial_absorption() -> None:
    s = _susan(1)
    assert (s.seats[1].hp, s.seats[1].ep) == (1, 10)


def test_S_07_variant_b_scourge_loss_cannot_be_absorbed() -> None:
    s = build(
        [P(hand=[*BASICS, "Scourge"]), P(hp=5, ep=9, archetype="forgotten", max_hp=10, max_ep=10)],
        options={"archetypes": True},
    )
    s = turn(s, fire={0: Play("Scourge")})
    assert s.scourge_on == 1 and s.seats[1].hp == 4 and not any(p.kind == PromptKind.TRUE_GRIT for p in s.prompts)


def test_S_08_outlaw_dirty_cheat() -> None:
    helga = P(hand=["ICE", "FIRE", "WATER", "EARTH"])
    bobby = P(ep=5, archetype="outlaw", max_hp=10, max_ep=10)
    s = build([helga, bobby], options={"archetypes": True})
    s, _ = GAME.apply(s, 0, __import__("gamehall.games.grimslingers.actions", fromlist=["EndStandoff"]).EndStandoff())
    s = turn(s, fire={0: Play("ICE"), 1: Play("EARTH")}, answers={1: [Cheat("WIND", 0)]})
    h, b = s.seats
    assert (b.hp, b.ep, keys(b.discard)) == (8, 1, ["WIND", "EARTH"])
    assert (h.hp, h.ep, h.hand) == (6, 8, []) and sorted(keys(h.deact)) == ["EARTH", "FIRE", "WATER"]


def test_S_08_cheat_is_offered_only_after_every_commitment() -> None:
    s = build([P(), P(archetype="outlaw")], options={"archetypes": True})
    s = turn(s, fire={}, answers={}) if False else s
    from gamehall.games.grimslingers.actions import EndStandoff

    s, _ = GAME.apply(s, 0, EndStandoff())
    s, _ = GAME.apply(s, 1, EndStandoff())
    s, _ = GAME.apply(s, 0, Play("ICE"))  # core Step Two is declared in turn order, FP first
    assert not s.prompts and GAME.to_act(s) == {1}
    s, _ = GAME.apply(s, 1, Play("FIRE"))
    assert s.prompts and s.prompts[0].kind == PromptKind.DIRTY_CHEAT and s.prompts[0].seat == 1


def test_S_08_cheated_paralyze_touches_no_face_down_card() -> None:
    s = build([P(), P(archetype="outlaw", hand=[*BASICS, "Paralyze"])], options={"archetypes": True})
    s = turn(s, fire={0: Play("FIRE"), 1: Play("ICE")}, answers={1: [Cheat("Paralyze", 0)]})
    # FIRE (FP) beats ICE under cycle A, so Paralyze had nothing to act on and FIRE still resolved
    assert s.seats[1].hp == 6 and "Paralyze" in keys(s.seats[1].discard)


def _janice(fp_is_janice: bool):  # type: ignore[no-untyped-def]
    janice = P(hp=2, ep=0, archetype="revenant", max_hp=10, max_ep=10)
    seats = [janice, P()] if fp_is_janice else [P(), janice]
    j = 0 if fp_is_janice else 1
    s = build(seats, options={"archetypes": True})
    return j, turn(s, fire={j: Play("WATER"), 1 - j: Play("FIRE")}, answers={j: [Choose(2)]})


def test_S_09_revenant_janice() -> None:
    j, s = _janice(True)
    assert (s.seats[j].hp, s.seats[j].ep, s.seats[j].alive) == (2, 0, True)
    assert s.seats[1 - j].hp == 6


def test_S_09_counter_opponent_first_defeats_janice() -> None:
    j, s = _janice(False)
    assert not s.seats[j].alive and "WATER" in keys(s.seats[j].deact)
    assert GAME.outcome(s).winners() == (1 - j,)  # type: ignore[union-attr]


def test_S_10_revenant_revives_with_lightnings_ep() -> None:
    r = P(hp=3, ep=0, archetype="revenant", max_hp=10, max_ep=10, hand=[*BASICS, "Magnify"])
    s = build([P(), r], options={"archetypes": True})
    s = turn(s, fire={0: Play("LIGHTNING"), 1: Play("Magnify")}, answers={1: [Choose(1)]})
    assert (s.seats[1].hp, s.seats[1].ep, s.seats[1].alive) == (1, 0, True)


def test_S_11_vampyre_blood_feast() -> None:
    kate = P(hp=2, ep=4)
    darren = P(hp=5, ep=5, archetype="vampyre", max_hp=10, max_ep=10)
    s = build([kate, darren], options={"archetypes": True})
    s = turn(s, fire={0: Play("EARTH"), 1: BloodFeast()})
    assert not s.seats[0].alive and keys(s.seats[0].deact) == ["EARTH"]
    assert (s.seats[1].hp, s.seats[1].ep) == (7, 5)
    assert GAME.outcome(s).winners() == (1,)  # type: ignore[union-attr]


def test_S_12_witchborn_spell_flare() -> None:
    anna = P(archetype="witchborn", max_hp=10, max_ep=10)
    chris = P(ep=3, hand=[*BASICS, "Magnify"])
    s = build([anna, chris], options={"archetypes": True})
    s = turn(s, standoff={0: [SpellFlare()]}, fire={0: Play("ICE"), 1: Play("Magnify")})
    assert (s.seats[1].hp, s.seats[1].ep, keys(s.seats[1].deact)) == (5, 0, ["Magnify"])
    assert keys(s.seats[0].discard) == ["ICE"]


def test_S_09_revenant_prompt_is_immediate() -> None:
    janice = P(hp=2, ep=3, archetype="revenant", max_hp=10, max_ep=10)
    s = build([P(), janice], options={"archetypes": True})
    from gamehall.games.grimslingers.actions import EndStandoff

    s, _ = GAME.apply(s, 0, EndStandoff())
    s, _ = GAME.apply(s, 1, EndStandoff())
    s, _ = GAME.apply(s, 0, Play("FIRE"))
    s, _ = GAME.apply(s, 1, Play("EARTH"))
    assert s.prompts and s.prompts[0].kind == PromptKind.RESURRECT  # the secret offer first (item 5)
    s, _ = GAME.apply(s, 1, Choose(0))
    assert s.prompts and s.prompts[0].kind == PromptKind.REVENANT and s.prompts[0].options == [0, 1, 2, 3]
