"""Every rule flag changes the outcome of at least one scenario, as documented in rules.py."""

from __future__ import annotations

from gamehall.games.grimslingers import GAME
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.actions import (
    Cheat,
    Choose,
    EndStandoff,
    Pass,
    Pick,
    Play,
    Reactivate,
    Sacrifice,
    Scavenge,
    StopPicking,
)
from gamehall.games.grimslingers.rules import FLAGS
from gamehall.games.grimslingers.state import PromptKind

from .builders import BASICS, P, build, turn
from .test_scenarios_duels import _redirect


def test_every_flag_is_tested_here() -> None:
    tested = {name[len("test_flag_") :] for name in globals() if name.startswith("test_flag_")}
    assert tested == {f.name for f in FLAGS}


def test_flag_element_cycle() -> None:
    # S-04 discriminating seating: option B lets LIGHTNING beat Miles's FIRE, so he survives at 2 HP
    idx, a = _redirect(["Kevin", "Erica", "Miles"], "A")
    _, b = _redirect(["Kevin", "Erica", "Miles"], "B")
    assert not a.seats[idx["Miles"]].alive
    assert b.seats[idx["Miles"]].alive and b.seats[idx["Miles"]].hp == 2


def test_flag_wind_water_damage() -> None:
    hits = {}
    for split in ("1/2", "2/1"):
        s = turn(build([P(), P()], flags={"wind_water_damage": split}), fire={0: Play("WIND"), 1: Play("WATER")})
        hits[split] = (s.seats[1].hp, s.seats[0].hp)
    assert hits == {"1/2": (7, 6), "2/1": (6, 7)}


def test_flag_amnesia_pile() -> None:
    for pile in ("deactivate", "discard"):
        s = build([P(hand=[*BASICS, "Amnesia"]), P()], flags={"amnesia_pile": pile})
        s = turn(s, fire={0: Play("Amnesia")})
        b = s.seats[1]
        assert (len(b.deact), len(b.discard)) == ((3, 0) if pile == "deactivate" else (0, 3))


def test_flag_blood_feast_pass_bonus() -> None:
    for bonus, ep in ((True, 5), (False, 3)):
        s = build(
            [P(hp=2, ep=4), P(hp=5, ep=5, archetype="vampyre", max_hp=10, max_ep=10)],
            options={"archetypes": True},
            flags={"blood_feast_pass_bonus": bonus},
        )
        from gamehall.games.grimslingers.actions import BloodFeast

        s = turn(s, fire={0: Play("EARTH"), 1: BloodFeast()})
        assert s.seats[1].ep == ep


def test_flag_sacrifice_to_zero() -> None:
    assert Sacrifice(8) not in GAME.legal_actions(build([P(), P()]), 0)
    s = build([P(), P()], flags={"sacrifice_to_zero": True})
    s, _ = GAME.apply(s, 0, Sacrifice(8))
    assert s.seats[0].hp == 0
    s = turn(s)
    assert not s.seats[0].alive


def test_flag_reactivate_up_to() -> None:
    for up_to in (True, False):
        s = build(
            [P(deact=["Magnify", "Pierce", "Hush", "Salve", "Exalt", "Evert"]), P()], flags={"reactivate_up_to": up_to}
        )
        s, _ = GAME.apply(s, 0, Reactivate())
        s, _ = GAME.apply(s, 0, Pick("Magnify"))
        assert (StopPicking() in GAME.legal_actions(s, 0)) is up_to


def test_flag_revenant_immediate() -> None:
    hp = {}
    for immediate in (True, False):
        r = P(hp=3, ep=4, archetype="revenant", max_hp=10, max_ep=10, hand=[*BASICS, "Magnify"])
        s = build([P(), r], options={"archetypes": True}, flags={"revenant_immediate": immediate})
        s = turn(s, fire={0: Play("LIGHTNING"), 1: Play("Magnify")}, answers={1: [Choose(2)]})
        assert s.seats[1].alive
        hp[immediate] = s.seats[0].hp
    assert hp == {True: 4, False: 8}  # revived at once, Magnify (4 DMG) still resolves; else it is deactivated


def test_flag_fx_netting() -> None:
    hp = {}
    for netting in (True, False):
        s = build(
            [P(hp=10, hand=[*BASICS, "bloody_grimoire.1"]), P()], options={"items": True}, flags={"fx_netting": netting}
        )
        s = turn(s, fire={0: Play("EARTH", "bloody_grimoire.1")})
        hp[netting] = (s.seats[0].hp, s.seats[1].hp)
    assert hp == {True: (10, 4), False: (9, 4)}


def test_flag_equilibrium_copy_cost() -> None:
    eps = {}
    for copy_cost in (True, False):
        s = build(
            [P(hand=[*BASICS, "Equilibrium"]), P(), P(hand=[*BASICS, "Magnify"])],
            flags={"equilibrium_copy_cost": copy_cost},
        )
        s = turn(
            s,
            aims={0: 1, 1: 2, 2: 0},
            fire={0: Play("Equilibrium"), 1: Play("LIGHTNING"), 2: Play("Magnify")},
            answers={0: [Choose(2)]},
        )
        eps[copy_cost] = s.seats[1].ep
    assert eps == {True: 5, False: 8}


def test_flag_cheat_after_pass() -> None:
    for allowed in (True, False):
        s = build([P(), P(archetype="outlaw")], options={"archetypes": True}, flags={"cheat_after_pass": allowed})
        for seat in (0, 1):
            s, _ = GAME.apply(s, seat, EndStandoff())
        s, _ = GAME.apply(s, 0, Play("FIRE"))
        from gamehall.games.grimslingers.actions import Pass

        s, _ = GAME.apply(s, 1, Pass())
        assert bool(s.prompts and s.prompts[0].kind == PromptKind.DIRTY_CHEAT) is allowed


def test_flag_cheat_pays_spell_cost() -> None:
    lost = {}
    for pays in (True, False):
        s = build(
            [P(), P(ep=1, archetype="outlaw", hand=[*BASICS, "Amnesia"])],
            options={"archetypes": True},
            flags={"cheat_pays_spell_cost": pays},
        )
        s = turn(s, answers={1: [Cheat("Amnesia", 0)]})  # pass +2 EP, cheat 2 EP: 1 EP left for a cost of 2
        lost[pays] = len(s.seats[0].deact)
    assert lost == {True: 0, False: 3}


def test_flag_ad_repeat_actions() -> None:
    for repeat in (True, False):
        s = build([P(), P()], mode="advanced-duels", flags={"ad_repeat_actions": repeat})
        s, _ = GAME.apply(s, 0, Sacrifice(1))
        assert (Sacrifice(1) in GAME.legal_actions(s, 0)) is repeat


def test_flag_item_reshuffle() -> None:
    for reshuffle in (True, False):
        s = build(
            [P(), P()],
            options={"items": True},
            flags={"item_reshuffle": reshuffle},
            field_=["lucky_charm.1", "snake_oil.1", "snake_oil.2"],
            item_deck=[],
        )
        s.item_discard = [s.field[1]]
        s.field[1] = -1
        s, _ = GAME.apply(s, 0, Scavenge(0))
        # item 22: was "... if s.field[0] >= 0 else not reshuffle", which let a wrong refill pass
        assert s.field[0] == (cat.ID["snake_oil.1"] if reshuffle else -1)


def test_flag_draw_in_turn_order() -> None:
    for in_order in (True, False):
        s = build([P(), P()], flags={"draw_in_turn_order": in_order})
        for seat in (0, 1):
            s, _ = GAME.apply(s, seat, EndStandoff())
        assert GAME.to_act(s) == ({0} if in_order else {0, 1})
        s, _ = GAME.apply(s, 0, Pass())
        assert (s.seats[0].ep == 10) is in_order  # a pass gains its 2 EP at once when declared aloud
        assert (GAME.view(s, 1)["players"][0]["commit"] == "pass") is in_order


def test_flag_stalemate_turns() -> None:
    for limit in (3, 0):
        s = build([P(), P()], flags={"stalemate_turns": limit})
        for _ in range(5):
            s = turn(s)
        assert (s.reason == "stalemate" and s.ranks == [1, 1]) is (limit == 3)
        assert (s.ranks is None) is (limit == 0)
