"""Martha's Character Phase: combined cards, movement, range, attacks, crits, push, enemy reactions (SC-W32..SC-W40)."""

from __future__ import annotations

from gamehall.games.grimm_world import GAME
from gamehall.games.grimm_world.actions import Attack, EndPhase, Play, Push, Reequip, Step
from gamehall.games.grimm_world.sheet import stats
from gamehall.games.grimm_world.state import P_ATTACKED, P_DAMAGE, Task

from .builders import board, enemy, kinds, play, run_tasks, state, xy

DUMMY = enemy("T0")
TOUGH = enemy("T9", armor=5, dodge=9, constitution=7)
ARMOURED = enemy("T5", armor=5, dodge=9, constitution=3)
LIGHT = enemy("T1", armor=1, dodge=4, constitution=3)
WATCHER = enemy("TS", reaction={"trigger": "sight", "range": 3, "kind": "retreat", "value": 2, "values": [6]})


def test_SC_W32_combined_cards() -> None:
    s = state(board(6, 3), (0, 0), [(DUMMY, (5, 2))], hand=["A01", "A02"])
    one, _ = play(s, Play(("A01",)))
    assert (one.fight.move_mp, one.fight.attack, one.fight.attack_mod) == (1, True, -1)
    one, _ = play(one, Step("right"), Play(("A02",)))
    assert xy(one, one.fight.cell) == (1, 0) and (one.fight.move_mp, one.fight.attack_mod) == (1, -1)
    both, _ = play(s, Play(("A01", "A02")))
    assert (both.fight.move_mp, both.fight.attack_mod, both.fight.played) == (2, -2, 2)
    s.fight.played = 1  # one card of an Action value of 2 already played: room for a single card only
    assert {len(a.cards) for a in GAME.legal_actions(s, 0) if isinstance(a, Play)} == {1}


def test_SC_W33_crossing_a_hedge_needs_combined_cards(draws: list[int]) -> None:
    field = board(4, 3, lines=[((0, 0), (1, 0), "obstacle")])
    s = state(field, (0, 0), [(DUMMY, (2, 0))], hand=["A01", "A02"], fates=[5])
    single, _ = play(s, Play(("A01",)))
    assert Step("right") not in GAME.legal_actions(single, 0)  # 2 MP needed, one card gives 1
    assert Step("up") in GAME.legal_actions(single, 0)  # but going around costs 3 in all
    both, _ = play(s, Play(("A01", "A02")), Step("right"))
    assert xy(both, both.fight.cell) == (1, 0) and both.fight.left == 0
    assert Attack(0, "fists") in GAME.legal_actions(both, 0)
    draws.append(1)
    after, events = play(both, Attack(0, "fists"))
    attack = kinds(events, "attack")[0]
    assert (attack["total"], attack["dodge"], attack["hit"]) == (0 - 2 + 5, 4, False)  # one attack at -2
    assert not [a for a in GAME.legal_actions(after, 0) if isinstance(a, Attack)]


def test_SC_W34_bow_range() -> None:
    s = state(board(6, 3), (0, 0), [(DUMMY, (3, 0))], hand=["A07"], equipped=["bow"])
    s, _ = play(s, Play(("A07",)))
    attacks = [a for a in GAME.legal_actions(s, 0) if isinstance(a, Attack)]
    assert attacks == [Attack(0, "bow")]
    far = state(board(6, 3), (0, 0), [(DUMMY, (4, 0))], hand=["A07"], equipped=["bow"])
    far, _ = play(far, Play(("A07",)))
    assert not [a for a in GAME.legal_actions(far, 0) if isinstance(a, Attack)]


def test_SC_W35_bow_attack_and_attack_rate(draws: list[int]) -> None:
    foes = [("03", (3, 0)), (TOUGH, (2, 1)), (TOUGH, (0, 3))]
    hand = ["A01", "A02", "A07", "A12", "A08"]
    s = state(board(5, 4), (0, 0), foes, hand=hand, upgrades=["Y201", "Y202"], equipped=["bow"], fates=[4, 5, 5, 5])
    draws.extend([1, 1, 1])
    s, events = play(s, Play(("A01",)), Attack(0, "bow"))
    attack = kinds(events, "attack")[0]
    assert (attack["total"], attack["dodge"], attack["hit"], attack["damage"]) == (1 - 1 + 4, 4, True, 2)
    assert s.fight.foes[0].hp == 0 and kinds(events, "defeated") and s.fight.uses == {"bow": 1}
    s, _ = play(s, Play(("A02",)), Attack(1, "bow"), Play(("A07",)), Attack(2, "bow"))
    assert s.fight.uses == {"bow": 3}
    s, _ = play(s, Play(("A12",)))
    assert not [a for a in GAME.legal_actions(s, 0) if isinstance(a, Attack)]  # a 4th bow attack is rejected
    miss = state(board(5, 4), (0, 0), foes, hand=hand, upgrades=["Y201"], equipped=["bow"], fates=[3])
    draws.append(1)
    miss, events = play(miss, Play(("A01",)), Attack(0, "bow"))
    assert not kinds(events, "attack")[0]["hit"] and miss.fight.foes[0].hp == 2


def test_SC_W36_critical_hits(draws: list[int]) -> None:
    s = state(board(3, 3), (0, 0), [(ARMOURED, (1, 0))], hand=["A05"], fates=[3])
    draws.append(1)
    s, events = play(s, Play(("A05",)), Attack(0, "fists"))
    assert s.fight.foes[0].hp == 2 and kinds(events, "critical") and not kinds(events, "attack")[0]["hit"]
    s = state(board(3, 3), (0, 0), [(LIGHT, (1, 0))], hand=["A07"], equipped=["spear"], fates=[6])
    draws.append(1)
    s, events = play(s, Play(("A07",)), Attack(0, "spear"))
    assert s.fight.foes[0].hp == 3 - 1 - (2 - 1)
    hammer = state(board(3, 3), (0, 0), [(ARMOURED, (1, 0))], hand=["A07"], equipped=["battle_hammer"], fates=[4])
    draws.append(1)
    hammer, _ = play(hammer, Play(("A07",)), Attack(0, "battle_hammer"))
    assert hammer.fight.foes[0].hp == 2
    fists4 = state(board(3, 3), (0, 0), [(ARMOURED, (1, 0))], hand=["A07"], fates=[4])
    draws.append(1)
    fists4, _ = play(fists4, Play(("A07",)), Attack(0, "fists"))
    assert fists4.fight.foes[0].hp == 3  # crit 4 belongs to the hammer only (AMB-22)
    frenzy = state(board(3, 3), (0, 0), [(ARMOURED, (1, 0))], hand=["A07"], skills=["frenzy"], fates=[5])
    draws.append(1)
    frenzy, _ = play(frenzy, Play(("A07",)), Attack(0, "fists"))
    assert frenzy.fight.foes[0].hp == 2
    # an enemy crits Martha on a 6: one card for the crit before the hit's own damage
    hit = state(board(3, 3), (0, 0), [(DUMMY, (1, 0))], hand=["A01", "A02", "A03"], fates=[6])
    hit, events = run_tasks(hit, Task("enemy_hit", 0, 0))
    assert [e.kind for e in events if e.kind in ("critical", "attack")] == ["critical", "attack"]
    assert hit.fight.prompt == P_DAMAGE and hit.fight.pa == 1 + 1


def test_SC_W37_push(draws: list[int]) -> None:
    hedge = state(board(4, 2, lines=[((1, 0), (2, 0), "obstacle")]), (0, 0), [(DUMMY, (1, 0))], hand=["A22"])
    hedge, _events = play(hedge, Play(("A22",)), Push(0))
    assert xy(hedge, hedge.fight.foes[0].cell) == (2, 0) and hedge.fight.foes[0].hp == 2
    wall = state(board(4, 2, {(2, 0): "blocked"}), (0, 0), [(DUMMY, (1, 0))], hand=["A22"])
    wall, _ = play(wall, Play(("A22",)), Push(0))
    assert xy(wall, wall.fight.foes[0].cell) == (1, 0) and wall.fight.foes[0].hp == 2
    edge = state(board(2, 2), (0, 0), [(DUMMY, (1, 0))], hand=["A22"])
    edge, _ = play(edge, Play(("A22",)), Push(0))
    assert xy(edge, edge.fight.foes[0].cell) == (1, 0) and edge.fight.foes[0].hp == 2
    boar = state(board(4, 2), (0, 0), [("04", (1, 0))], hand=["A22"])
    boar, _ = play(boar, Play(("A22",)), Push(0))
    assert xy(boar, boar.fight.foes[0].cell) == (1, 0) and boar.fight.foes[0].hp == 4  # Massive
    far = state(board(4, 2), (0, 0), [(DUMMY, (2, 0))], hand=["A22"])
    far, _ = play(far, Play(("A22",)))
    assert not [a for a in GAME.legal_actions(far, 0) if isinstance(a, Push)]


def test_SC_W38_enemy_reaction_check(draws: list[int]) -> None:
    s = state(board(3, 3), (0, 0), [("06", (1, 0)), (TOUGH, (2, 2))], hand=["A07", "A01"], fates=[1, 1])
    draws.append(3)
    s, events = play(s, Play(("A07",)), Attack(0, "fists"))
    assert kinds(events, "enemy_reaction") == [{"target": 0, "value": 3, "fires": False, "reaction": "dodge"}]
    assert s.fight.foes[0].spent
    s, events = play(s, Play(("A01",)), Attack(0, "fists"))  # a second attack this round draws nothing
    assert not kinds(events, "enemy_reaction")
    s, _ = run_tasks(s, Task("new_round"))
    assert not s.fight.foes[0].spent


def test_SC_W39_line_of_sight_trigger(draws: list[int]) -> None:
    s = state(board(5, 4), (0, 0), [(WATCHER, (3, 2))], hand=["A23"])
    s, events = play(s, Play(("A23",)), Step("right"))
    assert not kinds(events, "enemy_reaction")  # (1, 0) is 4 away
    draws.append(1)
    s, events = play(s, Step("right"))  # (2, 0): 3 away and in sight: the trigger resolves before the next space
    assert [e.kind for e in events] == ["step", "enemy_reaction"] and s.fight.foes[0].spent
    s, events = play(s, Step("right"))
    assert not kinds(events, "enemy_reaction")


def test_SC_W40_enemy_first_strike(draws: list[int]) -> None:
    s = state(board(3, 3), (0, 0), [("08", (1, 0))], hand=["A07", "A02", "A09"], fates=[1, 4])
    draws.append(5)
    s, events = play(s, Play(("A07",)), Attack(0, "fists"))
    attacks = kinds(events, "attack")
    assert attacks[0]["by"] == 0 and attacks[0]["total"] == 1 - 1 + 1  # the spider strikes first at -1
    assert s.fight.prompt != P_ATTACKED  # and Martha cannot react to it
    assert attacks[1]["by"] == "martha" and attacks[1]["dodge"] == 4 - 1  # its Dodge drops by the same (AMB-5)
    s, _ = play(s, EndPhase())
    assert all(f.fs == 0 for f in s.fight.foes)
    far = state(board(4, 3), (0, 0), [("08", (2, 0))], hand=["A07"], equipped=["spear"], fates=[4])
    draws.append(5)
    far, events = play(far, Play(("A07",)), Attack(0, "spear"))
    assert [a["by"] for a in kinds(events, "attack")] == ["martha"] and far.fight.foes[0].spent


def test_W_RQ_01_item_15_reequip_in_combat_swaps_hand_items_and_accessories() -> None:
    """Item 15, W-RQ-01 (8.2.1.1.7): the re-equip action "only applies to items for the hand-slot and accessories";
    armour cannot be re-equipped in combat. With the designed Lucky Charm (an accessory, Dodge +1) in the bag,
    playing a card puts it on; the leather armour in the bag is never offered."""
    s = state(board(4, 1), (0, 0), [(DUMMY, (3, 0))], hand=["A01", "A02"], equipped=["spear"],
              stored=["lucky_charm", "leather_armour"])
    offered = [a for a in GAME.legal_actions(s, 0) if isinstance(a, Reequip)]
    assert Reequip("A01", ("spear",), ("lucky_charm",)) in offered
    assert Reequip("A01", (), ("lucky_charm",)) in offered  # the spear into the bag: the bag holds 2, now full
    assert all("leather_armour" not in a.hands + a.accessories for a in offered)
    dodge = stats(s.sheet)["dodge"]
    s, events = play(s, Reequip("A01", ("spear",), ("lucky_charm",)))
    assert sorted(s.sheet.equipped) == ["lucky_charm", "spear"] and s.sheet.stored == ["leather_armour"]
    assert stats(s.sheet)["dodge"] == dodge + 1 and s.fight.played == 1 and "A01" in s.fight.discard
    assert kinds(events, "reequip") == [{"hands": "spear", "accessories": "lucky_charm"}]
