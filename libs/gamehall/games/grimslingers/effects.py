"""The effect interpreter: a card's effect list (content data) -> atoms -> state changes.

`compute` turns effects into atoms `[seat, resource, amount]` against the state as it is before
the card applies (core rule: all FX of a card happen simultaneously, AMB-36), running DMG through
the protection pipeline. `apply_atoms` then nets and clamps them (or applies them one by one when
netting is off), draws random discards/deactivations from the hand, and applies statuses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from gamehall.engine.rng import Rng
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.content.schema import Effect
from gamehall.games.grimslingers.piles import deactivate_card, discard_card, to_hand_in_public
from gamehall.games.grimslingers.state import Phase, Picking, PickKind, PlayStatus, Resource, State
from gamehall.games.grimslingers.table import is_foe


class StatusAtom(IntEnum):
    """Status atoms [seat, status, amount], applied after the resource atoms of the same card
    (numbered after `state.Resource` so both share the atom's second slot)."""

    BARRIER = 10
    EXALT = 11
    EVERT = 12
    BLOODLUST = 13
    SCOURGE = 14
    PARALYZE = 15
    HUSH = 16
    RECALL_RANDOM = 17
    REACTIVATE_RANDOM = 18
    PICK = 19
    NAMED = 20
    BOOST = 21


_STATUS_OPS = {
    "barrier": StatusAtom.BARRIER,
    "exalt": StatusAtom.EXALT,
    "evert": StatusAtom.EVERT,
    "bloodlust": StatusAtom.BLOODLUST,
    "scourge": StatusAtom.SCOURGE,
    "paralyze": StatusAtom.PARALYZE,
    "hush": StatusAtom.HUSH,
    "recall_random": StatusAtom.RECALL_RANDOM,
    "reactivate_random": StatusAtom.REACTIVATE_RANDOM,
    "pick_discard": StatusAtom.PICK,
    "boost_unresolved": StatusAtom.BOOST,
}
CHOICE_OPS = frozenset({"redirect", "equilibrium", "transmute"})
"""Ops resolved by a prompt before the other FX (see aftermath.py)."""
MODIFIER_OPS = frozenset({"nv_bonus", "dmg_bonus", "rn_shift"})
"""Combine-item ops that change the companion spell when it is revealed, not at resolution."""


@dataclass
class Cast:
    """One application of effects: who casts, at whom, with which boosts."""

    owner: int
    targets: list[int]
    nv_boost: int = 0
    bonus: int = 0
    """Bonus DMG added once per target to the first DMG effect (combine items, Bloodlust)."""
    no_dmg: bool = False
    """Dirty Cheat: the spell does no DMG but applies its other FX."""
    action_card: bool = True
    absorbable: dict[int, int] = field(default_factory=dict)
    choices: dict[int, int] = field(default_factory=dict)
    """Each target's answer to a skill's options (Engulf), by seat."""


def boosted(effect: Effect, nv: int) -> int:
    """An effect's number after +NV: numerals gain it, numbers written as words do not (C 'NV')."""
    return effect.n if effect.word else max(0, effect.n + nv)


def compute(s: State, cast: Cast, effects: list[Effect], rng: Rng) -> list[list[int]]:
    atoms: list[list[int]] = []
    bonus_left = {t: cast.bonus for t in cast.targets}
    for effect in effects:
        if effect.op in CHOICE_OPS or effect.op in MODIFIER_OPS:
            continue
        receivers = [cast.owner] if effect.who == "self" else cast.targets
        for seat in receivers:
            if seat != cast.owner and s.seats[seat].dark and cast.action_card:
                continue  # Into Darkness: the Daemon ignores every FX aimed at him this turn
            _atomize(s, cast, effect, seat, atoms, bonus_left, rng)
    return atoms


def _atomize(
    s: State, cast: Cast, effect: Effect, seat: int, atoms: list[list[int]], bonus_left: dict[int, int], rng: Rng
) -> None:
    op, n = effect.op, boosted(effect, cast.nv_boost)
    target = s.seats[seat]
    if op == "dmg":
        if cast.no_dmg:
            return
        extra = bonus_left.get(seat, 0) if effect.who == "target" else 0
        if extra:
            bonus_left[seat] = 0
        _damage(s, cast, seat, n + extra, effect.pierce, atoms)
    elif op == "heal":
        atoms.append([seat, Resource.HP, n])
    elif op == "lose_hp":
        atoms.append([seat, Resource.HP, -n])
    elif op == "gain_ep":
        atoms.append([seat, Resource.EP, n])
    elif op == "lose_ep":
        atoms.append([seat, Resource.EP, -n])
    elif op == "steal_hp":
        got = min(n, target.hp)
        atoms += [[seat, Resource.HP, -got], [cast.owner, Resource.HP, got]]
    elif op == "steal_ep":
        got = min(n, target.ep)
        atoms += [[seat, Resource.EP, -got], [cast.owner, Resource.EP, got]]
    elif op == "set_hp":
        atoms.append([seat, Resource.SET_HP, n])
    elif op == "discard_random":
        atoms.append([seat, Resource.DISCARD, n])
    elif op == "deactivate_random":
        atoms.append([seat, Resource.DEACTIVATE, n])
    elif op == "amnesia":
        atoms.append([seat, Resource.DEACTIVATE if s.flags.amnesia_pile == "deactivate" else Resource.DISCARD, n])
    elif op == "discard_named":
        if effect.name in cat.ID:
            atoms.append([seat, StatusAtom.NAMED, cat.ID[effect.name]])
    elif op == "choose_one":
        options = option_list(s, seat, effect)
        chosen = cast.choices.get(seat, options[0])
        sub = Cast(cast.owner, [seat], cast.nv_boost, 0, cast.no_dmg, cast.action_card, cast.absorbable)
        for inner in effect.branches[chosen].effects:
            receivers = [cast.owner] if inner.who == "self" else [seat]
            for r in receivers:
                _atomize(s, sub, inner, r, atoms, {}, rng)
    elif op == "catalyst":
        _catalyst(s, cast, seat, atoms, rng)
    elif op == "roll":
        face = rng.randint(1, 6)
        for branch in effect.branches:
            if face in branch.faces:
                sub = Cast(cast.owner, [seat], cast.nv_boost, 0, cast.no_dmg, cast.action_card, cast.absorbable)
                for inner in branch.effects:
                    receivers = [cast.owner] if inner.who == "self" else [seat]
                    for r in receivers:
                        _atomize(s, sub, inner, r, atoms, {}, rng)
                atoms.append([seat, -1, face])
    elif op in _STATUS_OPS:
        atoms.append([seat, _STATUS_OPS[op], n])


def option_list(s: State, seat: int, effect: Effect) -> list[int]:
    """The options of a skill's choice that `seat` can take: paying EP needs the EP, discarding a
    named spell needs it in hand or among the seat's unresolved cards (Engulf, AMB-29)."""
    x = s.seats[seat]
    out = []
    for i, branch in enumerate(effect.branches):
        ok = True
        for e in branch.effects:
            if e.op == "lose_ep" and x.ep < e.n:
                ok = False
            if e.op == "discard_named":
                card = cat.ID.get(e.name or "", -1)
                pending = any(p.owner == seat and p.status == PlayStatus.PENDING and p.card == card for p in s.plays)
                ok = ok and (card in x.hand or pending)
        if ok:
            out.append(i)
    return out or [0]


def _catalyst(s: State, cast: Cast, seat: int, atoms: list[list[int]], rng: Rng) -> None:
    """Elemental Catalyst (R-228): every element in the target's hand is discarded, and all of them
    resolve against it at once, the target being caster and target (self-heal and EP apply)."""
    x = s.seats[seat]
    elements = [c for c in x.hand if cat.IS_ELEMENT[c]]
    for c in elements:
        x.hand.remove(c)
        discard_card(s, seat, c)
    sub = Cast(seat, [seat], 0, 0, False, True, cast.absorbable)
    for c in elements:
        for e in cat.card_effects(c, s.flags.wind_water_damage):
            if e.op in CHOICE_OPS or e.op in MODIFIER_OPS:
                continue
            _atomize(s, sub, e, seat, atoms, {}, rng)


def _damage(s: State, cast: Cast, seat: int, amount: int, pierce: bool, atoms: list[list[int]]) -> None:
    """DMG pipeline: Bloodlust tally, Evert, Exalt, Barrier, Transmute; True Grit is asked later."""
    target = s.seats[seat]
    if amount <= 0:
        return
    if seat != cast.owner and cast.action_card and (pierce or not s.evert):
        # Bloodlust's tally: every card's potential DMG to this seat this turn, even if
        # prevented, not if converted by Evert; counted before Bloodlust itself resolves too.
        target.bloodlust_tally += amount
    if not pierce:
        if s.evert:
            atoms.append([seat, Resource.HP, amount])
            return
        if target.exalt:
            return
        amount = max(0, amount - target.barrier)
        if amount and target.transmute >= 0 and target.transmute_phase == s.phase:
            atoms.append([seat, Resource.HP if target.transmute == 0 else Resource.EP, amount])
            return
        if amount:
            cast.absorbable[seat] = cast.absorbable.get(seat, 0) + amount
    if amount:
        atoms.append([seat, Resource.HP, -amount])


def apply_atoms(
    s: State, owner: int, atoms: list[list[int]], rng: Rng, *, netting: bool, action_card: bool
) -> list[int]:
    """Apply atoms; return the seats whose HP dropped to 0 here (for immediate revival triggers)."""
    before = [seat.hp for seat in s.seats]
    if netting:
        hp_delta: dict[int, int] = {}
        ep_delta: dict[int, int] = {}
        for seat, res, amount in atoms:
            if res == Resource.SET_HP:
                s.seats[seat].hp = min(amount, s.seats[seat].max_hp)
            elif res == Resource.HP:
                hp_delta[seat] = hp_delta.get(seat, 0) + amount
            elif res == Resource.EP:
                ep_delta[seat] = ep_delta.get(seat, 0) + amount
        for seat, d in hp_delta.items():
            x = s.seats[seat]
            x.hp = min(max(x.hp + d, 0), x.max_hp)
        for seat, d in ep_delta.items():
            x = s.seats[seat]
            x.ep = min(max(x.ep + d, 0), x.max_ep)
        piles: dict[int, list[int]] = {}
        for seat, res, amount in atoms:
            if res in (Resource.DISCARD, Resource.DEACTIVATE):
                counts = piles.setdefault(seat, [0, 0])
                counts[res - Resource.DISCARD] += amount
        for seat, (n_discard, n_deact) in piles.items():
            _random_piles(s, seat, n_discard, n_deact, rng)
    else:
        for seat, res, amount in atoms:
            x = s.seats[seat]
            if res == Resource.SET_HP:
                x.hp = min(amount, x.max_hp)
            elif res == Resource.HP:
                x.hp = min(max(x.hp + amount, 0), x.max_hp)
            elif res == Resource.EP:
                x.ep = min(max(x.ep + amount, 0), x.max_ep)
            elif res == Resource.DISCARD:
                _random_piles(s, seat, amount, 0, rng)
            elif res == Resource.DEACTIVATE:
                _random_piles(s, seat, 0, amount, rng)
    for seat, res, amount in atoms:
        if res >= StatusAtom.BARRIER:
            _status(s, owner, seat, res, amount, rng)
    zeroed = []
    for i, x in enumerate(s.seats):
        gained_hp(s, i, before[i])
        if i != owner and action_card and before[i] > x.hp:
            s.seats[owner].dealt[i] += before[i] - x.hp
        if before[i] > 0 and x.hp == 0 and x.alive:
            zeroed.append(i)
            if action_card and i != owner and is_foe(s, owner, i):
                x.zeroed = True
    return zeroed


def _random_piles(s: State, seat: int, n_discard: int, n_deact: int, rng: Rng) -> None:
    """Random discard/deactivation: shuffle the hand face down and draw (C glossary 'Discard')."""
    hand = s.seats[seat].hand
    picks = rng.shuffled(hand)[: n_discard + n_deact]
    for k, card in enumerate(picks):
        hand.remove(card)
        if k < n_discard:
            discard_card(s, seat, card)
        else:
            deactivate_card(s, seat, card)


def gained_hp(s: State, seat: int, before: int) -> None:
    """Any HP gain (a heal, Blood Feast, a revival) removes a Scourge from that seat (R-173, R-199).

    A gain of 0 (already at max) is no gain (AMB-18)."""
    if s.seats[seat].hp > before and s.scourge_on == seat:
        remove_scourge(s)


def remove_scourge(s: State) -> None:
    """The Scourged seat gained HP (or someone left the duel): the card in its space goes to the
    owner's discard, even a defeated owner's, so that no card is lost or doubled."""
    owner = s.scourge_owner
    card = s.scourge_card if s.scourge_card >= 0 else cat.SCOURGE
    if owner >= 0:
        discard_card(s, owner, card)
    s.scourge_on, s.scourge_owner, s.scourge_loss, s.scourge_card = -1, -1, 0, -1


def bind_scourge(s: State, was_on: int, owner: int, card: int) -> bool:
    """True when the FX just applied placed a Scourge: the physical card that carried it (Scourge,
    or Equilibrium resolving as Scourge) goes to the target's space instead of a pile."""
    if was_on < 0 and s.scourge_on >= 0 and s.scourge_owner == owner:
        s.scourge_card = card
        return True
    return False


def _status(s: State, owner: int, seat: int, res: int, n: int, rng: Rng) -> None:
    x = s.seats[seat]
    if res == StatusAtom.BARRIER:
        x.barrier = max(x.barrier, n)
    elif res == StatusAtom.EXALT:
        x.exalt = True
    elif res == StatusAtom.EVERT:
        s.evert = True
    elif res == StatusAtom.BLOODLUST:
        x.bloodlust_active = True
    elif res == StatusAtom.SCOURGE:
        if x.alive and s.scourge_on < 0:
            s.scourge_on, s.scourge_owner, s.scourge_loss = seat, owner, n
    elif res in (StatusAtom.PARALYZE, StatusAtom.HUSH):
        if s.phase != Phase.AFTERMATH:
            return  # only face-up, unresolved cards can be touched (Dirty Cheat hits nothing)
        for i, p in enumerate(s.plays):
            if p.owner == seat and p.status == PlayStatus.PENDING and i != s.current_play:
                p.status = PlayStatus.REMOVED
                cards = [p.card] + ([p.combine] if p.combine >= 0 else [])
                for card in cards:
                    if res == StatusAtom.HUSH:
                        to_hand_in_public(s, seat, card)  # everyone saw it face up (item 6)
                    else:
                        discard_card(s, seat, card)
    elif res == StatusAtom.RECALL_RANDOM:
        spells = [c for c in x.discard if cat.IS_SPELL[c]]
        for card in rng.shuffled(spells)[:n]:
            x.discard.remove(card)
            x.hand.append(card)
    elif res == StatusAtom.REACTIVATE_RANDOM:
        for card in rng.shuffled(x.deact)[:n]:
            x.deact.remove(card)
            x.hand.append(card)
    elif res == StatusAtom.NAMED:
        if n in x.hand:
            x.hand.remove(n)
            discard_card(s, seat, n)
        else:
            for i, p in enumerate(s.plays):
                if p.owner == seat and p.status == PlayStatus.PENDING and p.card == n and i != s.current_play:
                    p.status = PlayStatus.REMOVED
                    for card in [p.card] + ([p.combine] if p.combine >= 0 else []):
                        discard_card(s, seat, card)
                    break
    elif res == StatusAtom.BOOST:
        for i, p in enumerate(s.plays):
            if p.status == PlayStatus.PENDING and i != s.current_play and cat.IS_SPELL[p.card]:
                p.nv_boost += n
    elif res == StatusAtom.PICK and any(cat.IS_SPELL[c] for c in x.discard):
        s.picking = Picking(seat, PickKind.RECALL, n, 1)
