"""Martha's ally (issue 40, item 17, W-CO-06): the book has the figure but no rules; the designed ones (ally.py)."""

from __future__ import annotations

from gamehall.games.grimm_world import GAME
from gamehall.games.grimm_world.actions import EndPhase, Step
from gamehall.games.grimm_world.catalog import ALLIES
from gamehall.games.grimm_world.content.schema import Op
from gamehall.games.grimm_world.state import Ally

from .builders import board, enemy, kinds, play, state, xy
from .journeys import do, journey

STILL = enemy("TY", constitution=3, dodge=4, armor=0, lines=[[{"kind": "attack"}]])


def test_W_CO_06_item_17_the_ally_is_designed_content() -> None:
    """The ally's rules are ours, and its content says so."""
    assert ALLIES["hans"].provenance.source == "designed"


def test_W_CO_06_item_17_the_ally_closes_in_and_attacks_before_the_enemies() -> None:
    """At the start of the Enemy Phase the ally moves up to 2 spaces towards the nearest enemy, then attacks it
    like the character (a 6: a crit and a hit, damage 1 - Armor 0); no enemy attacks it, Martha may not enter
    its space."""
    s = state(board(6, 2), (0, 0), [(STILL, (4, 0))], hand=["A01", "A02"], fates=[6])
    s.sheet.ally = "hans"
    s.fight.ally = Ally("hans", s.fight.cell + 1)  # (1, 0)
    assert Step("right") not in GAME.legal_actions(s, 0)
    s, events = play(s, EndPhase())
    assert xy(s, s.fight.ally.cell) == (3, 0) and kinds(events, "ally_move")
    attacks = kinds(events, "attack")
    assert attacks[0] == {"by": "ally", "target": 0, "total": 6, "dodge": 4, "hit": True, "damage": 1}
    assert s.fight.foes[0].hp == 3 - 1 - 1  # the crit, then the hit
    assert all(a["by"] == "ally" for a in attacks)  # the enemy cannot reach Martha and never targets the ally


def test_W_CO_06_item_17_an_ally_joins_by_card_or_option_and_stands_by_martha() -> None:
    """A card op `ally` makes Hans join the campaign; the skirmish option `ally` does the same. He starts on a
    free space next to Martha (the compass's first free direction) or the nearest free one."""
    s = GAME.new_match(GAME.configure("skirmish", 1, {"conflict": "Y702", "chapter": 1, "ally": "hans"}), 3)
    assert s.fight.ally is not None and GAME.config_of(s).options["ally"] == "hans"
    taken = {foe.cell for foe in s.fight.foes} | {s.fight.cell}
    assert s.fight.ally.cell not in taken
    assert GAME.view(s, 0)["fight"]["ally"] == ["hans", s.fight.ally.cell]
    plain = GAME.new_match(GAME.configure("skirmish", 1, {"conflict": "Y702", "chapter": 1}), 3)
    assert plain.fight.ally is None
    s = journey(11)
    do(s, Op("ally", card="hans"), Op("fight", card="Y702", n=2))
    assert s.sheet.ally == "hans" and s.fight is not None and s.fight.ally is not None
