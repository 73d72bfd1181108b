"""Night Phase: Adventure or Rest, rolling, handing out Take Damage / Gain Power / Conjure symbols one at a time,
defending, exhaustion, the shared Torch/Scroll/Attack step (with Forge Ahead and the Sword), and Resting."""

from __future__ import annotations

import msgspec

from gamehall.engine import Action, Event, Rng
from gamehall.games.tiny_epic_quest.actions import Advance, Adventure, Done, Learn, Rest, StopLearning, Strike
from gamehall.games.tiny_epic_quest.map import GEOMETRY
from gamehall.games.tiny_epic_quest.progress import complete_temples
from gamehall.games.tiny_epic_quest.state import (
    ADVENTURING,
    EXHAUSTED,
    HEROES,
    NO_GOBLIN,
    RESTED,
    Decision,
    DecisionKind,
    NightStage,
    Phase,
    RollSymbols,
    State,
    at_last_space,
    gain_power,
    has_item,
    hero_type,
    max_power,
    next_adventurer,
    next_seat,
    portal_region,
    send_home,
)
from gamehall.games.tiny_epic_quest.tables import (
    AMULET,
    ATTACK,
    BOW,
    CHALICE,
    DAMAGE,
    DIE_FACES,
    GOBLIN_HITS,
    GROTTO,
    HAMMER,
    HELM,
    LANTERN,
    LAST_SPACE,
    LIBRARY,
    MAGIC,
    MAGIC_MULTI,
    MAGIC_SOLO,
    MAX_SPELL,
    N_DICE,
    OBELISK,
    PORTAL,
    POWER,
    REGIONS,
    RING,
    SCROLL,
    SHIELD,
    STAFF,
    SWORD,
    TEMPLE,
    TOME,
    TORCH,
    TRACKS,
    WAND,
)

MULTI_DAMAGE = (1, 1, 2, 3)
"""Health lost per Take Damage symbol at Magic Level 0..3 (multiplayer)."""
SOLO_DAMAGE = ((0, 1), (1, 0, 1), (1,), (2,))
"""Solo table: damage of the n-th Take Damage symbol of a roll per level; the last value repeats."""
SOLO_POWER = ((1,), (0, 1), (0,), (0,))


def track(s: State) -> tuple[int, ...]:
    return MAGIC_SOLO if s.mode == "solo" else MAGIC_MULTI


def magic_level(s: State) -> int:
    return track(s)[s.magic]


def defend_cost(s: State, seat: int) -> int:
    return 1 if has_item(s, seat, SHIELD) else 2


def _table(values: tuple[tuple[int, ...], ...], level: int, n: int) -> int:
    row = values[level]
    return row[n] if n < len(row) else row[-1]


# ----------------------------------------------------------------------------- options
def advance_cost(s: State, seat: int, h: int) -> int:
    """Power needed to step hero `h` onto its next temple space after using this roll's symbols; -1 if not able."""
    if hero_type(s, h) != TEMPLE or s.hero_progress[h] >= LAST_SPACE:
        return -1
    temple = REGIONS[s.side][s.cards[s.hero_slot[h]]][s.hero_region[h]][1]
    sym, need = TRACKS[s.side][temple][s.hero_progress[h]]
    pool = s.pool[seat]
    have = pool.torches if sym == TORCH else pool.scrolls
    forge = need - min(have, need)
    if not forge:
        return 0
    cheap = (sym == TORCH and LANTERN in s.hero_items[h]) or (sym == SCROLL and TOME in s.hero_items[h])
    cost = forge * (1 if cheap else 2)
    return cost if cost <= s.power[seat] else -1


def _portal_has_hero(s: State, slot: int) -> bool:
    reg = portal_region(s, slot)
    return any(s.hero_slot[h] == slot and s.hero_region[h] == reg for h in range(HEROES * s.seats))


def strike_targets(s: State, seat: int, h: int) -> list[tuple[int, bool]]:
    """Goblins hero `h` may damage now, each with whether the Sword may pay for it."""
    slot = s.hero_slot[h]
    kind = hero_type(s, h)
    attacks = s.pool[seat].attacks
    if kind == PORTAL:
        if s.goblin[slot] == NO_GOBLIN:
            return []
        sword = SWORD in s.hero_items[h] and s.power[seat] >= 1
        return [(slot, sword)] if attacks or sword else []
    if attacks and kind != GROTTO and BOW in s.hero_items[h]:
        out = []
        for adj in GEOMETRY.adjacent[slot]:
            if s.goblin[adj] != NO_GOBLIN and s.goblin_claim[adj] in (-1, seat) and not _portal_has_hero(s, adj):
                out.append((adj, False))
        return out
    return []


def effort_actions(s: State, seat: int) -> list[Action]:
    """Advance and Strike actions open to `seat` now (rolled symbols in its pool, Forge Ahead, the Sword)."""
    out: list[Action] = []
    base = HEROES * seat
    for i in range(HEROES):
        h = base + i
        if advance_cost(s, seat, h) >= 0:
            out.append(Advance(i))
        for slot, _ in strike_targets(s, seat, h):
            out.append(Strike(i, slot))
    return out


def choose_actions(s: State, seat: int) -> list[Action]:
    return [Adventure(), Rest(), *effort_actions(s, seat)]


def use_actions(s: State, seat: int) -> list[Action]:
    return [*effort_actions(s, seat), Done()]


# ----------------------------------------------------------------------------- rolling and distribution
def start_night(s: State) -> None:
    s.phase = Phase.NIGHT
    s.stage = NightStage.CHOOSE
    s.status = [ADVENTURING] * s.seats
    s.holder = s.first if s.mode != "solo" else 0
    s.pool = [RollSymbols() for _ in range(s.seats)]
    s.using = [False] * s.seats
    s.in_roll = [False] * s.seats
    s.roll = []


def apply_adventure(s: State, seat: int) -> list[Event]:
    rng = Rng(s.rng)
    faces = [DIE_FACES[rng.below(len(DIE_FACES))] for _ in range(N_DICE)]
    s.rng = rng.state
    return [start_roll(s, seat, faces)]


def start_roll(s: State, seat: int, faces: list[int]) -> Event:
    """Set up the resolution of a roll (tests call this to force dice)."""
    s.roll = list(faces)
    s.handout = [DAMAGE] * faces.count(DAMAGE) + [POWER] * faces.count(POWER) + [MAGIC] * faces.count(MAGIC)
    s.handout_kind = -1
    s.handout_count = 0
    s.stage = NightStage.DISTRIBUTE
    s.in_roll = [st == ADVENTURING for st in s.status]
    torches, scrolls, attacks = faces.count(TORCH), faces.count(SCROLL), faces.count(ATTACK)
    s.pool = [RollSymbols(torches, scrolls, attacks) if s.status[p] == ADVENTURING else RollSymbols()
              for p in range(s.seats)]
    return Event("rolled", {"seat": seat, "faces": list(faces), "magic_level": magic_level(s)})


def _receiver(s: State) -> int:
    """Next seat to receive a distributed symbol (AMB-6: skips Exhausted players unless the flag says otherwise)."""
    if s.rules.exhausted_skipped:
        return next_adventurer(s, s.handout_seat, include_self=True)
    n = s.seats
    for k in range(n):
        p = (s.handout_seat + k) % n
        if s.in_roll[p]:
            return p
    return -1


def distribute(s: State, events: list[Event]) -> None:
    """Hand out queued symbols one at a time until a defend decision is needed or the queue is empty."""
    solo = s.mode == "solo"
    last = len(track(s)) - 1
    while s.handout:
        kind = s.handout[0]
        if kind != s.handout_kind:
            s.handout_kind = kind
            s.handout_count = 0
            s.handout_seat = s.holder
        level = magic_level(s)
        if kind == MAGIC:
            if solo:
                conjure_hurts = level == 3  # solo Level 3: every Conjure deals 1 (T-SO-05)
            elif s.rules.conjure_damage_last_space:
                conjure_hurts = s.magic >= last  # AMB-5: only once the token is on the last space
            else:
                conjure_hurts = level == 3
            if not conjure_hurts:
                s.magic += 1
                s.handout.pop(0)
                events.append(Event("magic_advanced", {"magic": s.magic, "level": magic_level(s)}))
                continue
        receiver = _receiver(s)
        if receiver < 0:
            s.handout.clear()
            break
        s.handout_seat = next_seat(s, receiver)
        n = s.handout_count
        s.handout_count += 1
        s.handout.pop(0)
        if s.status[receiver] != ADVENTURING:
            events.append(Event("symbol_lost", {"seat": receiver, "symbol": kind}))
            continue
        if kind == POWER:
            amount = _table(SOLO_POWER, level, n) if solo else (1 if level <= 1 else 0)
            if has_item(s, receiver, CHALICE):
                amount = 1
            before = s.power[receiver]
            gain_power(s, receiver, amount)
            events.append(Event("power_gained", {"seat": receiver, "amount": s.power[receiver] - before}))
            continue
        amount = 1  # a Conjure symbol at Level 3
        if kind == DAMAGE:
            amount = _table(SOLO_DAMAGE, level, n) if solo else MULTI_DAMAGE[level]
        if amount and has_item(s, receiver, HELM):
            amount = min(amount, 2)
        if not amount:
            events.append(Event("damage_ignored", {"seat": receiver}))
            continue
        defendable = kind == DAMAGE or s.rules.defend_any_damage
        if defendable and s.power[receiver] >= defend_cost(s, receiver):
            s.pending.append(Decision(receiver, DecisionKind.DEFEND, value=amount))
            return
        take_damage(s, receiver, amount, events)
    _open_use_step(s)


def _open_use_step(s: State) -> None:
    s.stage = NightStage.USE
    s.using = [s.status[p] == ADVENTURING and bool(effort_actions(s, p)) for p in range(s.seats)]


def take_damage(s: State, seat: int, amount: int, events: list[Event]) -> None:
    s.health[seat] = max(0, s.health[seat] - amount)
    events.append(Event("damage_taken", {"seat": seat, "amount": amount, "health": s.health[seat]}))
    if s.health[seat] == 0:
        exhaust(s, seat)
        events.append(Event("exhausted", {"seat": seat}))


def apply_defend(s: State, seat: int, defend: bool, amount: int, events: list[Event]) -> None:
    if defend:
        s.power[seat] -= defend_cost(s, seat)
        events.append(Event("defended", {"seat": seat, "amount": amount}))
    else:
        take_damage(s, seat, amount, events)


def _release_goblins(s: State, seat: int) -> None:
    """The seat's attacks end: damage on goblins it was attacking resets (T-AG-04)."""
    base = HEROES * seat
    for i in range(HEROES):
        h = base + i
        if hero_type(s, h) == PORTAL:
            s.goblin_damage[s.hero_slot[h]] = 0
    for slot, claim in enumerate(s.goblin_claim):
        if claim == seat:
            s.goblin_claim[slot] = -1
            s.goblin_damage[slot] = 0


def exhaust(s: State, seat: int) -> None:
    """Health 0 (T-EX): Rest side up, every hero home, Health 6 / Power 3, one Spell Level lost."""
    s.status[seat] = EXHAUSTED
    _release_goblins(s, seat)
    for i in range(HEROES):
        send_home(s, HEROES * seat + i)
    s.spell[seat] = max(0, s.spell[seat] - 1)
    s.health[seat] = 6
    s.power[seat] = min(3, max_power(s, seat))
    s.pool[seat] = RollSymbols()
    s.using[seat] = False
    s.pending = [p for p in s.pending if p.seat != seat]


# ----------------------------------------------------------------------------- using symbols
def apply_advance(s: State, seat: int, action: Advance) -> list[Event]:
    h = HEROES * seat + action.hero
    cost = advance_cost(s, seat, h)
    temple = REGIONS[s.side][s.cards[s.hero_slot[h]]][s.hero_region[h]][1]
    sym, need = TRACKS[s.side][temple][s.hero_progress[h]]
    pool = s.pool[seat]
    if sym == TORCH:
        s.pool[seat] = msgspec.structs.replace(pool, torches=pool.torches - min(pool.torches, need))
    else:
        s.pool[seat] = msgspec.structs.replace(pool, scrolls=pool.scrolls - min(pool.scrolls, need))
    s.power[seat] -= cost
    s.hero_progress[h] += 1
    _refresh_using(s, seat)
    return [Event("advanced", {"seat": seat, "hero": action.hero, "space": s.hero_progress[h], "forged_power": cost})]


def apply_strike(s: State, seat: int, action: Strike) -> list[Event]:
    h = HEROES * seat + action.hero
    slot = action.slot
    pool = s.pool[seat]
    if pool.attacks:
        s.pool[seat] = msgspec.structs.replace(pool, attacks=pool.attacks - 1)
        paid = "die"
    else:
        s.power[seat] -= 1
        paid = "sword"
    if s.hero_slot[h] != slot:
        s.goblin_claim[slot] = seat
    s.goblin_damage[slot] += 1
    events = [Event("goblin_hit", {"seat": seat, "hero": action.hero, "slot": slot, "damage": s.goblin_damage[slot],
                                   "paid": paid})]
    if s.goblin_damage[slot] >= GOBLIN_HITS:
        s.goblin[slot] = NO_GOBLIN
        s.goblin_damage[slot] = 0
        s.goblin_claim[slot] = -1
        s.goblins[seat] += 1
        if HAMMER in s.hero_items[h]:
            gain_power(s, seat, 1)
        events.append(Event("goblin_defeated", {"seat": seat, "slot": slot, "goblins": s.goblins[seat]}))
    _refresh_using(s, seat)
    return events


def _refresh_using(s: State, seat: int) -> None:
    if s.stage == NightStage.USE and s.using[seat] and not effort_actions(s, seat):
        s.using[seat] = False


def end_roll(s: State) -> None:
    s.stage = NightStage.CHOOSE
    s.pool = [RollSymbols() for _ in range(s.seats)]
    s.using = [False] * s.seats
    s.holder = next_adventurer(s, s.holder, include_self=False)


# ----------------------------------------------------------------------------- resting and learning
def apply_rest(s: State, seat: int) -> list[Event]:
    """Rest by choice (T-RS): complete last-space temples, return portal/last-space heroes, queue spell learning
    and the per-hero Health-or-Power gains, then pass the dice."""
    s.status[seat] = RESTED
    _release_goblins(s, seat)
    base = HEROES * seat
    heroes = [base + i for i in range(HEROES)]
    last = [h for h in heroes if at_last_space(s, h)]
    portal = [h for h in heroes if hero_type(s, h) == PORTAL]
    obelisk = [h for h in heroes if hero_type(s, h) == OBELISK]
    temples = [REGIONS[s.side][s.cards[s.hero_slot[h]]][s.hero_region[h]][1] for h in last]
    returning = last + portal + obelisk
    amulets = sum(1 for h in returning if AMULET in s.hero_items[h])
    for h in last + portal:
        send_home(s, h)
    taken = complete_temples(s, seat, temples, day=False) if temples else 0
    gains = len(returning) - (0 if s.rules.treasure_return_bonus else taken)
    if obelisk:
        s.pending.append(Decision(seat, DecisionKind.LEARN))
    extra_power = 1 if has_item(s, seat, RING) else 0
    s.pending.append(Decision(seat, DecisionKind.GAIN, value=gains, extra=extra_power + 16 * amulets))
    s.pool[seat] = RollSymbols()
    s.holder = next_adventurer(s, seat, include_self=False)
    return [Event("rested", {"seat": seat, "temples": temples, "returned": len(returning)})]


def _target_level(s: State, seat: int, symbol: int) -> int:
    for level in range(s.spell[seat] + 1, MAX_SPELL + 1):
        if LIBRARY[level - 1] == symbol:
            return level
    return -1


def learn_options(s: State, seat: int) -> tuple[list[Learn], list[Learn]]:
    """(free, staff-paid) spell learning open to a resting seat (T-SP-02, Staff T-LG-08, AMB-10)."""
    free: list[Learn] = []
    paid: list[Learn] = []
    trk = track(s)
    last = len(trk) - 1
    base = HEROES * seat
    for i in range(HEROES):
        h = base + i
        if hero_type(s, h) != OBELISK:
            continue
        target = _target_level(s, seat, REGIONS[s.side][s.cards[s.hero_slot[h]]][s.hero_region[h]][1])
        if target < 0:
            continue
        need = target - s.spell[seat]
        bonus = 1 if WAND in s.hero_items[h] else 0
        if need <= min(3, trk[s.magic] + bonus):
            free.append(Learn(i, 0))
        elif STAFF in s.hero_items[h]:
            for k in range(1, s.power[seat] + 1):
                if need <= min(3, trk[min(last, s.magic + k)] + bonus):
                    paid.append(Learn(i, k))
                    break
    return free, paid


def learn_actions(s: State, seat: int) -> list[Action]:
    free, paid = learn_options(s, seat)
    out: list[Action] = [*free, *paid]
    if not free:
        out.append(StopLearning())
    return out


def apply_learn(s: State, seat: int, action: Learn) -> list[Event]:
    h = HEROES * seat + action.hero
    target = _target_level(s, seat, REGIONS[s.side][s.cards[s.hero_slot[h]]][s.hero_region[h]][1])
    s.power[seat] -= action.staff
    s.spell[seat] = target
    send_home(s, h)
    return [Event("spell_learned", {"seat": seat, "level": target, "staff_power": action.staff})]


def finish_learning(s: State, seat: int) -> None:
    base = HEROES * seat
    for i in range(HEROES):
        if hero_type(s, base + i) == OBELISK:
            send_home(s, base + i)
