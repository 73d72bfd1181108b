"""Day Phase: selecting Movement cards, moving heroes (geometry, goblins, occupancy), idling, movement quests,
arrival effects (Castle bonus, Grottos) and free item rearrangement at the Castle."""

from __future__ import annotations

from gamehall.engine import Action, Event, IllegalAction, Rng
from gamehall.games.tiny_epic_quest.actions import Equip, Exchange, Idle, Move, Select, SkipGrotto, UseGrotto
from gamehall.games.tiny_epic_quest.map import GEOMETRY
from gamehall.games.tiny_epic_quest.progress import complete_by_day, take_quest
from gamehall.games.tiny_epic_quest.state import (
    AGGRESSIVE,
    HEROES,
    KEPT,
    PASSIVE,
    Decision,
    DecisionKind,
    State,
    at_castle,
    gain_health,
    gain_power,
    in_temple,
    portal_region,
)
from gamehall.games.tiny_epic_quest.tables import (
    BOOTS,
    CASTLE,
    CLOAK,
    DAMAGE,
    DIE_FACES,
    GROTTO,
    GROTTO_EFFECTS,
    HORN,
    LAST_SPACE,
    MAGIC,
    OBELISK,
    PORTAL,
    POWER,
    QUEST_IS_TREASURE,
    QUEST_METHOD,
    QUEST_REGION,
    QUESTS,
    REGIONS,
    SCROLL,
    TEMPLE,
    TORCH,
)

_MOVES: dict[tuple[int, int, int, int], Move] = {}


def _move(hero: int, slot: int, region: int, via: int) -> Move:
    key = (hero, slot, region, via)
    mv = _MOVES.get(key)
    if mv is None:
        mv = _MOVES[key] = Move(hero, slot, region, via)
    return mv


def selector(s: State) -> int:
    return (s.first + s.turn) % s.seats


def select_options(s: State) -> list[Action]:
    if s.mode == "solo":
        return [Select(c) for c in sorted(s.options)]
    return [Select(c) for c in range(5) if not s.used[c]]


def _occupancy(s: State) -> tuple[dict[int, int], dict[int, set[int]]]:
    count: dict[int, int] = {}
    owners: dict[int, set[int]] = {}
    for h in range(HEROES * s.seats):
        key = 2 * s.hero_slot[h] + s.hero_region[h]
        count[key] = count.get(key, 0) + 1
        owners.setdefault(key, set()).add(h // HEROES)
    return count, owners


def route_cost(s: State, h: int, through: tuple[int, ...]) -> int:
    """Power needed to pass aggressive goblins on the cards moved through (T-GB-01); the Cloak waives it."""
    if not through:
        return 0
    cost = sum(1 for t in through if s.goblin[t] == AGGRESSIVE)
    if cost and CLOAK in s.hero_items[h]:
        return 0
    return cost


def move_options(s: State, seat: int) -> list[Move]:
    """Every legal Move for `seat` with the current Movement card."""
    count, owners = _occupancy(s)
    regions = REGIONS[s.side]
    power = s.power[seat]
    out: list[Move] = []
    for i in range(HEROES):
        h = HEROES * seat + i
        for dest, through, via in GEOMETRY.routes(s.card, s.hero_slot[h], s.rules.foot_diagonal):
            if through and route_cost(s, h, through) > power:
                continue
            card_regions = regions[s.cards[dest]]
            for reg in (0, 1):
                kind = card_regions[reg][0]
                key = 2 * dest + reg
                if kind == TEMPLE:
                    if count.get(key, 0) >= 2 or seat in owners.get(key, ()):
                        continue
                elif kind in (OBELISK, GROTTO):
                    if seat in owners.get(key, ()):
                        continue
                elif kind == PORTAL and count.get(key, 0):
                    continue
                out.append(_move(i, dest, reg, via))
    return out


def equip_options(s: State, seat: int) -> list[Equip]:
    """Free rearrangement (T-IT-03): kept items or items of heroes in the seat's own Castle, onto another hero
    there with a free hand."""
    base = HEROES * seat
    home = [i for i in range(HEROES)
            if s.hero_slot[base + i] == s.home[seat] and s.hero_region[base + i] == s.home_region[seat]]
    if not home:
        return []
    open_hands = [i for i in home if len(s.hero_items[base + i]) < 2]
    out: list[Equip] = []
    for item in s.kept[seat]:
        out.extend(Equip(item, i) for i in open_hands)
    for src in home:
        for item in s.hero_items[base + src]:
            out.extend(Equip(item, i) for i in open_hands if i != src)
    return out


def _castle_places(s: State, seat: int) -> dict[int, int]:
    """Where each item of the seat's Castle pool lies: a hero (0-2) standing in its own Castle, or KEPT."""
    base = HEROES * seat
    places = {item: KEPT for item in s.kept[seat]}
    for i in range(HEROES):
        if s.hero_slot[base + i] == s.home[seat] and s.hero_region[base + i] == s.home_region[seat]:
            places.update((item, i) for item in s.hero_items[base + i])
    return places


def exchange_options(s: State, seat: int) -> list[Exchange]:
    """Items exchanged freely at the Castle (T-IT-02/03): any two of the pool held in different places swap,
    so a full hand can be rearranged and a kept item can replace an equipped one."""
    if not any(s.hero_slot[HEROES * seat + i] == s.home[seat]
               and s.hero_region[HEROES * seat + i] == s.home_region[seat] for i in range(HEROES)):
        return []
    places = sorted(_castle_places(s, seat).items())
    return [
        Exchange(a, b)
        for x, (a, where_a) in enumerate(places)
        for b, where_b in places[x + 1 :]
        if where_a != where_b
    ]


def day_actions(s: State, seat: int) -> list[Action]:
    if s.card < 0:
        return list(select_options(s))
    out: list[Action] = [Idle()]
    out.extend(move_options(s, seat))
    out.extend(equip_options(s, seat))
    out.extend(exchange_options(s, seat))
    return out


def apply_select(s: State, action: Select) -> list[Event]:
    s.card = action.card
    s.actor = selector(s)
    s.acted = 0
    return [Event("movement_selected", {"seat": s.actor, "card": action.card})]


def apply_idle(s: State, seat: int) -> list[Event]:
    base = HEROES * seat
    castle_heroes = [h for h in range(base, base + HEROES) if at_castle(s, h)]
    if castle_heroes:
        if any(BOOTS in s.hero_items[h] for h in castle_heroes):
            gain_health(s, seat, 1)
            gain_power(s, seat, 1)
        else:
            s.pending.append(Decision(seat, DecisionKind.GAIN, value=1))
    s.moved = True
    return [Event("idled", {"seat": seat})]


def apply_equip(s: State, seat: int, action: Equip) -> list[Event]:
    base = HEROES * seat
    if action.item in s.kept[seat]:
        s.kept[seat].remove(action.item)
    else:
        for i in range(HEROES):
            if action.item in s.hero_items[base + i]:
                s.hero_items[base + i].remove(action.item)
                break
    if action.hero < 0:
        s.kept[seat].append(action.item)
    else:
        s.hero_items[base + action.hero].append(action.item)
    return [Event("equipped", {"seat": seat, "item": action.item, "hero": action.hero})]


def apply_exchange(s: State, seat: int, action: Exchange) -> list[Event]:
    places = _castle_places(s, seat)
    base = HEROES * seat
    for item, other in ((action.first, action.second), (action.second, action.first)):
        held = s.kept[seat] if places[item] == KEPT else s.hero_items[base + places[item]]
        held[held.index(item)] = other
    return [Event("exchanged", {"seat": seat, "items": [action.first, action.second]})]


def _find_route(s: State, h: int, action: Move) -> tuple[int, ...]:
    for dest, through, via in GEOMETRY.routes(s.card, s.hero_slot[h], s.rules.foot_diagonal):
        if dest == action.slot and via == action.via:
            return through
    raise IllegalAction("no such route")  # pragma: no cover - validated before


def quest_candidates(s: State, seat: int, h: int, through: tuple[int, ...], kind: int) -> list[int]:
    """Movement quests in the row that this move of hero `h` meets (T-QS-02)."""
    out = []
    base = HEROES * seat
    for q in s.row:
        if QUEST_IS_TREASURE[q]:
            continue
        card = QUESTS[q]
        if QUEST_METHOD[q] >= 0 and QUEST_METHOD[q] != s.card:
            continue
        if QUEST_REGION[q] >= 0 and QUEST_REGION[q] != kind:
            continue
        if len(through) < card.through_min:
            continue
        slots = [s.hero_slot[base + i] for i in range(HEROES)]
        if card.spread and len(set(slots)) < HEROES:
            continue
        if card.together and slots.count(s.hero_slot[h]) < 2:
            continue
        out.append(q)
    return out


def apply_move(s: State, seat: int, action: Move) -> list[Event]:
    h = HEROES * seat + action.hero
    through = _find_route(s, h, action)
    cost = route_cost(s, h, through)
    s.power[seat] -= cost
    flipped = [t for t in through if s.goblin[t] == AGGRESSIVE]
    for t in flipped:
        s.goblin[t] = PASSIVE
    s.hero_slot[h] = action.slot
    s.hero_region[h] = action.region
    s.hero_progress[h] = 0
    kind, arg = REGIONS[s.side][s.cards[action.slot]][action.region]
    if s.goblin[action.slot] == AGGRESSIVE and (kind == PORTAL or s.rules.end_card_flips_goblin):
        s.goblin[action.slot] = PASSIVE
        flipped.append(action.slot)
    if kind == PORTAL and HORN in s.hero_items[h]:
        gain_power(s, seat, 1)
    events = [Event("moved", {"seat": seat, "hero": action.hero, "slot": action.slot, "region": action.region,
                              "through": list(through), "power_spent": cost, "pacified": flipped})]
    if not s.quested_this_turn[seat]:
        cands = quest_candidates(s, seat, h, through, kind)
        if len(cands) == 1:
            take_quest(s, seat, cands[0], day=True)
            events.append(Event("quest_completed", {"seat": seat, "quest": cands[0]}))
        elif cands:
            s.choices = cands
            s.pending.append(Decision(seat, DecisionKind.QUEST))
    if kind == CASTLE:
        s.pending.append(Decision(seat, DecisionKind.GAIN, value=1))
    elif kind == GROTTO:
        _arrive_grotto(s, seat, h, arg)
    s.moved = True
    return events


# ----------------------------------------------------------------------------- grottos
_AUTO_GROTTOS = {"power2", "health2", "refresh"}


def _arrive_grotto(s: State, seat: int, h: int, grotto: int) -> None:
    effect = GROTTO_EFFECTS[grotto]
    if effect in _AUTO_GROTTOS:
        # Pure gains: taking them is never worse, so they resolve without asking.
        _grotto_effect(s, seat, grotto, -1)
        return
    s.pending.append(Decision(seat, DecisionKind.GROTTO, value=grotto, extra=h))


def grotto_options(s: State, seat: int, grotto: int) -> list[Action]:
    effect = GROTTO_EFFECTS[grotto]
    base = HEROES * seat
    temple_heroes = [i for i in range(HEROES) if in_temple(s, base + i) and s.hero_progress[base + i] < LAST_SPACE]
    aggressive = [slot for slot in range(len(s.cards)) if s.goblin[slot] == AGGRESSIVE and portal_region(s, slot) >= 0]
    uses: list[Action] = []
    if effect in ("advance", "gamble_advance"):
        uses = [UseGrotto(i) for i in temple_heroes]
    elif effect == "advance_pay":
        if s.power[seat] >= 1:
            uses = [UseGrotto(i) for i in temple_heroes]
    elif effect == "calm":
        uses = [UseGrotto(slot) for slot in aggressive]
    elif effect == "calm_gain":
        uses = [UseGrotto(slot) for slot in aggressive] or [UseGrotto(-1)]
    elif effect in ("gamble_gain", "surge") or effect in _AUTO_GROTTOS:
        uses = [UseGrotto(-1)]
    return [*uses, SkipGrotto()] if uses else []


def _advance_temple(s: State, h: int) -> None:
    s.hero_progress[h] += 1
    if s.hero_progress[h] >= LAST_SPACE:
        complete_by_day(s, h, REGIONS[s.side][s.cards[s.hero_slot[h]]][s.hero_region[h]][1])


def _roll(s: State, n: int) -> list[int]:
    rng = Rng(s.rng)
    faces = [DIE_FACES[rng.below(len(DIE_FACES))] for _ in range(n)]
    s.rng = rng.state
    return faces


def _lose_health_not_below_one(s: State, seat: int, n: int) -> None:
    s.health[seat] = max(min(1, s.health[seat]), s.health[seat] - n)


def _grotto_effect(s: State, seat: int, grotto: int, target: int) -> list[Event]:
    effect = GROTTO_EFFECTS[grotto]
    base = HEROES * seat
    data: dict[str, object] = {"seat": seat, "effect": effect, "target": target}
    if effect == "advance":
        _advance_temple(s, base + target)
    elif effect == "power2":
        gain_power(s, seat, 2)
    elif effect == "health2":
        gain_health(s, seat, 2)
    elif effect == "refresh":
        gain_health(s, seat, 1)
        gain_power(s, seat, 1)
    elif effect in ("calm", "calm_gain"):
        if target >= 0:
            s.goblin[target] = PASSIVE
        if effect == "calm_gain":
            gain_power(s, seat, 1)
    elif effect == "advance_pay":
        s.power[seat] -= 1
        _advance_temple(s, base + target)
    elif effect == "gamble_advance":
        face = _roll(s, 1)[0]
        data["roll"] = [face]
        if face in (TORCH, SCROLL):
            _advance_temple(s, base + target)
        elif face == DAMAGE:
            _lose_health_not_below_one(s, seat, 1)
    elif effect == "gamble_gain":
        faces = _roll(s, 2)
        data["roll"] = faces
        gain_power(s, seat, sum(1 for f in faces if f in (POWER, MAGIC)))
        _lose_health_not_below_one(s, seat, sum(1 for f in faces if f == DAMAGE))
    elif effect == "surge":
        gain_power(s, seat, 3)
        _lose_health_not_below_one(s, seat, 1)
    return [Event("grotto_used", data)]


def apply_grotto(s: State, seat: int, grotto: int, action: Action) -> list[Event]:
    if isinstance(action, SkipGrotto):
        return [Event("grotto_skipped", {"seat": seat})]
    assert isinstance(action, UseGrotto)
    return _grotto_effect(s, seat, grotto, action.target)
