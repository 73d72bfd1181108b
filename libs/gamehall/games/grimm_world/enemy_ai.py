"""Automated enemy activations: the first Action Line that can be carried out completely, else the possible
parts of line 1, else nothing (W-EP-02/03, AMB-26); moves are walked space by space (AMB-28)."""

from __future__ import annotations

from gamehall.engine import Rng
from gamehall.games.grimm_world.combat import HANDLERS, in_martha_reach, maybe_first_strike
from gamehall.games.grimm_world.content.schema import EnemyAction
from gamehall.games.grimm_world.context import Ctx, reaction_draw
from gamehall.games.grimm_world.moves import plan_away, plan_towards
from gamehall.games.grimm_world.sight import visible
from gamehall.games.grimm_world.state import Task


def plan_line(ctx: Ctx, i: int, line: tuple[EnemyAction, ...], rng: Rng, partial: bool) -> list[Task] | None:
    """Tasks carrying out `line` for enemy i, each action tested against the state after the previous one;
    None if some action cannot be done (unless `partial`, which skips it). Tie-break draws use `rng`."""
    f = ctx.f
    board = ctx.board
    definition = ctx.foe_def(i)
    skills = frozenset(definition.skills)
    cell = f.foes[i].cell
    others = ctx.figures(i)
    tasks: list[Task] = []
    for action in line:
        task: Task | None = None
        if action.kind == "attack":
            if board.distance(cell, f.cell) <= definition.range and visible(board, cell, f.cell):
                task = Task("enemy_attack", i, action.value, 1)
        elif action.kind == "push":
            if board.distance(cell, f.cell) == 1:
                task = Task("push_martha", i)
        else:
            planner = plan_towards if action.kind == "towards" else plan_away
            path = planner(board, cell, f.cell, action.value, skills, others, ctx.field.compass,
                           lambda: reaction_draw(ctx, rng), action.suffix)
            if path:
                task = Task("enemy_move", i, path=path)
                cell = path[-1]
        if task is None:
            if partial:
                continue
            return None
        tasks.append(task)
    return tasks


def choose_line(ctx: Ctx, t: Task) -> None:
    """Pick and schedule enemy t.a's Action Line."""
    if ctx.f.foes[t.a].hp <= 0:
        return
    lines = ctx.foe_def(t.a).lines
    for number, line in enumerate(lines, start=1):
        trial = Rng(ctx.rng.state)
        tasks = plan_line(ctx, t.a, line, trial, partial=False)
        if tasks is not None:
            ctx.rng.state = trial.state
            ctx.emit("enemy_line", target=t.a, line=number)
            ctx.then(*tasks)
            return
    trial = Rng(ctx.rng.state)
    tasks = plan_line(ctx, t.a, lines[0], trial, partial=True) or []
    ctx.rng.state = trial.state
    ctx.emit("enemy_line", target=t.a, line=1 if tasks else 0, partial=True)
    ctx.then(*tasks)


def enemy_move(ctx: Ctx, t: Task) -> None:
    """One space of enemy t.a's planned path; Martha may First Strike when it comes into reach."""
    foe = ctx.f.foes[t.a]
    if foe.hp <= 0 or not t.path:
        return
    was = in_martha_reach(ctx, t.a)
    foe.cell = t.path[0]
    ctx.emit("enemy_step", target=t.a, cell=foe.cell)
    if len(t.path) > 1:
        ctx.then(Task("enemy_move", t.a, path=t.path[1:]))
    if foe.cell not in ctx.figures(t.a):  # passing through another figure is not a place to stop and shoot at
        maybe_first_strike(ctx, t.a, was)


HANDLERS.update({"choose_line": choose_line, "enemy_move": enemy_move})
