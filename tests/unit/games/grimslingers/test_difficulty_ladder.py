"""Item 8 of issue 40: difficulty ladders that climb (the designed creature values).

The measured win rates are in the README (Grimslingers, "Difficulty ladders"); these checks keep
the designed values in the shape the measurements rely on.
"""

from __future__ import annotations

from itertools import pairwise

from gamehall.games.grimslingers import GAME
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.creatures import CREATURE_MAX, nv_bonus

LADDER = ("easy", "normal", "hard", "impossible")


def test_item_8_witch_king_never_gets_weaker_up_the_ladder() -> None:
    """Item 8: at every player count each step up is at least as strong in HP, EP, +NV and RN,
    and strictly stronger in one of them (Impossible had less HP than Hard: 14 against 16)."""
    settings = [cat.WITCH_KING.difficulties[d] for d in LADDER]
    for n in range(4):
        for low, high in pairwise(settings):
            assert high.hp[n] >= low.hp[n] and high.ep[n] >= low.ep[n] and high.nv[n] >= low.nv[n]
            assert high.rn <= low.rn
            stronger = (high.hp[n] - low.hp[n], high.ep[n] - low.ep[n], high.nv[n] - low.nv[n], low.rn - high.rn)
            assert any(d > 0 for d in stronger), (n + 1, stronger)
    assert cat.WITCH_KING.difficulties["normal"].hp[1] == 20 == cat.WITCH_KING.difficulties["normal"].ep[1]


def test_item_8_witch_king_grows_smoothly_with_the_player_count() -> None:
    """Item 8: HP rises with every player, in steps that differ by little (no 13 -> 26 jump),
    except where the 40 cap (R-069) stops it."""
    for d in LADDER:
        hp = cat.WITCH_KING.difficulties[d].hp
        steps = [b - a for a, b in pairwise(hp) if b < CREATURE_MAX]
        assert all(b > a for a, b in pairwise(hp) if a < CREATURE_MAX)
        assert max(steps) - min(steps) <= 2, (d, hp)


def test_item_8_creature_hp_steps_evenly_with_the_player_count() -> None:
    """Item 8: creature HP by player count in even steps (Bandits were 11 / 13 / 26 / 34)."""
    for c in cat.CREATURES:
        steps = [b - a for a, b in pairwise(c.hp)]
        assert min(steps) > 0 and max(steps) - min(steps) <= 1, (c.key, c.hp)


def test_item_8_the_setting_reaches_the_duel() -> None:
    """Item 8: the table is what a Witch King duel starts with (HP, EP, +NV by player count)."""
    for d in LADDER:
        for n in (1, 2, 3, 4):
            s = GAME.new_match(GAME.configure("witch-king", n, options={"difficulty": d}), 1)
            wk, setting = s.seats[s.creature], cat.WITCH_KING.difficulties[d]
            assert (wk.hp, wk.ep, nv_bonus(s)) == (setting.hp[n - 1], setting.ep[n - 1], setting.nv[n - 1])
