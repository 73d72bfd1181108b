"""Martha's legal choices and their effects: the Character Phase (cards, moves, attacks, push, re-equip) and
every prompt (reactions, damage, Refresh, free re-equip)."""

from __future__ import annotations

from itertools import combinations

from gamehall.engine import Action, IllegalAction
from gamehall.games.grimm_world.actions import (
    Attack,
    Decline,
    EndPhase,
    Play,
    Push,
    React,
    Recover,
    Reequip,
    Step,
    Stop,
    Wound,
)
from gamehall.games.grimm_world.board import DIR_ORDER, can_stand, step_cost
from gamehall.games.grimm_world.catalog import ACTION_CARDS, CHARACTERS
from gamehall.games.grimm_world.combat import (
    HANDLERS,
    attack_reactions,
    card_reaction,
    clear_prompt,
    first_strike_weapons,
    forfeit,
    retreat_cards,
    set_prompt,
    settle_damage,
    spend_reaction,
    wound,
    wound_options,
)
from gamehall.games.grimm_world.context import Ctx
from gamehall.games.grimm_world.sheet import combat_loadouts, set_loadout, weapons
from gamehall.games.grimm_world.sight import visible
from gamehall.games.grimm_world.state import (
    P_ATTACKED,
    P_DAMAGE,
    P_EQUIP,
    P_FIRST_STRIKE,
    P_REFRESH,
    P_RETREAT,
    P_RETREAT_MOVE,
    FightPhase,
    Task,
)


def legal(ctx: Ctx) -> list[Action]:
    """Every legal choice for Martha now (empty once the fight is over)."""
    f = ctx.f
    if f.result:
        return []
    handler = _PROMPTS.get(f.prompt)
    if handler is not None:
        return handler(ctx)
    if f.phase != FightPhase.CHARACTER:
        return []
    return character_phase(ctx)


# ----------------------------------------------------------------- Character Phase


def character_phase(ctx: Ctx) -> list[Action]:
    f = ctx.f
    sheet = ctx.s.sheet
    out: list[Action] = []
    room = ctx.stats["action"] - f.played
    hand = sorted(sheet.hand)
    for n in range(1, min(room, len(hand)) + 1):
        out.extend(Play(combo) for combo in combinations(hand, n))
    if room > 0:
        loadouts = combat_loadouts(sheet)
        out.extend(Reequip(card, hands, accessories) for card in hand for hands, accessories in loadouts)
    for special in (False, True):
        mp = _pool(ctx, special)
        if mp <= 0:
            continue
        for d in DIR_ORDER:
            dest = _martha_step(ctx, d, mp)
            if dest is not None:
                out.append(Step(d, special))
    if f.attack:
        for i, foe in enumerate(f.foes):
            if foe.hp <= 0:
                continue
            reach = first_strike_weapons(ctx, i)
            for w in weapons(sheet):
                if w.key in reach and (w.rate is None or f.uses.get(w.key, 0) < w.rate):
                    out.append(Attack(i, w.key))
    if f.pushes > 0:
        out.extend(Push(i) for i, foe in enumerate(f.foes) if foe.hp > 0 and ctx.board.distance(f.cell, foe.cell) == 1)
    out.append(EndPhase())
    return out


def _pool(ctx: Ctx, special: bool) -> int:
    """MP available to the next step from the Move (or Special Skill) action of the current play."""
    f = ctx.f
    pool = "special" if special else "move"
    if f.active == pool:
        return f.left
    return f.special_mp if special else f.move_mp


def _martha_step(ctx: Ctx, direction: str, mp: int) -> int | None:
    """The space Martha would enter, if the step is affordable, free of enemies and standable (W-MV-01..03)."""
    f = ctx.f
    dest = ctx.board.neighbour(f.cell, direction)
    if dest is None or not can_stand(ctx.board, dest) or dest in ctx.figures():
        return None
    cost = step_cost(ctx.board, f.cell, dest)
    if cost is None or cost > mp:
        return None
    return dest


def apply_character(ctx: Ctx, action: Action) -> None:
    f = ctx.f
    sheet = ctx.s.sheet
    if isinstance(action, Play):
        forfeit(ctx)
        for card in action.cards:
            sheet.hand.remove(card)
            f.discard.append(card)
        f.played += len(action.cards)
        defs = [ACTION_CARDS[c] for c in action.cards]
        f.cur = list(action.cards)
        f.move_mp = sum(d.move for d in defs)
        f.special_mp = CHARACTERS[sheet.character].special_move * sum(1 for d in defs if d.special)
        attacks = [d.attack for d in defs if d.attack is not None]
        f.attack = bool(attacks)
        f.attack_mod = sum(attacks)
        f.crits = sorted({n for d in defs for n in d.crit})
        f.pushes = sum(1 for d in defs if d.push)
        ctx.emit("play", cards=list(action.cards))
    elif isinstance(action, Step):
        pool = "special" if action.special else "move"
        if f.active != pool:
            f.left = f.special_mp if action.special else f.move_mp
            if action.special:
                f.special_mp = 0
            else:
                f.move_mp = 0
            f.active = pool
        dest = _martha_step(ctx, action.dir, f.left)
        if dest is None:
            raise IllegalAction(f"Martha cannot step {action.dir}")
        f.left -= step_cost(ctx.board, f.cell, dest) or 0
        f.cell = dest
        ctx.emit("step", cell=dest)
        ctx.then(Task("sight"))
    elif isinstance(action, Attack):
        f.attack = False
        f.active, f.left = "", 0
        f.uses[action.weapon] = f.uses.get(action.weapon, 0) + 1
        ctx.then(Task("sight"), Task("attack_trigger", action.target),
                 Task("martha_attack", action.target, f.attack_mod, s=action.weapon, path=list(f.crits)))
    elif isinstance(action, Push):
        f.pushes -= 1
        f.active, f.left = "", 0
        ctx.then(Task("sight"), Task("push_foe", action.target))
    elif isinstance(action, Reequip):
        forfeit(ctx)
        sheet.hand.remove(action.card)
        f.discard.append(action.card)
        f.played += 1
        ctx.then(Task("sight"), Task("equip", s=",".join(action.hands) + "|" + ",".join(action.accessories)))
    elif isinstance(action, EndPhase):
        ctx.then(Task("enemy_phase"))


def equip_task(ctx: Ctx, t: Task) -> None:
    """The re-equip of a played card (after the sight triggers): t.s is 'hand items|accessories'."""
    hands, _, accessories = t.s.partition("|")
    set_loadout(ctx.s.sheet, tuple(k for k in hands.split(",") if k), tuple(k for k in accessories.split(",") if k))
    ctx.emit("reequip", hands=hands, accessories=accessories)


# ----------------------------------------------------------------- prompts


def _equip_choices(ctx: Ctx) -> list[Action]:
    return [*(Reequip("", hands, accessories) for hands, accessories in combat_loadouts(ctx.s.sheet)), Decline()]


def _retreat_choices(ctx: Ctx) -> list[Action]:
    return [*(React(card) for card in retreat_cards(ctx)), Decline()]


def _retreat_move_choices(ctx: Ctx) -> list[Action]:
    return [*(Step(d) for d in DIR_ORDER if _retreat_dest(ctx, d) is not None), Stop()]


def _retreat_dest(ctx: Ctx, direction: str) -> int | None:
    """A Retreat step (W-CRx-03): "The distance to the enemy must be equal or greater after this reaction" (8.2.2.3.3).
    Our reading: no step may bring Martha closer to the activated enemy than she stood when the Retreat was played
    (f.pc), so she never goes round it, every stop is legal, and a step need not gain distance (a sideways step
    round a rock, a step back to the starting distance)."""
    f = ctx.f
    dest = _martha_step(ctx, direction, f.pb)
    if dest is None:
        return None
    return dest if ctx.board.distance(dest, f.foes[f.pa].cell) >= f.pc else None


def _attacked_choices(ctx: Ctx) -> list[Action]:
    return [*(React(card, w) for card, w in attack_reactions(ctx, ctx.f.pa)), Decline()]


def _first_strike_choices(ctx: Ctx) -> list[Action]:
    reach = first_strike_weapons(ctx, ctx.f.pa)
    out: list[Action] = []
    for card in sorted(set(ctx.s.sheet.hand)):
        if (card_reaction(ctx, card) or ("", 0))[0] == "first_strike":
            out.extend(React(card, w) for w in reach)
    return [*out, Decline()]


def _damage_choices(ctx: Ctx) -> list[Action]:
    return [Wound(card) for card in wound_options(ctx)]


def _refresh_choices(ctx: Ctx) -> list[Action]:
    return [Recover(card) for card in sorted(set(ctx.f.discard))]


_PROMPTS = {
    P_EQUIP: _equip_choices,
    P_RETREAT: _retreat_choices,
    P_RETREAT_MOVE: _retreat_move_choices,
    P_ATTACKED: _attacked_choices,
    P_FIRST_STRIKE: _first_strike_choices,
    P_DAMAGE: _damage_choices,
    P_REFRESH: _refresh_choices,
}


def apply_prompt(ctx: Ctx, action: Action) -> None:
    f = ctx.f
    kind = f.prompt
    if kind == P_EQUIP:
        clear_prompt(ctx)
        if isinstance(action, Reequip):
            set_loadout(ctx.s.sheet, action.hands, action.accessories)
            ctx.emit("reequip", hands=",".join(action.hands), accessories=",".join(action.accessories), free=True)
    elif kind == P_RETREAT:
        enemy = f.pa
        clear_prompt(ctx)
        if isinstance(action, React):
            spend_reaction(ctx, action.card)
            reaction = card_reaction(ctx, action.card)
            start = ctx.board.distance(f.cell, f.foes[enemy].cell)
            set_prompt(ctx, P_RETREAT_MOVE, enemy, reaction[1] if reaction else 0, start)
            _close_retreat_if_stuck(ctx)
    elif kind == P_RETREAT_MOVE:
        if isinstance(action, Step):
            dest = _retreat_dest(ctx, action.dir)
            if dest is None:
                raise IllegalAction("a Retreat step must lead away from the enemy")
            f.pb -= step_cost(ctx.board, f.cell, dest) or 0
            f.cell = dest
            ctx.emit("step", cell=dest, retreat=True)
            _close_retreat_if_stuck(ctx)
        else:
            clear_prompt(ctx)
    elif kind == P_ATTACKED:
        enemy, mod = f.pa, f.pb
        clear_prompt(ctx)
        if isinstance(action, React):
            _attacked_reaction(ctx, enemy, mod, action)
    elif kind == P_FIRST_STRIKE:
        enemy = f.pa
        clear_prompt(ctx)
        if isinstance(action, React):
            _first_strike(ctx, enemy, action)
    elif kind == P_DAMAGE and isinstance(action, Wound):
        wound(ctx, action.card)
        settle_damage(ctx)
    elif kind == P_REFRESH and isinstance(action, Recover):
        f.discard.remove(action.card)
        ctx.s.sheet.hand.append(action.card)
        f.pa -= 1
        if f.pa <= 0 or not f.discard:
            clear_prompt(ctx)


def _close_retreat_if_stuck(ctx: Ctx) -> None:
    if ctx.f.pb <= 0 or all(_retreat_dest(ctx, d) is None for d in DIR_ORDER):
        clear_prompt(ctx)


def _attacked_reaction(ctx: Ctx, enemy: int, mod: int, action: React) -> None:
    """Block / Dodge change the pending attack; First Strike attacks first (W-CRx-02/04)."""
    f = ctx.f
    reaction = card_reaction(ctx, action.card)
    spend_reaction(ctx, action.card)
    hit = next(t for t in reversed(f.tasks) if t.kind == "enemy_hit")
    if reaction is None:
        return
    if reaction[0] == "block":
        hit.c += reaction[1]
    elif reaction[0] == "dodge":
        hit.d += reaction[1]
    elif reaction[0] == "first_strike":
        _strike(ctx, enemy, reaction[1], action.weapon)


def _first_strike(ctx: Ctx, enemy: int, action: React) -> None:
    reaction = card_reaction(ctx, action.card)
    spend_reaction(ctx, action.card)
    if reaction is not None:
        _strike(ctx, enemy, reaction[1], action.weapon)


def _strike(ctx: Ctx, enemy: int, mod: int, weapon: str) -> None:
    """Martha's First Strike: an attack at `mod`, her Dodge reduced by |mod| until the activation ends (AMB-5)."""
    f = ctx.f
    seen = visible(ctx.board, f.cell, f.foes[enemy].cell, ctx.foe_cells(enemy))
    if weapon not in first_strike_weapons(ctx, enemy) or not seen:
        raise IllegalAction(f"{weapon} does not reach enemy {enemy}")
    f.martha_fs = abs(mod)
    ctx.then(Task("martha_attack", enemy, mod, s=weapon))


HANDLERS["equip"] = equip_task
