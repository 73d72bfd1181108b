"""Combat resolution shared by both sides: attacks, critical hits, push, damage, reactions, Refresh, end
conditions, and the runner that executes scheduled steps until Martha must choose (W-AK-*, W-CR-*, W-PU-*,
W-ER-*, W-CD-*, W-RF-*, W-CB-07)."""

from __future__ import annotations

from collections.abc import Callable

from gamehall.games.grimm_world.board import DIRS, can_stand
from gamehall.games.grimm_world.catalog import ACTION_CARDS, CHARACTERS
from gamehall.games.grimm_world.context import Ctx, initiative_order, reaction_draw
from gamehall.games.grimm_world.decks import end_of_round
from gamehall.games.grimm_world.moves import plan_away
from gamehall.games.grimm_world.sheet import crit_numbers, weapon, weapons
from gamehall.games.grimm_world.sight import dodge_modifier, visible
from gamehall.games.grimm_world.state import (
    P_ATTACKED,
    P_DAMAGE,
    P_FIRST_STRIKE,
    P_NONE,
    P_REFRESH,
    P_RETREAT,
    FightPhase,
    Task,
)

# ----------------------------------------------------------------- reactions of Martha's cards


def card_reaction(ctx: Ctx, card: str) -> tuple[str, int] | None:
    """The reaction a card gives (its light-blue area, or Martha's special reaction for a star, W-CRx-05)."""
    definition = ACTION_CARDS[card]
    if definition.reaction_special:
        special = CHARACTERS[ctx.s.sheet.character].special_reaction
        return special.kind, special.value
    if definition.reaction is not None:
        return definition.reaction.kind, definition.reaction.value
    return None


def can_react(ctx: Ctx) -> bool:
    """Reaction value not used up this Enemy Phase and no reaction yet in this activation (W-CRx-01)."""
    return ctx.f.reactions < ctx.stats["reaction"] and not ctx.f.reacted


def first_strike_weapons(ctx: Ctx, i: int) -> list[str]:
    """Martha's weapons that reach enemy `i` with line of sight (her view is blocked by other enemies)."""
    f = ctx.f
    foe = f.foes[i]
    if foe.hp <= 0 or not visible(ctx.board, f.cell, foe.cell, ctx.foe_cells(i)):
        return []
    dist = ctx.board.distance(f.cell, foe.cell)
    return [w.key for w in weapons(ctx.s.sheet) if w.range >= dist]


def in_martha_reach(ctx: Ctx, i: int) -> bool:
    return bool(first_strike_weapons(ctx, i))


def spend_reaction(ctx: Ctx, card: str) -> None:
    f = ctx.f
    ctx.s.sheet.hand.remove(card)
    f.discard.append(card)
    f.reactions += 1
    f.reacted = True
    ctx.emit("reaction", card=card, reaction=(card_reaction(ctx, card) or ("", 0))[0])


# ----------------------------------------------------------------- attacks


def martha_attack(ctx: Ctx, t: Task) -> None:
    """Martha's attack on enemy t.a with weapon t.s, modifier t.b, extra crit numbers t.path (W-AK-03/04, W-CR-*)."""
    f = ctx.f
    foe = f.foes[t.a]
    if foe.hp <= 0:
        return
    definition = ctx.foe_def(t.a)
    arms = weapon(ctx.s.sheet, t.s)
    terrain = dodge_modifier(ctx.board, f.cell, foe.cell, huge="huge" in definition.skills, figures=ctx.foe_cells(t.a))
    if terrain is None or ctx.board.distance(f.cell, foe.cell) > arms.range:
        ctx.emit("attack_lost", target=t.a, reason="the target is out of range or sight")
        foe.ddg = foe.blk = 0
        return
    fate = ctx.fate()
    if fate in crit_numbers(ctx.s.sheet) | set(arms.crit) | set(t.path):
        foe.hp -= 1
        ctx.emit("critical", target=t.a, fate=fate)
    total = ctx.stats["attack"] + t.b + fate
    dodge = definition.dodge + terrain + foe.ddg - foe.fs
    hit = total >= dodge
    damage = max(0, arms.damage - definition.armor - foe.blk) if hit else 0
    foe.hp -= damage
    foe.ddg = foe.blk = 0
    ctx.emit("attack", by="martha", target=t.a, weapon=t.s, total=total, dodge=dodge, hit=hit, damage=damage)
    if foe.hp <= 0:
        foe.hp = 0
        ctx.emit("defeated", target=t.a, number=foe.number)
        check_victory(ctx)


def enemy_attack(ctx: Ctx, t: Task) -> None:
    """Enemy t.a attacks with modifier t.b; t.c = 1 lets Martha react before the Fate card (W-EP-04, W-CRx-02)."""
    f = ctx.f
    foe = f.foes[t.a]
    if foe.hp <= 0:
        return
    definition = ctx.foe_def(t.a)
    if ctx.board.distance(foe.cell, f.cell) > definition.range or not visible(ctx.board, foe.cell, f.cell):
        ctx.emit("attack_lost", by=t.a, reason="Martha is out of range or sight")
        return
    ctx.then(Task("enemy_hit", t.a, t.b))
    if t.c and can_react(ctx) and attack_reactions(ctx, t.a):
        set_prompt(ctx, P_ATTACKED, t.a, t.b)


def attack_reactions(ctx: Ctx, i: int) -> list[tuple[str, str]]:
    """(card, weapon) pairs Martha may react with when enemy i attacks: Block, Dodge, special, First Strike."""
    out: list[tuple[str, str]] = []
    reach = first_strike_weapons(ctx, i)
    for card in sorted(set(ctx.s.sheet.hand)):
        reaction = card_reaction(ctx, card)
        if reaction is None:
            continue
        if reaction[0] in ("block", "dodge"):
            out.append((card, ""))
        elif reaction[0] == "first_strike":
            out.extend((card, w) for w in reach)
    return out


def enemy_hit(ctx: Ctx, t: Task) -> None:
    """Resolve enemy t.a's attack (modifier t.b, Martha's Block t.c and Dodge t.d bonuses): crit, hit, damage."""
    f = ctx.f
    foe = f.foes[t.a]
    if foe.hp <= 0:
        return
    definition = ctx.foe_def(t.a)
    fate = ctx.fate()
    crits = {6} | (set(definition.crit) if "critical" in definition.skills else set())
    points = 0
    if fate in crits:
        points += 1
        ctx.emit("critical", target="martha", fate=fate)
    terrain = dodge_modifier(ctx.board, foe.cell, f.cell) or 0
    total = definition.attack + t.b + fate
    dodge = ctx.stats["dodge"] + terrain + t.d - f.martha_fs
    hit = total >= dodge
    damage = max(0, definition.damage - ctx.stats["armor"] - t.c) if hit else 0
    ctx.emit("attack", by=t.a, target="martha", total=total, dodge=dodge, hit=hit, damage=damage)
    if points + damage:
        ctx.then(Task("damage", points + damage))


# ----------------------------------------------------------------- push


def push_foe(ctx: Ctx, t: Task) -> None:
    """Martha pushes adjacent enemy t.a one space directly away (W-PU-01, AMB-13)."""
    f = ctx.f
    foe = f.foes[t.a]
    if foe.hp <= 0 or ctx.board.distance(f.cell, foe.cell) != 1:
        return
    if "massive" in ctx.foe_def(t.a).skills:
        ctx.emit("push", target=t.a, moved=False, hurt=False)
        return
    moved, hurt, cell = _push(ctx, f.cell, foe.cell, ctx.figures(t.a) | {f.cell})
    foe.cell = cell
    if hurt:
        foe.hp -= 1
    ctx.emit("push", target=t.a, moved=moved, hurt=hurt)
    if foe.hp <= 0:
        foe.hp = 0
        ctx.emit("defeated", target=t.a, number=foe.number)
        check_victory(ctx)


def push_martha(ctx: Ctx, t: Task) -> None:
    """Enemy t.a pushes Martha if adjacent; each HP lost costs an Action Card (W-PU-02, W-EP-08)."""
    f = ctx.f
    foe = f.foes[t.a]
    if foe.hp <= 0 or ctx.board.distance(f.cell, foe.cell) != 1:
        return
    moved, hurt, cell = _push(ctx, foe.cell, f.cell, ctx.figures())
    f.cell = cell
    ctx.emit("push", by=t.a, moved=moved, hurt=hurt)
    if hurt:
        ctx.then(Task("damage", 1))


def _push(ctx: Ctx, pusher: int, target: int, occupied: set[int]) -> tuple[bool, bool, int]:
    """(moved, loses 1 HP, new cell): obstacles hurt but let through; blocked, off-field or occupied stop and hurt."""
    board = ctx.board
    px, py = board.xy(pusher)
    tx, ty = board.xy(target)
    step = (tx - px, ty - py)
    direction = next(d for d, v in DIRS.items() if v == step)
    dest = board.neighbour(target, direction)
    if dest is None or board.line(target, dest) == "blocked" or not can_stand(board, dest) or dest in occupied:
        return False, True, target
    hurt = board.line(target, dest) == "obstacle" or board.terrain[dest] == "obstacle"
    return True, hurt, dest


# ----------------------------------------------------------------- enemy reactions in the Character Phase


def fire(ctx: Ctx, i: int) -> None:
    """An enemy's trigger fired: spend its reaction, draw a Reaction Value, react if it is listed (W-ER-02/03/04)."""
    f = ctx.f
    foe = f.foes[i]
    definition = ctx.foe_def(i)
    foe.spent = True
    value = reaction_draw(ctx)
    reaction = definition.reaction
    fires = value in reaction.values
    ctx.emit("enemy_reaction", target=i, value=value, fires=fires, reaction=reaction.kind)
    if not fires:
        return
    if reaction.kind == "block":
        foe.blk = reaction.value
    elif reaction.kind == "dodge":
        foe.ddg = reaction.value
    elif reaction.kind == "retreat":
        path = plan_away(ctx.board, foe.cell, f.cell, reaction.value, frozenset(definition.skills), ctx.figures(i),
                         ctx.field.compass, lambda: reaction_draw(ctx), retreat=True)
        if path:
            foe.cell = path[-1]
            ctx.emit("enemy_move", target=i, path=path)
    elif reaction.kind == "first_strike" and ctx.board.distance(foe.cell, f.cell) <= definition.range \
            and visible(ctx.board, foe.cell, f.cell):
        foe.fs = abs(reaction.value)
        ctx.then(Task("enemy_attack", i, reaction.value, 0))


def sight_triggers(ctx: Ctx, t: Task) -> None:
    """Line-of-sight triggers after each space Martha enters and before her other actions (W-ER-01, AMB-27)."""
    f = ctx.f
    for i in initiative_order(ctx):
        foe = f.foes[i]
        reaction = ctx.foe_def(i).reaction
        if foe.spent or reaction.trigger != "sight":
            continue
        if ctx.board.distance(foe.cell, f.cell) <= reaction.range and visible(ctx.board, foe.cell, f.cell):
            ctx.then(Task("sight"))
            fire(ctx, i)
            return


def attack_trigger(ctx: Ctx, t: Task) -> None:
    """The Attack trigger fires before the attack on enemy t.a resolves (W-ER-01)."""
    foe = ctx.f.foes[t.a]
    if foe.hp > 0 and not foe.spent and ctx.foe_def(t.a).reaction.trigger == "attack":
        fire(ctx, t.a)


# ----------------------------------------------------------------- damage, Refresh, rounds, end conditions


def set_prompt(ctx: Ctx, kind: str, a: int = 0, b: int = 0, c: int = 0) -> None:
    f = ctx.f
    f.prompt, f.pa, f.pb, f.pc = kind, a, b, c


def clear_prompt(ctx: Ctx) -> None:
    set_prompt(ctx, P_NONE)


def wound_options(ctx: Ctx) -> list[str]:
    return sorted(set(ctx.s.sheet.hand) | set(ctx.f.discard))


def damage(ctx: Ctx, t: Task) -> None:
    """t.a points of damage: each sends a chosen card (hand or discard pile) under the Damage Card (W-CD-01)."""
    set_prompt(ctx, P_DAMAGE, t.a)
    settle_damage(ctx)


def wound(ctx: Ctx, card: str) -> None:
    sheet, f = ctx.s.sheet, ctx.f
    if card in sheet.hand:
        sheet.hand.remove(card)
    else:
        f.discard.remove(card)
    sheet.damaged.append(card)
    f.pa -= 1
    ctx.emit("wound", card=card)


def settle_damage(ctx: Ctx) -> None:
    """Place damage while the choice is forced; defeat once every card is under the Damage Card (W-CD-02)."""
    f = ctx.f
    while f.prompt == P_DAMAGE:
        options = wound_options(ctx)
        if not options:
            end_fight(ctx, "defeat")
            return
        if f.pa <= 0:
            clear_prompt(ctx)
            return
        if len(options) > 1:
            return
        wound(ctx, options[0])
    if not wound_options(ctx):
        end_fight(ctx, "defeat")


def check_victory(ctx: Ctx) -> None:
    if all(foe.hp <= 0 for foe in ctx.f.foes):
        end_fight(ctx, "victory")


def end_fight(ctx: Ctx, result: str) -> None:
    """An end condition is met: read its entry, return the discard pile to the hand, end the combat (W-CB-07)."""
    f = ctx.f
    if f.result:
        return
    f.result = result
    f.phase = FightPhase.OVER
    ctx.s.sheet.hand.extend(f.discard)
    f.discard = []
    f.tasks = []
    clear_prompt(ctx)
    ctx.emit("combat_over", result=result, round=f.round)


def refresh(ctx: Ctx, t: Task) -> None:
    """Refresh step 1: up to Regeneration cards back from the discard pile, chosen if there is a choice (W-RF-01)."""
    f = ctx.f
    regen = ctx.stats["regeneration"]
    ctx.then(Task("new_round"))
    if len(f.discard) <= regen:
        ctx.s.sheet.hand.extend(f.discard)
        f.discard = []
    elif regen > 0:
        set_prompt(ctx, P_REFRESH, regen)


def new_round(ctx: Ctx, t: Task) -> None:
    """Refresh step 2 (reactions unspent, W-RF-02), special Encounter Cards processed, next Character Phase."""
    f = ctx.f
    for foe in f.foes:
        foe.spent = False
    for card in end_of_round(ctx.s.decks, ctx.rng):
        ctx.emit("reshuffle", surfaced=card)
    if ctx.s.round_limit and f.round >= ctx.s.round_limit:  # only under the rule flag: not the book's (W-CB-07)
        ctx.emit("round_limit", round=f.round)
        end_fight(ctx, "defeat")
        return
    f.round += 1
    start_character_phase(ctx)


def start_character_phase(ctx: Ctx) -> None:
    f = ctx.f
    f.phase = FightPhase.CHARACTER
    f.played = 0
    f.uses = {}
    forfeit(ctx)
    ctx.emit("phase", phase=FightPhase.CHARACTER, round=f.round)


def forfeit(ctx: Ctx) -> None:
    """Unused actions of the current play are lost; enemies' First Strike / reaction modifiers end (W-CP-05/W-ER-04)."""
    f = ctx.f
    f.cur = []
    f.move_mp = f.special_mp = f.left = f.pushes = f.attack_mod = 0
    f.active = ""
    f.attack = False
    f.crits = []
    for foe in f.foes:
        foe.fs = foe.ddg = foe.blk = 0


def enemy_phase(ctx: Ctx, t: Task) -> None:
    """Every enemy still standing activates once in Initiative order, then Refresh (W-EP-01, W-CB-06); Martha's
    ally, if any, acts first (designed, ally.py)."""
    f = ctx.f
    forfeit(ctx)
    f.phase = FightPhase.ENEMY
    f.reactions = 0
    ctx.emit("phase", phase=FightPhase.ENEMY, round=f.round)
    ally = [Task("ally_act")] if f.ally is not None else []
    ctx.then(*ally, *(Task("activate", i) for i in initiative_order(ctx)), Task("refresh"))


def activate(ctx: Ctx, t: Task) -> None:
    """Start enemy t.a's activation: Martha may first play a Retreat reaction (W-CRx-03)."""
    f = ctx.f
    if f.foes[t.a].hp <= 0:
        return
    f.reacted = False
    f.martha_fs = 0
    ctx.then(Task("choose_line", t.a), Task("end_activation", t.a))
    if can_react(ctx) and retreat_cards(ctx):
        set_prompt(ctx, P_RETREAT, t.a)


def retreat_cards(ctx: Ctx) -> list[str]:
    return [c for c in sorted(set(ctx.s.sheet.hand)) if (card_reaction(ctx, c) or ("", 0))[0] == "retreat"]


def end_activation(ctx: Ctx, t: Task) -> None:
    ctx.f.martha_fs = 0
    ctx.f.reacted = False


def maybe_first_strike(ctx: Ctx, i: int, was_in_reach: bool) -> None:
    """An enemy that just moved into Martha's weapon range and sight offers her a First Strike (W-CRx-04, AMB-28)."""
    if was_in_reach or not can_react(ctx) or not in_martha_reach(ctx, i):
        return
    if any((card_reaction(ctx, c) or ("", 0))[0] == "first_strike" for c in ctx.s.sheet.hand):
        set_prompt(ctx, P_FIRST_STRIKE, i)


HANDLERS: dict[str, Callable[[Ctx, Task], None]] = {}


def run(ctx: Ctx) -> None:
    """Execute scheduled steps until Martha must decide or the fight is over."""
    f = ctx.f
    while f.tasks and not f.prompt and not f.result:
        task = f.tasks.pop()
        HANDLERS[task.kind](ctx, task)
        ctx.restat()


HANDLERS.update({
    "martha_attack": martha_attack,
    "enemy_attack": enemy_attack,
    "enemy_hit": enemy_hit,
    "push_foe": push_foe,
    "push_martha": push_martha,
    "sight": sight_triggers,
    "attack_trigger": attack_trigger,
    "damage": damage,
    "refresh": refresh,
    "new_round": new_round,
    "enemy_phase": enemy_phase,
    "activate": activate,
    "end_activation": end_activation,
})
