"""The Draw phase: Step One (target cards) and Step Two (secret commitments), then the reveal.

Both steps are simultaneous and secret: every undecided living seat is to act, and nobody sees
another seat's choice until all have chosen. After the last commitment, passes (+2 EP), Into
Darkness and Blood Feast resolve clockwise from the first player, then every eligible Outlaw
may Dirty Cheat (in the same order), and only then are the cards revealed ("Draw!").
"""

from __future__ import annotations

from gamehall.engine.errors import IllegalAction
from gamehall.engine.protocol import Action, Event
from gamehall.engine.rng import Rng
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.actions import Aim, BloodFeast, Cheat, Choose, IntoDarkness, Pass, Play
from gamehall.games.grimslingers.aftermath import build_plays
from gamehall.games.grimslingers.effects import Cast, apply_atoms, bind_scourge, compute, gained_hp
from gamehall.games.grimslingers.items import playable_item
from gamehall.games.grimslingers.piles import deactivate_card, reveal_signature
from gamehall.games.grimslingers.revival import offer_immediate
from gamehall.games.grimslingers.state import (
    COMMIT_NAMES,
    Commit,
    Commitment,
    Phase,
    Prompt,
    PromptKind,
    State,
)
from gamehall.games.grimslingers.table import aimed_target, draw_in_order, fp_order, living

PASS_EP = 2
DARK_HP = 2
FEAST_HP, FEAST_EP = 2, 1


def aim_legal(s: State, seat: int) -> list[Action]:
    return [Aim(t) for t in living(s) if t != seat]


def apply_aim(s: State, seat: int, action: Aim, events: list[Event]) -> None:
    s.seats[seat].aim = action.target
    events.append(Event("aimed", {"seat": seat}))
    events.append(Event("your_aim", {"target": action.target}, frozenset({seat})))
    if all(s.seats[i].aim >= 0 for i in living(s)):
        s.phase = Phase.FIRE
        events.append(Event("targets_revealed", {"targets": {str(i): s.seats[i].aim for i in living(s)}}))


def _combine_ok(spell: int, combine: int) -> bool:
    need = cat.CARDS[combine].combine_with
    return need is None or cat.KEYS[spell] == need


def fire_legal(s: State, seat: int) -> list[Action]:
    x = s.seats[seat]
    out: list[Action] = [Pass()]
    combines = [c for c in x.hand if cat.IS_COMBINE[c]]
    for c in x.hand:
        if cat.IS_SPELL[c]:
            if cat.CARDS[c].use != "draw":
                continue
            key = cat.KEYS[c]
            out.append(Play(key))
            out += [Play(key, cat.KEYS[k]) for k in combines if _combine_ok(c, k)]
        elif playable_item(s, c):
            out.append(Play(cat.KEYS[c]))
    if x.archetype == cat.DAEMON:
        out.append(IntoDarkness())
    if x.archetype == cat.VAMPYRE and x.ep >= cat.ARCHETYPES[cat.VAMPYRE].ability_cost:
        out.append(BloodFeast())
    return out


def apply_fire(s: State, seat: int, action: Action, events: list[Event]) -> None:
    x = s.seats[seat]
    if isinstance(action, Play):
        cards = [cat.ID[action.card]] + ([cat.ID[action.combine]] if action.combine else [])
        for c in cards:
            x.hand.remove(c)
        x.commit = Commit(Commitment.PLAY, cards)
    elif isinstance(action, Pass):
        x.commit = Commit(Commitment.PASS)
    elif isinstance(action, IntoDarkness):
        x.commit = Commit(Commitment.INTO_DARKNESS)
    elif isinstance(action, BloodFeast):
        x.commit = Commit(Commitment.BLOOD_FEAST)
    else:
        raise IllegalAction(f"{type(action).__name__} is not a Draw action")
    if draw_in_order(s):
        # declared aloud in turn order: a pass (and Into Darkness, Blood Feast) happens at once
        events.append(Event("committed", {"seat": seat, "kind": COMMIT_NAMES[x.commit.kind]}))
        _declared(s, seat, events)
    else:
        events.append(Event("committed", {"seat": seat}))
    if all(s.seats[i].commit is not None for i in living(s)):
        s.phase = Phase.CHEAT
        s.current = -1
        s.order = fp_order(s)


def run_reveal(s: State, events: list[Event], rng: Rng) -> None:
    """After the last commitment: passes and pass-like abilities, then Dirty Cheat offers, then "Draw!"."""
    if s.current == -1 and draw_in_order(s):
        s.order = []  # every declaration already happened in turn order
    if s.current == -1:
        while s.order and not s.prompts:
            _declared(s, s.order.pop(0), events)
        if s.prompts:
            return
        s.current = 0
        s.order = [i for i in fp_order(s) if _may_cheat(s, i)]
    while s.order and not s.prompts:
        seat = s.order.pop(0)
        if _may_cheat(s, seat):
            s.prompts.append(Prompt(seat, PromptKind.DIRTY_CHEAT, [0]))
            return
    if not s.prompts:
        build_plays(s, events, rng)


def _declared(s: State, seat: int, events: list[Event]) -> None:
    x = s.seats[seat]
    c = x.commit
    if c is None or c.kind == Commitment.PLAY:
        return
    if c.kind == Commitment.PASS:
        x.ep = min(x.max_ep, x.ep + PASS_EP)
        events.append(Event("passed", {"seat": seat}))
    elif c.kind == Commitment.INTO_DARKNESS:
        before = x.hp
        x.hp = max(0, x.hp - DARK_HP)
        x.ep = min(x.max_ep, x.ep + PASS_EP)
        x.dark = True
        events.append(Event("into_darkness", {"seat": seat}))
        if before > 0 and x.hp == 0:
            offer_immediate(s, seat)
    elif c.kind == Commitment.BLOOD_FEAST:
        target = aimed_target(s, seat)
        victim = s.seats[target]
        x.ep -= min(x.ep, cat.ARCHETYPES[cat.VAMPYRE].ability_cost)
        hp = min(FEAST_HP, victim.hp)
        ep = min(FEAST_EP, victim.ep)
        before, mine = victim.hp, x.hp
        victim.hp -= hp
        victim.ep -= ep
        x.hp = min(x.max_hp, x.hp + hp)
        x.ep = min(x.max_ep, x.ep + ep)
        gained_hp(s, seat, mine)
        if s.flags.blood_feast_pass_bonus:
            x.ep = min(x.max_ep, x.ep + PASS_EP)
        events.append(Event("blood_feast", {"seat": seat, "target": target, "hp": hp, "ep": ep}))
        if before > 0 and victim.hp == 0:
            offer_immediate(s, target)


def _cheat_spells(s: State, seat: int) -> list[int]:
    return [c for c in s.seats[seat].hand if cat.IS_SPELL[c] and cat.CARDS[c].use == "draw"]


def _may_cheat(s: State, seat: int) -> bool:
    x = s.seats[seat]
    if not x.alive or x.archetype != cat.OUTLAW or x.ep < cat.ARCHETYPES[cat.OUTLAW].ability_cost:
        return False
    if not s.flags.cheat_after_pass and x.commit is not None and x.commit.kind != Commitment.PLAY:
        return False
    return bool(_cheat_spells(s, seat))


def cheat_legal(s: State, seat: int) -> list[Action]:
    out: list[Action] = [Choose(0)]
    others = [t for t in living(s) if t != seat]
    for c in _cheat_spells(s, seat):
        targets = others if cat.CARDS[c].target == "single" else [seat]
        out += [Cheat(cat.KEYS[c], t) for t in targets]
    return out


def apply_cheat(s: State, seat: int, action: Cheat, events: list[Event], rng: Rng) -> None:
    """Dirty Cheat: 2 EP, one extra spell from hand resolves now with no DMG, then is discarded."""
    x = s.seats[seat]
    card = cat.ID[action.card]
    x.ep -= cat.ARCHETYPES[cat.OUTLAW].ability_cost
    x.hand.remove(card)
    reveal_signature(s, seat, card)
    events.append(Event("dirty_cheat", {"seat": seat, "card": action.card, "target": action.target}))
    cost = cat.COST[card] if s.flags.cheat_pays_spell_cost else 0
    if x.ep < cost:
        x.ep = 0
        deactivate_card(s, seat, card)
        return
    x.ep -= cost
    targets = [action.target] if cat.CARDS[card].target == "single" else _cheat_targets(s, seat, card)
    cast = Cast(seat, targets, no_dmg=True)
    atoms = compute(s, cast, cat.card_effects(card, s.flags.wind_water_damage), rng)
    was = s.scourge_on
    zeroed = apply_atoms(s, seat, atoms, rng, netting=s.flags.fx_netting, action_card=True)
    if not bind_scourge(s, was, seat, card):
        s.seats[seat].discard.append(card)  # "Cheated spell cards are discarded" (AMB-19)
    for z in zeroed:
        offer_immediate(s, z)


def _cheat_targets(s: State, seat: int, card: int) -> list[int]:
    from gamehall.games.grimslingers.aftermath import targets_of
    from gamehall.games.grimslingers.state import Play as RevealedPlay

    return targets_of(s, RevealedPlay(seat, card, target=seat), card)
