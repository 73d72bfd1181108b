"""The Aftermath phase: reveal, resolve in RN order, end the turn (C 'The Aftermath Phase').

Each revealed play goes through stages: START (owner at 0 HP -> deactivated; already removed ->
skipped; pay the EP cost or deactivate; element strength/weakness decided now, against the
target's still-unresolved element), CHOOSE (Redirect, Equilibrium, Transmute prompts), EFFECT
(compute atoms; a Forgotten target may absorb DMG with True Grit), APPLY (net, clamp, discard).
The next play is always the pending one with the lowest (RN, seat clockwise from the first
player), so Equilibrium's re-sorted copies and removed cards need no bookkeeping.
"""

from __future__ import annotations

from gamehall.engine.protocol import Event
from gamehall.engine.rng import Rng
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers import creatures
from gamehall.games.grimslingers.effects import Cast, apply_atoms, bind_scourge, compute, option_list
from gamehall.games.grimslingers.items import offer_grit
from gamehall.games.grimslingers.piles import deactivate_card, discard_card, finish_card, reveal_signature
from gamehall.games.grimslingers.revival import (
    check_stalemate,
    check_victory,
    defeat_check,
    offer_end_of_aftermath,
    offer_immediate,
)
from gamehall.games.grimslingers.state import (
    Commitment,
    Phase,
    Picking,
    PickKind,
    Play,
    PlayStatus,
    Prompt,
    PromptKind,
    Resource,
    Stage,
    StandoffUse,
    State,
)
from gamehall.games.grimslingers.table import aimed_target, foes, fp_order, is_foe, living, next_living, seat_key, team
from gamehall.games.grimslingers.tale_effects import over_limit

PURGE_FREE = 2
"""Elemental Catalyst's Purge: up to 2 spells, +1 EP each, free (AMB-28)."""
END_PROMPTS = -2
"""`cur_play` value once the end-of-Aftermath revival offers have been made."""


def effective(p: Play) -> int:
    return p.as_card if p.as_card >= 0 else p.card


def build_plays(s: State, events: list[Event], rng: Rng) -> None:
    """Reveal every committed card ("Draw!") with its RN, NV and DMG boosts; a creature skill
    picks its single target now (card data, AMB-27) and takes its modifiers' NV and RN."""
    plays = []
    for seat in fp_order(s):
        x = s.seats[seat]
        c = x.commit
        if c is None or c.kind != Commitment.PLAY:
            continue
        card = c.cards[0]
        combine = c.cards[1] if len(c.cards) > 1 else -1
        p = Play(seat, card, combine, aimed_target(s, seat), cat.RN[card])
        if seat == s.creature:
            p.target = creatures.target(s, card, rng) if cat.CARDS[card].target == "single" else -1
            p.nv_boost += creatures.nv_bonus(s)
            p.resolution_number += creatures.rn_shift(s)
        if cat.IS_SPELL[card]:
            if x.surged:
                p.nv_boost += 1
            if x.flare:
                p.nv_boost += 1
                p.resolution_number -= 1
        if combine >= 0:
            for e in cat.CARDS[combine].effects:
                if e.op == "nv_bonus":
                    p.nv_boost += e.n
                elif e.op == "dmg_bonus":
                    p.bonus += e.n
                elif e.op == "rn_shift":
                    p.resolution_number += e.n
        plays.append(p)
        reveal_signature(s, seat, card)
        events.append(
            Event(
                "revealed",
                {
                    "seat": seat,
                    "card": cat.KEYS[card],
                    "combine": cat.KEYS[combine] if combine >= 0 else None,
                    "target": p.target,
                    "rn": p.resolution_number,
                },
            )
        )
    s.plays = plays
    s.current_play = -1
    s.phase = Phase.AFTERMATH


def _next_play(s: State) -> int:
    best, best_key = -1, (99, 99, 99)
    for i, p in enumerate(s.plays):
        if p.status == PlayStatus.PENDING:
            key = (p.resolution_number, seat_key(s, p.owner), i)
            if key < best_key:
                best, best_key = i, key
    return best


def _cards(p: Play) -> list[int]:
    return [p.card] + ([p.combine] if p.combine >= 0 else [])


def _remove(s: State, p: Play, *, deactivate: bool) -> None:
    p.status = PlayStatus.REMOVED
    for card in _cards(p):
        if deactivate:
            deactivate_card(s, p.owner, card)
        else:
            discard_card(s, p.owner, card)


def targets_of(s: State, p: Play, card: int) -> list[int]:
    kind = cat.CARDS[card].target
    if kind == "single":
        return [p.target]
    if kind == "self":
        return [p.owner]
    if kind == "team":
        return team(s, p.owner)
    if kind == "all":
        return living(s)
    if kind == "all_foes":
        return foes(s, p.owner)
    if kind == "ally":
        return [p.target if p.target >= 0 and not is_foe(s, p.owner, p.target) and s.seats[p.target].alive else p.owner]
    return []


def run(s: State, events: list[Event], rng: Rng) -> None:
    """Resolve plays until a prompt needs an answer or the turn is over."""
    while not s.prompts and s.picking is None and s.phase == Phase.AFTERMATH and over_limit(s) < 0:
        if s.current_play == END_PROMPTS:
            _end_of_turn(s, events)
            return
        if s.current_play < 0:
            s.current_play = _next_play(s)
            s.stage = Stage.START
            if s.current_play < 0:
                _end_of_aftermath(s)
                continue
        p = s.plays[s.current_play]
        if s.stage == Stage.START:
            _start(s, p, events)
        elif s.stage == Stage.CHOOSE:
            _choose(s, p)
        elif s.stage == Stage.EFFECT:
            _effect(s, p, events, rng)
        elif s.stage == Stage.TRUE_GRIT:
            s.stage = Stage.APPLY
        elif s.stage == Stage.APPLY:
            _apply(s, p, events, rng)


def _done(s: State) -> None:
    s.current_play = -1
    s.stage = Stage.START


def _start(s: State, p: Play, events: list[Event]) -> None:
    owner = s.seats[p.owner]
    if p.status != PlayStatus.PENDING:
        _done(s)
        return
    if owner.hp <= 0 or (p.owner == s.creature and owner.ep <= 0):
        _remove(s, p, deactivate=True)
        events.append(Event("deactivated", {"seat": p.owner, "card": cat.KEYS[p.card], "why": "owner at 0 HP"}))
        _done(s)
        return
    card = effective(p)
    cost = cat.COST[card] if (p.as_card < 0 or s.flags.equilibrium_copy_cost) else cat.COST[p.card]
    if cost:
        if owner.ep < cost:
            owner.ep = 0
            _remove(s, p, deactivate=True)
            events.append(Event("deactivated", {"seat": p.owner, "card": cat.KEYS[p.card], "why": "cannot pay"}))
            _done(s)
            return
        owner.ep -= cost
    if owner.bloodlust_bonus and not p.consumed and cat.IS_SPELL[p.card] and cat.DAMAGING[card]:
        p.bonus += owner.bloodlust_bonus
        owner.bloodlust_bonus = 0
        p.consumed = True
    if cat.IS_ELEMENT[card]:
        beats = cat.BEATS[s.flags.element_cycle]
        for q in s.plays:
            if q is p or q.owner != p.target or q.status != PlayStatus.PENDING or not cat.IS_ELEMENT[effective(q)]:
                continue
            theirs = effective(q)
            if beats.get(theirs) == card:
                _remove(s, p, deactivate=False)
                events.append(
                    Event("element_weak", {"seat": p.owner, "card": cat.KEYS[card], "beaten_by": cat.KEYS[theirs]})
                )
                _done(s)
                return
            if beats.get(card) == theirs:
                _remove(s, q, deactivate=False)
                events.append(
                    Event(
                        "element_strong",
                        {"seat": p.owner, "card": cat.KEYS[card], "beats": cat.KEYS[theirs], "of": q.owner},
                    )
                )
    s.stage = Stage.CHOOSE


def _choose(s: State, p: Play) -> None:
    card = effective(p)
    ops = {e.op for e in cat.CARDS[card].effects}
    s.stage = Stage.EFFECT
    if "equilibrium" in ops and p.as_card < 0:
        options = [
            i for i, q in enumerate(s.plays) if q is not p and q.status == PlayStatus.PENDING and cat.IS_SPELL[q.card]
        ]
        if options:
            s.stage = Stage.CHOOSE
            s.prompts.append(Prompt(p.owner, PromptKind.EQUILIBRIUM, options, s.current_play))
    elif "redirect" in ops:
        for i in _resolution_order(s):
            q = s.plays[i]
            if q is not p and cat.CARDS[effective(q)].target == "single":
                s.prompts.append(Prompt(p.owner, PromptKind.REDIRECT, living(s), i))
    elif "transmute" in ops:
        s.prompts.append(Prompt(p.owner, PromptKind.TRANSMUTE, [0, 1], s.current_play))
    elif "choose_one" in ops:
        # the targets of a skill make the choices it gives them, one after another
        effect = next(e for e in cat.CARDS[card].effects if e.op == "choose_one")
        for seat in targets_of(s, p, card):
            if seat == s.creature:  # redirected at the creature itself: it makes no choices
                p.choices += [seat, option_list(s, seat, effect)[0]]
            else:
                # public options: every branch; which ones the seat can take (holding WIND) is
                # its secret (item 5 of issue 40), see `skill_options`
                s.prompts.append(
                    Prompt(seat, PromptKind.SKILL_OPTION, list(range(len(effect.branches))), s.current_play)
                )
    elif "catalyst" in ops:
        for seat in targets_of(s, p, card):
            if seat != s.creature and any(cat.IS_SPELL[c] for c in s.seats[seat].hand):
                s.picking = Picking(seat, PickKind.PURGE, PURGE_FREE, 0)  # the card's free Purge (AMB-28)
                break


def skill_options(s: State, prompt: Prompt) -> list[int]:
    """The options of a skill's choice the prompted seat can really take (its legal answers; the
    prompt itself lists every option, so that the others learn nothing about the seat's hand)."""
    card = effective(s.plays[prompt.ref])
    effect = next(e for e in cat.CARDS[card].effects if e.op == "choose_one")
    return option_list(s, prompt.seat, effect)


def _resolution_order(s: State) -> list[int]:
    pending = [i for i, q in enumerate(s.plays) if q.status == PlayStatus.PENDING]
    return sorted(pending, key=lambda i: (s.plays[i].resolution_number, seat_key(s, s.plays[i].owner), i))


def answer_choice(s: State, prompt: Prompt, option: int) -> None:
    """Apply a Redirect / Equilibrium / Transmute / True Grit answer."""
    if prompt.kind == PromptKind.REDIRECT:
        s.plays[prompt.ref].target = option
    elif prompt.kind == PromptKind.EQUILIBRIUM:
        model = effective(s.plays[option])
        for q in s.plays:
            if q.status == PlayStatus.PENDING and cat.IS_SPELL[q.card]:
                q.as_card = model
                q.resolution_number = cat.RN[model]
        s.stage = Stage.CHOOSE  # the copy may itself need a choice (e.g. Redirect)
    elif prompt.kind == PromptKind.TRANSMUTE:
        owner = s.seats[s.plays[prompt.ref].owner]
        owner.transmute = option
        owner.transmute_phase = Phase.AFTERMATH
    elif prompt.kind == PromptKind.SKILL_OPTION:
        allowed = skill_options(s, prompt)
        s.plays[prompt.ref].choices += [prompt.seat, option if option in allowed else allowed[0]]
    elif prompt.kind == PromptKind.TRUE_GRIT and option > 0:
        s.pending[:0] = [[prompt.seat, Resource.EP, -option], [prompt.seat, Resource.HP, option]]


def _cast(s: State, p: Play, card: int) -> Cast:
    choices = dict(zip(p.choices[::2], p.choices[1::2], strict=True))
    return Cast(p.owner, targets_of(s, p, card), p.nv_boost, p.bonus, choices=choices)


def _effect(s: State, p: Play, events: list[Event], rng: Rng) -> None:
    card = effective(p)
    effects = cat.card_effects(card, s.flags.wind_water_damage)
    extra = [e for e in cat.CARDS[p.combine].effects] if p.combine >= 0 else []
    if s.advanced:
        # AD: FX in written order; stop if the caster drops to 0 HP (targets dying do not stop it)
        cast = _cast(s, p, card)
        downed: list[int] = []
        was = s.scourge_on
        for effect in effects:
            atoms = compute(s, cast, [effect], rng)
            # one FX at a time; Elemental Catalyst's elements land "all at the same time"
            together = effect.op == "catalyst"
            downed += apply_atoms(s, p.owner, atoms, rng, netting=together, action_card=True)
            if s.seats[p.owner].hp <= 0:
                events.append(Event("fx_stopped", {"seat": p.owner, "card": cat.KEYS[card]}))
                break
        _finish(s, p, events, card, placed=bind_scourge(s, was, p.owner, p.card))
        for seat in dict.fromkeys(downed):
            offer_immediate(s, seat)
        return
    cast = _cast(s, p, card)
    atoms = compute(s, cast, list(effects), rng)
    if extra:
        atoms += compute(s, Cast(p.owner, cast.targets, 0, 0), extra, rng)
    s.pending = atoms
    s.stage = Stage.TRUE_GRIT if offer_grit(s, cast.absorbable, s.current_play) else Stage.APPLY


def _apply(s: State, p: Play, events: list[Event], rng: Rng) -> None:
    card = effective(p)
    atoms, s.pending = s.pending, []
    was = s.scourge_on
    zeroed = apply_atoms(s, p.owner, atoms, rng, netting=s.flags.fx_netting, action_card=True)
    _finish(s, p, events, card, placed=bind_scourge(s, was, p.owner, p.card))
    for seat in zeroed:
        offer_immediate(s, seat)


def _finish(s: State, p: Play, events: list[Event], card: int, *, placed: bool) -> None:
    events.append(
        Event("resolved", {"seat": p.owner, "card": cat.KEYS[p.card], "as": cat.KEYS[card], "target": p.target})
    )
    if p.status == PlayStatus.PENDING:
        p.status = PlayStatus.RESOLVED
        if not placed:
            finish_card(s, p.owner, p.card)
        if p.combine >= 0:
            finish_card(s, p.owner, p.combine)
    _done(s)


def _end_of_aftermath(s: State) -> None:
    """Step 3-4 (surge flips back, target cards return), then end-of-Aftermath revival offers."""
    s.current_play = END_PROMPTS
    for i in fp_order(s):
        offer_end_of_aftermath(s, i)


def _end_of_turn(s: State, events: list[Event]) -> None:
    defeated = defeat_check(s)
    for seat in defeated:
        events.append(Event("defeated", {"seat": seat}))
    if check_victory(s) or check_stalemate(s, bool(defeated)):
        if s.ranks is not None:
            events.append(Event("match_over", {"ranks": list(s.ranks or []), "reason": s.reason}))
        return
    for x in s.seats:
        if x.bloodlust_active:
            x.bloodlust_bonus += x.bloodlust_tally
        x.bloodlust_active, x.bloodlust_tally = False, 0
        x.aim, x.commit, x.acted, x.standoff_used, x.anima = -1, None, 0, StandoffUse.NONE, False
        x.surged = x.flare = x.dark = x.exalt = x.zeroed = False
        x.barrier, x.transmute, x.transmute_phase = 0, -1, -1
        x.dealt = [0] * s.n
    s.plays, s.pending = [], []
    s.current_play = -1
    s.evert = False
    s.turn += 1
    if s.creature < 0:
        s.first_player = next_living(s, s.first_player)  # a creature stays the first player
    s.phase = Phase.STANDOFF
    s.standoff_open = False
    events.append(Event("turn", {"turn": s.turn, "first_player": s.first_player}))
