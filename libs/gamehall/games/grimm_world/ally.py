"""Martha's ally (W-CO-06). The book has a figure for "his possible ally" (3.3) and no rule for it, so everything
here is designed (issue 40, item 17), kept small and automated like the enemies:

- placement: when a fight starts the ally stands on the free space next to Martha that comes first in the Decision
  Compass's order (then any free space nearest her); with none free it sits the fight out;
- activation: once per combat round, at the start of the Enemy Phase, before the first enemy. It attacks the
  standing enemy in its range and line of sight with the fewest HP (ties: placement order); if none, it moves up
  to `move` spaces towards the nearest enemy (the enemies' Move Towards and Decision Compass, W-EP-05) and then
  attacks if it can;
- its attack is the character's (W-AK-03/04, W-CR-01/02): Fate card + Attack >= the target's Dodge with terrain,
  damage minus Armor, a crit on 6; the enemies' reactions answer the character only, so none fires;
- it blocks spaces like any figure (no one else stops on it; Martha may not enter it) but not line of sight, and
  no enemy targets it: the Enemy Cards' lines name the character only. So it has no hit points.
"""

from __future__ import annotations

from gamehall.games.grimm_world.board import DIR_ORDER, Board, can_stand
from gamehall.games.grimm_world.catalog import ALLIES
from gamehall.games.grimm_world.combat import HANDLERS, check_victory
from gamehall.games.grimm_world.context import Ctx, reaction_draw
from gamehall.games.grimm_world.moves import plan_towards
from gamehall.games.grimm_world.sight import dodge_modifier, visible
from gamehall.games.grimm_world.state import Ally, Fight, Task


def place_ally(fight: Fight, key: str, board: Board, compass: dict[str, int]) -> Ally | None:
    """The ally's starting space: free, standable, nearest Martha; ties by the compass order from her space."""
    taken = {foe.cell for foe in fight.foes} | {fight.cell}
    order = sorted(DIR_ORDER, key=lambda d: compass.get(d, 5))
    near = [n for d in order if (n := board.neighbour(fight.cell, d)) is not None]
    rest = sorted(range(board.width * board.height), key=lambda c: (board.distance(c, fight.cell), c))
    for cell in [*near, *rest]:
        if cell not in taken and can_stand(board, cell):
            return Ally(key, cell)
    return None


def _targets(ctx: Ctx, cell: int) -> list[int]:
    definition = ALLIES[ctx.f.ally.key] if ctx.f.ally else None
    if definition is None:
        return []
    board = ctx.board
    return [i for i, foe in enumerate(ctx.f.foes)
            if foe.hp > 0 and board.distance(cell, foe.cell) <= definition.range and visible(board, cell, foe.cell)]


def ally_act(ctx: Ctx, t: Task) -> None:
    """The ally's activation: attack the weakest enemy in reach, else close in on the nearest, then attack."""
    f = ctx.f
    ally = f.ally
    if ally is None:
        return
    definition = ALLIES[ally.key]
    targets = _targets(ctx, ally.cell)
    if not targets:
        standing = [foe.cell for foe in f.foes if foe.hp > 0]
        if not standing:
            return
        goal = min(standing, key=lambda c: (ctx.board.distance(ally.cell, c), c))
        occupied = ctx.foe_cells() | {f.cell}
        path = plan_towards(ctx.board, ally.cell, goal, definition.move, frozenset(), occupied, ctx.field.compass,
                            lambda: reaction_draw(ctx))
        if path:
            ally.cell = path[-1]
            ctx.emit("ally_move", path=path)
        targets = _targets(ctx, ally.cell)
    if targets:
        target = min(targets, key=lambda i: (f.foes[i].hp, i))
        _attack(ctx, target)


def _attack(ctx: Ctx, i: int) -> None:
    f = ctx.f
    assert f.ally is not None
    definition = ALLIES[f.ally.key]
    foe = f.foes[i]
    enemy = ctx.foe_def(i)
    terrain = dodge_modifier(ctx.board, f.ally.cell, foe.cell, huge="huge" in enemy.skills) or 0
    fate = ctx.fate()
    if fate == 6:
        foe.hp -= 1
        ctx.emit("critical", target=i, fate=fate, by="ally")
    total = definition.attack + fate
    hit = total >= enemy.dodge + terrain
    damage = max(0, definition.damage - enemy.armor) if hit else 0
    foe.hp -= damage
    ctx.emit("attack", by="ally", target=i, total=total, dodge=enemy.dodge + terrain, hit=hit, damage=damage)
    if foe.hp <= 0:
        foe.hp = 0
        ctx.emit("defeated", target=i, number=foe.number)
        check_victory(ctx)


HANDLERS["ally_act"] = ally_act
