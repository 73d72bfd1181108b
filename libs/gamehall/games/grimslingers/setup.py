"""Match setup: seats, first player, archetype picks and the signature draft.

Versus (C 'Versus Setup'): 8 HP / 8 EP (max 10) or the archetype's values; six elements each;
hidden draft (deal 4, keep 2, the rest back to the deck) or pass draft (3, keep 1, pass 2 left,
keep 1, return 1); LIGHT and DARK optionally shuffled into the signature deck; items: a shuffled
deck of the 40 regular items and a face-up scavenge field of 3. Advanced Duels: deal 3, keep 2,
the third goes to the box. The first player is random (the roll-off).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations

from gamehall.engine.errors import IllegalAction
from gamehall.engine.protocol import Action, Event, MatchConfig
from gamehall.engine.rng import Rng, derive_seed
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.actions import Keep, PickArchetype
from gamehall.games.grimslingers.creatures import add_creature, start_duel
from gamehall.games.grimslingers.items import FIELD_SIZE, draw_item
from gamehall.games.grimslingers.state import Flags, Phase, Seat, State
from gamehall.games.grimslingers.table import player_seats

START_HP = START_EP = 8
MAX_HP = MAX_EP = 10
MAX_PER_ARCHETYPE = 2
TALL_TALE = "tall-tale"


def new_state(config: MatchConfig, seed: int) -> State:
    rng = Rng(derive_seed(seed, "grimslingers"))
    n = config.seats
    opts = config.options
    # Values were checked against the declared flags by `validate_config`.
    flags = Flags(**{k: v for k, v in config.flags.items() if k in Flags.__struct_fields__})  # type: ignore[arg-type]
    advanced = config.mode in ("advanced-duels", "witch-king")
    tall_tale = config.mode == TALL_TALE
    creature_mode = config.mode in ("creature-duel", "witch-king")
    width = n + 1 if creature_mode else n
    seats = [
        Seat(START_HP, START_EP, MAX_HP, MAX_EP, hand=list(cat.BASIC_ELEMENTS), dealt=[0] * width) for _ in range(n)
    ]
    draft = "advanced" if config.mode == "advanced-duels" else str(opts.get("draft", "hidden"))
    if config.mode == "witch-king":
        draft = "witch"
    s = State(
        mode=config.mode,
        n=n,
        items=(bool(opts.get("items", False)) and not advanced) or tall_tale,
        archetypes=(bool(opts.get("archetypes", False)) and not advanced) or tall_tale,
        draft=draft,
        light_dark=bool(opts.get("light_and_dark", False)) and not advanced,
        flags=flags,
        rng=0,
        seats=seats,
    )
    s.first_player = rng.below(n)
    if creature_mode:
        _add_creature(s, opts, rng)
    deck = list(cat.SIGNATURES) + ([cat.LIGHT, cat.DARK] if s.light_dark else [])
    s.sig_deck = rng.shuffled(deck)
    if tall_tale:  # every item, no scavenge field; archetypes are mandatory
        s.difficulty = str(opts.get("difficulty", "normal"))
        s.item_deck = rng.shuffled(list(cat.TALE_ITEMS))
    elif s.items:
        s.item_deck = rng.shuffled(list(cat.ITEMS))
        s.field = [draw_item(s, rng) for _ in range(FIELD_SIZE)]
    if s.archetypes:
        s.phase = Phase.ARCHETYPE
        s.order = rng.shuffled(list(range(n)))  # the roll-off: highest picks first, then clockwise
        first = s.order[0]
        s.order = [(first + k) % n for k in range(n)]
        s.current = s.order[0]
    else:
        _deal(s)
    s.rng = rng.state
    return s


HIDDEN_DEAL, HIDDEN_KEEP = 4, 2
WITCH_DEAL, WITCH_KEEP = 4, 3
"""Witch King challenge: three signatures each (R-053); dealt as 4 keep 3, one to the box (AMB-35)."""


def _add_creature(s: State, opts: Mapping[str, object], rng: Rng) -> None:
    """Creature duels: draw the creature (or take the chosen one) and its modifiers, seat it."""
    players = s.n
    if s.mode == "witch-king":
        s.difficulty = str(opts.get("difficulty", "normal"))
        add_creature(s, cat.WITCH_KING.key, players, rng)
        return
    key = str(opts.get("creature", "random"))
    s.config_creature = key
    s.config_modifiers = int(opts.get("modifiers", 0))  # type: ignore[call-overload]
    if key == "random":
        key = cat.CREATURES[rng.below(len(cat.CREATURES))].key
    count = int(opts.get("modifiers", 0))  # type: ignore[call-overload]
    s.modifiers = sorted(rng.shuffled(list(range(len(cat.MODIFIERS))))[:count])
    add_creature(s, key, players, rng)


def deal_size(s: State) -> int:
    """Cards dealt per seat, computed from the full deck before the deal.

    Hidden draft (R-035): 4 each, keep 2. A deck too small for 4 each (7-8 seats: 24 signatures)
    deals as many as it allows to every seat alike (3), and each seat still keeps 2. The standalone
    creature duel uses it too: a designed choice, labelled in content (`readings`,
    creature_duel_signature_draft), since the book deals no signatures for its creature duels.
    """
    if s.draft in ("advanced", "pass"):
        return 3
    if s.draft == "witch":
        return WITCH_DEAL
    return min(HIDDEN_DEAL, len(s.sig_deck) // s.players)


def keep_count(s: State, offered: int) -> int:
    """How many of the `offered` cards a seat keeps: hidden 2, pass 1 per round, Advanced Duels 2.

    Computed from the seat's own offer (not the deck after the deal), so every seat count keeps
    its stated number (R-035, R-036, R-049)."""
    if s.draft == "pass":
        return min(1, offered)
    if s.draft == "witch":
        return min(WITCH_KEEP, offered)
    return min(HIDDEN_KEEP, offered)


def _deal(s: State) -> None:
    s.phase = Phase.DRAFT
    s.draft_round = 1
    dealt = deal_size(s)
    for i in player_seats(s):
        x = s.seats[i]
        x.offer = [s.sig_deck.pop() for _ in range(dealt)]
        x.draft_seen = list(x.offer)


def archetype_legal(s: State, seat: int) -> list[Action]:
    taken = [x.archetype for x in s.seats]
    return [PickArchetype(a.key) for i, a in enumerate(cat.ARCHETYPES) if taken.count(i) < MAX_PER_ARCHETYPE]


def apply_archetype(s: State, seat: int, action: PickArchetype, events: list[Event], rng: Rng) -> None:
    idx = cat.ARCHETYPE_ID[action.archetype]
    a = cat.ARCHETYPES[idx]
    x = s.seats[seat]
    x.archetype = idx
    x.hp = x.max_hp = a.hp
    x.ep = x.max_ep = a.ep
    events.append(Event("archetype", {"seat": seat, "archetype": a.key}))
    s.order.pop(0)
    if s.order:
        s.current = s.order[0]
    elif s.mode == TALL_TALE:
        from gamehall.games.grimslingers.tale import begin

        begin(s, s.difficulty, rng)
    else:
        s.current = -1
        _deal(s)


def keep_options(s: State, seat: int) -> list[Action]:
    offer = sorted(s.seats[seat].offer, key=lambda c: cat.KEYS[c])
    keep = keep_count(s, len(offer))
    return [Keep(tuple(cat.KEYS[c] for c in combo)) for combo in combinations(offer, keep)]


def apply_keep(s: State, seat: int, action: Keep, events: list[Event], rng: Rng) -> None:
    x = s.seats[seat]
    kept = [cat.ID[k] for k in action.cards]
    if len(set(kept)) != len(kept) or any(c not in x.offer for c in kept):
        raise IllegalAction("you can only keep cards you were dealt")
    for c in kept:
        x.offer.remove(c)
        x.hand.append(c)
    x.acted = 1  # decided (the choice stays hidden until everyone has kept)
    events.append(Event("kept", {"seat": seat}))
    players = [s.seats[i] for i in player_seats(s)]
    if any(y.acted == 0 for y in players):
        return
    rest = [list(y.offer) for y in players]
    for y in players:
        y.acted = 0
    if s.draft == "pass" and s.draft_round == 1:
        s.draft_round = 2
        for i, y in enumerate(players):
            y.offer = rest[(i - 1) % len(players)]  # passed to the left
            y.draft_seen += y.offer
        return
    for y, leftover in zip(players, rest, strict=True):
        y.offer = []
        if s.draft in ("advanced", "witch"):
            s.box += leftover  # Advanced Duels: the third card goes to the box, unseen
        else:
            s.sig_deck += leftover  # returned to the deck
    rng.shuffle(s.sig_deck)
    s.phase = Phase.STANDOFF
    s.standoff_open = False
    s.draft_round = 0
    if s.creature >= 0:
        start_duel(s, events)
    events.append(Event("duel_starts", {"first_player": s.first_player}))
