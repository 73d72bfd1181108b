"""Combat setup: battlefield from Terrain Cards (SC-W29), placement (SC-W30), initiative (SC-W31)."""

from __future__ import annotations

from gamehall.engine import Rng
from gamehall.games.grimm_world import GAME
from gamehall.games.grimm_world.actions import Play, Reequip
from gamehall.games.grimm_world.board import build, card_cells
from gamehall.games.grimm_world.catalog import CONFLICTS, ENEMIES
from gamehall.games.grimm_world.setup import new_fight, skirmish_sheet
from gamehall.games.grimm_world.state import P_EQUIP, FightPhase


def test_SC_W29_battlefield_setup_orientation_and_numbering() -> None:
    grid = CONFLICTS["Y701"].grid
    codes = sorted(code for row in grid for code in row)
    assert codes == ["01^", "07v", "15v", "19^", "30^", "31^"]  # Fig 75: 01, 19, 30, 31 up; 07, 15 down
    board = build(grid)
    assert (board.width, board.height) == (9, 4)
    up, down = card_cells(True), card_cells(False)
    assert up[0] == (0, 1)  # space 1 is the top-left one (24/1 in Fig 27)
    for k in range(6):
        assert down[k] == up[5 - k]  # pointing down, the numbering runs reversed: 15/1 sits where 15/6 would
    # on the board: card 15 lies at grid row 1 (bottom), column 0
    x, y = board.xy(board.cell_of("15/1"))
    assert (x, y) == (0 + up[5][0], 0 + up[5][1])
    x, y = board.xy(board.cell_of("01/1"))
    assert (x, y) == (0, 3)
    assert all(name.split("/")[0] in {"01", "07", "15", "19", "30", "31"} for name in board.names.values())
    assert len(board.names) == 36


def test_SC_W30_figure_placement_by_chapter() -> None:
    sheet, _ = skirmish_sheet(3, Rng(1))
    fight = new_fight("Y701", 3, sheet)
    assert [f.number for f in fight.foes] == ["01", "07"]  # Fig 78: chapter 03 -> table 1: enemies 01 and 07
    assert [f.hp for f in fight.foes] == [2, 2] and not any(f.spent for f in fight.foes)
    assert [f.color for f in fight.foes] == ["yellow", "turquoise"]
    board = build(CONFLICTS["Y701"].grid)
    table = CONFLICTS["Y701"].placements[0]
    assert fight.cell == board.cell_of(table.character)
    assert [board.names[f.cell] for f in fight.foes] == [space for _, space in table.enemies]
    fight5 = new_fight("Y701", 5, sheet)
    assert [f.number for f in fight5.foes] == [n for n, _ in CONFLICTS["Y701"].placements[1].enemies]
    assert [f.hp for f in fight5.foes] == [ENEMIES[f.number].constitution for f in fight5.foes]


def test_SC_W31_enemy_initiative_skips_the_first_character_phase() -> None:
    assert CONFLICTS["Y701"].initiative == "enemies"
    s = GAME.new_match(GAME.configure("skirmish", 1, {"conflict": "Y701", "chapter": 2}), 3)
    assert s.fight is not None
    # whatever decision comes first belongs to round 1's Enemy Phase; the first free Character Phase is round 2
    while s.fight.prompt or s.fight.phase != FightPhase.CHARACTER:
        assert s.fight.phase == FightPhase.ENEMY and s.fight.round == 1
        s, _ = GAME.apply(s, 0, GAME.default_action(s, 0))  # type: ignore[arg-type]
        assert not s.fight.result
    assert s.fight.round == 2 and s.fight.played == 0


def test_SC_W31_character_initiative_gives_a_free_reequip() -> None:
    assert CONFLICTS["Y702"].initiative == "character"
    s = GAME.new_match(GAME.configure("skirmish", 1, {"conflict": "Y702", "chapter": 1}), 3)
    assert s.fight is not None and s.fight.prompt == P_EQUIP and s.fight.round == 1
    s, _ = GAME.apply(s, 0, Reequip("", ("bow",)))
    assert s.fight.prompt == "" and s.fight.played == 0 and "bow" in s.sheet.equipped and "spear" in s.sheet.stored
    hand = len(s.sheet.hand)
    plays = [a for a in GAME.legal_actions(s, 0) if isinstance(a, Play)]
    assert max(len(a.cards) for a in plays) == 2  # the full Action value (2) is still available
    assert len(s.sheet.hand) == hand
