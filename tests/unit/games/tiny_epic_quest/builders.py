"""Builders for Tiny Epic Quest scenario states: start from a real match and arrange what a scenario needs."""

from __future__ import annotations

from typing import Any

from gamehall.engine import Action, Event
from gamehall.games.tiny_epic_quest import GAME
from gamehall.games.tiny_epic_quest.content import PACK
from gamehall.games.tiny_epic_quest.flow import pump
from gamehall.games.tiny_epic_quest.night import start_night, start_roll
from gamehall.games.tiny_epic_quest.setup import place_homes
from gamehall.games.tiny_epic_quest.state import HEROES, NO_GOBLIN, PASSIVE, State, portal_region
from gamehall.games.tiny_epic_quest.tables import (
    ATTACK,
    CASTLE,
    DAMAGE,
    FACE_CODES,
    MAGIC,
    METHOD_CODES,
    POWER,
    QUESTS,
    REGION_CODES,
    REGIONS,
    SCROLL,
    TORCH,
)

CARD = {c.id: i for i, c in enumerate(PACK.cards)}
QUEST = {q.id: i for i, q in enumerate(QUESTS)}
D, P, M, T, S, A = DAMAGE, POWER, MAGIC, TORCH, SCROLL, ATTACK
FACES = FACE_CODES


def new(mode: str = "standard", seats: int = 2, seed: int = 0, **flags: Any) -> State:
    options = {"difficulty": flags.pop("difficulty")} if "difficulty" in flags else {}
    return GAME.new_match(GAME.configure(mode, seats, options, flags), seed)


def copy(s: State) -> State:
    return GAME.copy(s)


def place(s: State, slot: int, card_id: str) -> None:
    """Put map card `card_id` at `slot` (swapping with wherever it was); castles and heroes follow."""
    card = CARD[card_id]
    old = s.cards.index(card)
    if old == slot:
        return
    s.cards[old], s.cards[slot] = s.cards[slot], card
    s.goblin[old], s.goblin[slot] = s.goblin[slot], s.goblin[old]
    before = list(s.home)
    place_homes(s)
    for h in range(HEROES * s.seats):
        seat = h // HEROES
        if s.hero_slot[h] == before[seat]:
            s.hero_slot[h] = s.home[seat]
            s.hero_region[h] = s.home_region[seat]
    for slot_ in range(len(s.cards)):
        if portal_region(s, slot_) < 0:
            s.goblin[slot_] = NO_GOBLIN
        elif s.goblin[slot_] == NO_GOBLIN:
            s.goblin[slot_] = PASSIVE


def region(s: State, slot: int, kind: str) -> int:
    """Index of the region of type `kind` on the card at `slot`."""
    code = REGION_CODES[kind]
    regs = REGIONS[s.side][s.cards[slot]]
    for i in (0, 1):
        if regs[i][0] == code:
            return i
    raise AssertionError(f"no {kind} region at slot {slot}")


def put(s: State, seat: int, hero: int, slot: int, kind: str, prog: int = 0) -> int:
    """Place hero `hero` of `seat` on the `kind` region at `slot`; returns the hero's global index."""
    h = HEROES * seat + hero
    s.hero_slot[h] = slot
    s.hero_region[h] = region(s, slot, kind)
    s.hero_progress[h] = prog
    return h


def at_home(s: State, h: int) -> bool:
    seat = h // HEROES
    return (
        s.hero_slot[h] == s.home[seat]
        and s.hero_region[h] == s.home_region[seat]
        and REGIONS[s.side][s.cards[s.hero_slot[h]]][s.hero_region[h]][0] == CASTLE
    )


def all_passive(s: State) -> None:
    for slot in range(len(s.cards)):
        if s.goblin[slot] != NO_GOBLIN:
            s.goblin[slot] = PASSIVE


def day_turn(s: State, method: str, selector: int | None = None) -> State:
    """Jump to a day turn whose selected Movement card is `method` (selected by `selector`)."""
    s = copy(s)
    s.pending = []
    if selector is not None:
        s.first = selector
        s.turn = 0
    s.card = METHOD_CODES[method]
    s.actor = (s.first + s.turn) % s.seats
    s.acted = 0
    s.moved = False
    return s


def night(s: State, holder: int = 0, magic: int = 0) -> State:
    s = copy(s)
    s.pending = []
    start_night(s)
    s.holder = holder
    s.magic = magic
    return s


def roll(s: State, faces: list[int], holder: int | None = None) -> tuple[State, list[Event]]:
    """Force the dice: resolve a roll of `faces` by the holder (the state's RNG is not used)."""
    s = copy(s)
    seat = s.holder if holder is None else holder
    s.holder = seat
    events = [start_roll(s, seat, faces)]
    pump(s, events)
    return s, events


def act(s: State, seat: int, action: Action) -> State:
    """Apply with full validation (an illegal action raises)."""
    return GAME.apply(s, seat, action)[0]


def legal(s: State, seat: int) -> list[Action]:
    return list(GAME.legal_actions(s, seat))


def quest_ids(s: State) -> list[str]:
    return [QUESTS[q].id for q in s.row]


def quiet_row(s: State, ids: tuple[str, ...] = ("t10", "t11", "t12")) -> None:
    """A quest row no scenario move completes by accident (treasure quests of the Sky and Stone temples)."""
    s.row = [QUEST[i] for i in ids]
    s.quest_deck = [q for q in s.quest_deck if q not in s.row]
    s.discard = [q for q in s.discard if q not in s.row]
