"""The specification's test scenarios SC-G01..SC-G18 (../shared/rules/grimmoir.md, section 3), one test each."""

from __future__ import annotations

import pytest

from gamehall.engine import IllegalAction
from gamehall.games.grimmoir import GAME
from gamehall.games.grimmoir.actions import (
    Arrange,
    Attack,
    DeclineSupport,
    Move,
    Pass,
    PickFaction,
    Place,
    Recruit,
    Special,
    Swap,
)
from gamehall.games.grimmoir.battle import flow
from gamehall.games.grimmoir.catalog import BY_FACTION, CARDS, FACTIONS, allied
from gamehall.games.grimmoir.effects import effective_attack
from gamehall.games.grimmoir.state import BOOK_CLOSED, BOOK_OPEN, Phase

from .builder import act, battle_state, card, draft_state, id_at, of_type, quiet, unit_at

P1, P2 = 0, 1


def _ids(faction: str) -> list[str]:
    return [CARDS[c].id for c in BY_FACTION[FACTIONS.index(faction)]]


def test_SC_G01_alliance_wheel_adjacency() -> None:
    f = FACTIONS.index
    for a, b in [
        ("humilitat", "animo"),
        ("animo", "avarum"),
        ("avarum", "diligit"),
        ("diligit", "ingenium"),
        ("ingenium", "humilitat"),
    ]:
        assert allied(f(a), f(b)) and allied(f(b), f(a))
    for a, b in [
        ("humilitat", "avarum"),
        ("humilitat", "diligit"),
        ("animo", "diligit"),
        ("animo", "ingenium"),
        ("avarum", "ingenium"),
    ]:
        assert not allied(f(a), f(b))


def test_SC_G02_team_options_ingenium_with_humilitat() -> None:
    state = draft_state(first=P1)
    state = act(state, P1, PickFaction("ingenium"))
    state = act(state, P2, PickFaction("avarum"))
    assert PickFaction("avarum") not in GAME.legal_actions(state, P1)  # not adjacent (and taken)
    state = act(state, P1, PickFaction("humilitat"))
    state = act(state, P2, PickFaction("animo"))
    assert state.phase == Phase.RECRUIT
    ing, hum, ani = _ids("ingenium"), _ids("humilitat"), _ids("animo")

    def team(state: object, names: list[str]) -> object:
        for name in names:
            state = act(state, P1, Recruit(name))  # type: ignore[arg-type]
        return state

    for split in ([*ing[:6]], [*ing[:5], hum[0]], [*ing[:4], *hum[:2]]):
        done = team(state, split)
        assert sorted(done.teams[P1]) == sorted(card(n).index for n in split)  # type: ignore[attr-defined]
        assert GAME.legal_actions(done, P1) == []  # a 7th character is never offered
        with pytest.raises(IllegalAction, match="not to act"):
            act(done, P1, Recruit(ing[8]))  # type: ignore[arg-type]
    three_three = team(state, [*ing[:3], *hum[:2]])
    with pytest.raises(IllegalAction, match="at most 2 from the supporting"):
        act(three_three, P1, Recruit(hum[2]))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="not recruitable"):
        act(team(state, [*ing[:4], hum[0]]), P1, Recruit(ani[0]))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="not recruitable"):
        act(team(state, ing[:4]), P1, Recruit(_ids("avarum")[0]))  # type: ignore[arg-type]
    five = team(state, ing[:5])
    assert P1 in GAME.to_act(five) and five.phase == Phase.RECRUIT  # a team of 5 is not finished


def test_SC_G03_faction_draft_example() -> None:
    state = draft_state(first=P1)
    state = act(state, P1, PickFaction("diligit"))
    state = act(state, P2, PickFaction("humilitat"))
    assert set(GAME.legal_actions(state, P1)) == {DeclineSupport(), PickFaction("ingenium"), PickFaction("avarum")}
    state = act(state, P1, PickFaction("ingenium"))
    assert set(GAME.legal_actions(state, P2)) == {DeclineSupport(), PickFaction("animo")}
    with pytest.raises(IllegalAction):
        act(state, P2, PickFaction("ingenium"))
    declined = act(state, P2, DeclineSupport())
    assert declined.supports[P2] == -1 and declined.phase == Phase.RECRUIT


def _display_ready(first: int = P1) -> object:
    state = draft_state(first=first)
    p2 = 1 - first
    state = act(state, first, PickFaction("animo"))
    state = act(state, p2, PickFaction("ingenium"))
    state = act(state, first, DeclineSupport())
    state = act(state, p2, DeclineSupport())
    for name in _ids("animo")[:6]:
        state = act(state, first, Recruit(name))
    for name in _ids("ingenium")[:6]:
        state = act(state, p2, Recruit(name))
    assert state.phase == Phase.DISPLAY
    return state


def test_SC_G04_display_sequence() -> None:
    state = _display_ready()
    mine, theirs = _ids("animo")[:6], _ids("ingenium")[:6]
    assert GAME.to_act(state) == {P1}
    state = act(state, P1, Place(mine[0], 1))  # A
    assert {a.column for a in GAME.legal_actions(state, P2)} == {1}  # B faces A
    state = act(state, P2, Place(theirs[0], 1))  # B
    with pytest.raises(IllegalAction, match="position C cannot be in column 3"):
        act(state, P2, Place(theirs[1], 3))
    state = act(state, P2, Place(theirs[1], 2))  # C
    with pytest.raises(IllegalAction, match="position D"):
        act(state, P1, Place(mine[1], 3))
    state = act(state, P1, Place(mine[1], 2))  # D faces C
    state = act(state, P1, Place(mine[2], 3))  # E
    assert {a.column for a in GAME.legal_actions(state, P2)} == {3}
    state = act(state, P2, Place(theirs[2], 3))  # F faces E
    assert state.phase == Phase.ARRANGE and GAME.to_act(state) == {P1, P2}
    state = act(state, P1, Arrange((mine[3], mine[4], mine[5])))
    assert GAME.to_act(state) == {P2}
    assert id_at(state, P1, 2, 1) is None  # face down until both committed
    state = act(state, P2, Arrange((theirs[5], theirs[4], theirs[3])))
    assert state.phase == Phase.BATTLE
    assert [id_at(state, P1, 2, c) for c in (1, 2, 3)] == mine[3:6]
    assert [id_at(state, P2, 2, c) for c in (1, 2, 3)] == [theirs[5], theirs[4], theirs[3]]
    for unit in state.board:
        assert unit is not None and not unit.exhausted
        c = CARDS[unit.card]
        assert unit.book == (BOOK_OPEN if c.has_book else 0)
        assert unit.pens == c.pens
    assert state.coins == [5, 5]
    assert GAME.to_act(state) == {P1}


def test_SC_G04_variant_A_in_the_centre() -> None:
    state = _display_ready()
    state = act(state, P1, Place(_ids("animo")[0], 2))
    state = act(state, P2, Place(_ids("ingenium")[0], 2))
    assert {a.column for a in GAME.legal_actions(state, P2)} == {1, 3}


def _reach_layout() -> object:
    m1, m2, m4 = of_type("melee", 3)
    r3, r5 = of_type("ranged", 2)
    (g6,) = of_type("magic", 1)
    d, e, f, a, b, c = of_type("melee", 6, skip=(m1, m2, m4))
    return (
        battle_state(front=[(m1, m2, r3), (d, e, f)], back=[(m4, r5, g6), (a, b, c)]),
        (m1, m2, r3, m4, r5, g6),
        (a, b, c, d, e, f),
    )


def test_SC_G05_reach_worked_example() -> None:
    state, (c1, c2, c3, c4, c5, c6), (a, b, c, d, e, f) = _reach_layout()  # type: ignore[misc]
    targets: dict[str, set[str]] = {}
    for action in GAME.legal_actions(state, P1):
        if isinstance(action, Attack):
            targets.setdefault(action.attacker, set()).add(action.target)
    assert targets[c1] == {d}
    assert targets[c2] == {e}
    assert targets[c3] == {c, f}
    assert c4 not in targets
    assert targets[c5] == {b, e}
    assert targets[c6] == {a, b, c, d, e, f}


def test_SC_G06_attack_costs_and_exhaustion() -> None:
    (x,) = quiet(1, "magic")
    y, z = quiet(2, skip=(x,))
    # a negative wound count only keeps the target standing through three attacks
    state = battle_state(
        front=[(x, None, None), (y, None, None)],
        back=[(None, None, None), (z, None, None)],
        units={x: {"minus": card(x).attack - 2}, y: {"wounds": -10}},
    )
    assert effective_attack(state.board, 0) == 2
    state = act(state, P1, Attack(x, y))
    assert state.coins[P1] == 4 and unit_at(state, P1, 1, 1).exhausted  # type: ignore[union-attr]
    assert unit_at(state, P2, 1, 1).wounds == -10 + 2  # type: ignore[union-attr]
    state = act(state, P2, Swap(y, z))  # P2 keeps the round going
    state = act(state, P1, Attack(x, z))
    assert state.coins[P1] == 2
    state = act(state, P2, Swap(z, y))
    state = act(state, P1, Attack(x, y))
    assert state.coins[P1] == 0 and state.round == 1
    assert unit_at(state, P2, 1, 1).wounds == -10 + 4  # type: ignore[union-attr]
    assert GAME.to_act(state) == {P2}  # P1 is out of the round
    with pytest.raises(IllegalAction, match="no coins"):
        GAME.validate_action(state, P1, Attack(x, y))


def test_SC_G06_attack_rejected_without_two_coins() -> None:
    (x,) = quiet(1, "magic")
    (y,) = quiet(1, skip=(x,))
    state = battle_state(front=[(x, None, None), (y, None, None)], coins=(1, 5), units={x: {"exhausted": True}})
    with pytest.raises(IllegalAction, match="costs 2 coins"):
        GAME.apply(state, P1, Attack(x, y))


def test_SC_G07_defeat_and_auto_advance() -> None:
    (x,) = quiet(1, "magic")
    t, u = quiet(2, skip=(x,))
    strength = card(t).strength
    state = battle_state(
        front=[(None, x, None), (None, t, None)],
        back=[(None, None, None), (None, u, None)],
        units={x: {"minus": card(x).attack - 2}, t: {"wounds": strength - 2}, u: {"exhausted": True, "plus": 1}},
    )
    state = act(state, P1, Attack(x, t))
    assert card(t).index in state.fallen[P2]
    moved = unit_at(state, P2, 1, 2)
    assert moved is not None and CARDS[moved.card].id == u
    assert moved.exhausted and moved.plus == 1
    assert unit_at(state, P2, 2, 2) is None


def _book_character() -> str:
    return next(c.id for c in CARDS if c.has_book and c.special is not None and c.special.choose == "none")


def test_SC_G08_special_legality() -> None:
    k = _book_character()
    foe, foe_b = quiet(2, skip=(k,))
    no_book = next(c.id for c in CARDS if not c.has_book and c.id not in (foe, foe_b))
    layout = {"front": [(k, no_book, None), (foe, foe_b, None)]}
    state = battle_state(**layout, coins=(1, 5))  # type: ignore[arg-type]
    after = act(state, P1, Special(k))
    assert after.coins[P1] == 0
    unit = unit_at(after, P1, 1, 1)
    assert unit is not None and unit.book == BOOK_CLOSED and unit.exhausted
    rejected = {
        "closed": (battle_state(**layout, coins=(1, 5), units={k: {"book": BOOK_CLOSED}}), "book is closed"),  # type: ignore[arg-type]
        "exhausted": (battle_state(**layout, coins=(1, 5), units={k: {"exhausted": True}}), "exhausted"),  # type: ignore[arg-type]
        "no coins": (battle_state(**layout, coins=(0, 5)), "no coins"),  # type: ignore[arg-type]
    }
    for state, reason in rejected.values():
        before = GAME.encode(state)
        with pytest.raises(IllegalAction, match=reason):
            GAME.apply(state, P1, Special(k))
        assert GAME.encode(state) == before
    with pytest.raises(IllegalAction, match="no book icon"):
        GAME.apply(battle_state(**layout), P1, Special(no_book))  # type: ignore[arg-type]
    del foe_b


def _move_layout(**kwargs: object) -> object:
    a, b, d, e = of_type("melee", 4)
    x, y, z = of_type("ranged", 3)
    return battle_state(
        front=[(d, e, None), (x, y, z)], back=[(a, b, None), (None, None, None)], coins=(3, 5), **kwargs
    ), (a, b, d, e, z)  # type: ignore[arg-type]


def test_SC_G09_move_example() -> None:
    state, (a, b, d, e, z) = _move_layout()  # type: ignore[misc]
    state = act(state, P1, Move(e, 1, 3))
    assert state.coins[P1] == 2
    assert id_at(state, P1, 1, 3) == e and not unit_at(state, P1, 1, 3).exhausted  # type: ignore[union-attr]
    assert id_at(state, P1, 1, 2) == b and id_at(state, P1, 2, 2) is None  # B stepped forward
    no_foe, _ = _move_layout()  # type: ignore[misc]
    no_foe.board[6 + 2] = None  # the opponent has nothing in column 3
    with pytest.raises(IllegalAction, match="no opponent characters"):
        GAME.apply(no_foe, P1, Move(e, 1, 3))
    del a, d, z


def test_SC_G10_swap_example() -> None:
    b, f, other, ahead = of_type("melee", 4)
    x, y, z = of_type("ranged", 3)
    state = battle_state(
        front=[(other, ahead, f), (x, y, z)],
        back=[(None, b, None), (None, None, None)],
        coins=(1, 5),
        units={b: {"exhausted": True}},
    )
    state = act(state, P1, Swap(f, b))
    assert state.coins[P1] == 0
    assert id_at(state, P1, 2, 2) == f and not unit_at(state, P1, 2, 2).exhausted  # type: ignore[union-attr]
    assert id_at(state, P1, 1, 3) == b and unit_at(state, P1, 1, 3).exhausted  # type: ignore[union-attr]


def test_SC_G11_automatic_forward() -> None:
    d, e, other = of_type("melee", 3)
    x, y, z = of_type("ranged", 3)
    state = battle_state(front=[(d, None, other), (x, y, z)], back=[(None, e, None), (None, None, None)])
    state = act(state, P1, Pass())  # any event settles the board
    assert id_at(state, P1, 1, 2) == e and id_at(state, P1, 2, 2) is None
    assert state.coins[P1] == 5


def test_SC_G12_column_shift() -> None:
    mine = of_type("melee", 2)
    f3, b3, f1 = of_type("ranged", 3)
    state = battle_state(front=[(mine[0], mine[1], None), (f1, None, f3)], back=[(None, None, None), (None, None, b3)])
    state = act(state, P1, Pass())
    assert id_at(state, P2, 1, 2) == f3 and id_at(state, P2, 2, 2) == b3
    assert id_at(state, P2, 1, 3) is None and id_at(state, P2, 1, 1) == f1
    negative = battle_state(
        front=[(mine[0], mine[1], of_type("magic", 1)[0]), (f1, None, f3)], back=[(None, None, None), (None, None, b3)]
    )
    negative = act(negative, P1, Pass())
    assert id_at(negative, P2, 1, 3) == f3 and id_at(negative, P2, 1, 2) is None


def test_SC_G13_passing_and_consecutive_turns() -> None:
    (y,) = quiet(1, "magic")
    (x,) = quiet(1, skip=(y,))
    state = battle_state(front=[(x, None, None), (y, None, None)], coins=(5, 4), units={x: {"wounds": -50}})
    state = act(state, P1, Pass())
    assert GAME.to_act(state) == {P2}
    turns = 0
    while Attack(y, x) in GAME.legal_actions(state, P2):
        state = act(state, P2, Attack(y, x))
        turns += 1
        assert GAME.to_act(state) == {P2} or state.round == 2  # P1 gets no further action this round
    assert turns >= 2  # P2 took several turns in a row (1 + 2 coins, then 1 left: not enough for an attack)
    if state.round == 1:  # 1 coin still pays a move (G-MV-01: even into the blank behind): P2 passes instead
        assert GAME.to_act(state) == {P2}
        state = act(state, P2, Pass())
    assert state.round == 2


def test_SC_G14_end_of_round_initiative() -> None:
    melee = of_type("melee", 9)
    four_vs_five = battle_state(
        front=[melee[0:3], melee[4:7]], back=[(melee[3], None, None), (melee[7], melee[8], None)]
    )
    four_vs_five.passed = [True, True]
    flow(four_vs_five, P1, [])
    assert four_vs_five.round == 2 and four_vs_five.initiative == P1
    even = battle_state(front=[melee[0:3], melee[4:7]], back=[(melee[3], None, None), (melee[7], None, None)])
    even.passed = [True, True]
    flow(even, P1, [])
    assert even.initiative == P2 and GAME.to_act(even) == {P2}


def test_SC_G15_new_round() -> None:
    melee = of_type("melee", 6)
    books = [c.id for c in CARDS if c.has_book][:2]
    state = battle_state(
        front=[(melee[0], melee[1], books[0]), (melee[2], melee[3], books[1])],
        coins=(0, 2),
        units={
            melee[0]: {"exhausted": True, "wounds": 1},
            melee[2]: {"exhausted": True},
            books[0]: {"exhausted": True, "book": BOOK_CLOSED},
            books[1]: {"book": BOOK_CLOSED, "wounds": 2},
        },
    )
    state.passed = [True, True]
    flow(state, P1, [])
    assert state.round == 2
    assert all(not u.exhausted for u in state.board if u is not None)
    assert all(u.book == BOOK_OPEN for u in state.board if u is not None and CARDS[u.card].has_book)
    assert state.coins == [5, 5]
    assert unit_at(state, P1, 1, 1).wounds == 1 and unit_at(state, P2, 1, 3).wounds == 2  # type: ignore[union-attr]


def test_SC_G16_strengthening_and_weakening() -> None:
    (x,) = quiet(1, "magic")
    (y,) = quiet(1, skip=(x,))
    state = battle_state(
        front=[(x, None, None), (y, None, None)],
        units={x: {"plus": 2, "minus": 1 + card(x).attack - 3}, y: {"wounds": -20}},
    )
    after = act(state, P1, Attack(x, y))
    assert after.board[6].wounds == -20 + 4  # type: ignore[union-attr]
    weak = battle_state(front=[(x, None, None), (y, None, None)], units={x: {"minus": 2 + card(x).attack - 1}})
    after = act(weak, P1, Attack(x, y))
    assert after.board[6].wounds == 0  # type: ignore[union-attr]


def test_SC_G17_game_end() -> None:
    (x,) = quiet(1, "magic")
    (y,) = quiet(1, skip=(x,))
    state = battle_state(front=[(x, None, None), (y, None, None)], units={y: {"wounds": card(y).strength - 1}})
    state.passed[P2] = True
    after, events = GAME.apply(state, P1, Attack(x, y))
    assert after.phase == Phase.OVER and GAME.outcome(after).winners() == (P1,)  # type: ignore[union-attr]
    assert GAME.to_act(after) == frozenset()
    assert not any(e.kind in ("round_end", "new_round") for e in events)
    assert after.round == 1


def test_SC_G18_ranged_from_back_row() -> None:
    (r,) = of_type("ranged", 1)
    m, f1, b1 = of_type("melee", 3)
    state = battle_state(front=[(m, None, None), (f1, None, None)], back=[(r, None, None), (b1, None, None)])
    targets = {a.target for a in GAME.legal_actions(state, P1) if isinstance(a, Attack) and a.attacker == r}
    assert targets == {f1, b1}
