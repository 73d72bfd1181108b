"""Game setup (T-SU, T-MP): player cards, heroes at their castles, the land map, goblins, quests."""

from __future__ import annotations

from gamehall.engine import MatchConfig, Rng
from gamehall.games.tiny_epic_quest.flow import start_day
from gamehall.games.tiny_epic_quest.map import GEOMETRY
from gamehall.games.tiny_epic_quest.progress import refill_row
from gamehall.games.tiny_epic_quest.state import AGGRESSIVE, HEROES, NO_GOBLIN, PASSIVE, Rules, State, portal_region
from gamehall.games.tiny_epic_quest.tables import (
    BRIGHT,
    CASTLE,
    CASTLE_CARDS,
    DIFFICULTY_GOALS,
    GLOOM,
    GOBLIN_TOKENS,
    N_QUESTS,
    REGIONS,
    REGULAR_CARDS,
)


def build_map(rng: Rng) -> list[int]:
    """Creating the Land Map: 5 regular cards in a cross, the 4 castles in its corners, 8 regular coast cards."""
    regular = rng.shuffled(REGULAR_CARDS)
    castles = rng.shuffled(CASTLE_CARDS)
    cards = [-1] * GEOMETRY.n_slots
    for slot, card in zip(GEOMETRY.cross, regular[:5], strict=True):
        cards[slot] = card
    for slot, card in zip(GEOMETRY.castles, castles, strict=True):
        cards[slot] = card
    for slot, card in zip(GEOMETRY.outer, regular[5:], strict=True):
        cards[slot] = card
    return cards


def place_homes(s: State) -> None:
    """Each seat's castle slot and region: the castle of the seat's colour."""
    s.home = []
    s.home_region = []
    for seat in range(s.seats):
        castle = CASTLE_CARDS[s.color[seat]]
        slot = s.cards.index(castle)
        regs = REGIONS[s.side][castle]
        s.home.append(slot)
        s.home_region.append(0 if regs[0][0] == CASTLE else 1)


def new_state(config: MatchConfig, seed: int) -> State:
    rng = Rng(seed)
    n = config.seats
    mode = config.mode
    side = GLOOM if mode == "gloomfall" else BRIGHT
    rules = Rules(**{k: bool(v) for k, v in config.flags.items()})
    difficulty = str(config.options.get("difficulty", "")) if mode == "solo" else ""
    color = rng.shuffled(range(len(CASTLE_CARDS)))[:n]  # player cards dealt at random (Setup step 1A)
    cards = build_map(rng)
    quest_deck = rng.shuffled(range(N_QUESTS))
    s = State(
        mode=mode, seats=n, difficulty=difficulty, goal=DIFFICULTY_GOALS.get(difficulty, 0), rules=rules, side=side,
        rng=rng.state, cards=cards, goblin=[NO_GOBLIN] * len(cards), goblin_damage=[0] * len(cards),
        goblin_claim=[-1] * len(cards), supply=GOBLIN_TOKENS, hero_slot=[], hero_region=[],
        hero_progress=[0] * (HEROES * n), hero_items=[[] for _ in range(HEROES * n)],
        health=[6] * n, power=[3] * n, spell=[0] * n, goblins=[0] * n, quests_done=[[] for _ in range(n)],
        kept=[[] for _ in range(n)], legend=[[0, 0, 0] for _ in range(n)], status=[0] * n, home=[], home_region=[],
        quest_deck=quest_deck, row=[], discard=[], color=color,
    )
    place_homes(s)
    for seat in range(n):
        s.hero_slot.extend([s.home[seat]] * HEROES)
        s.hero_region.extend([s.home_region[seat]] * HEROES)
    start_side = AGGRESSIVE if side == GLOOM and rules.gloom_setup_aggressive else PASSIVE
    for slot in range(len(cards)):
        if portal_region(s, slot) >= 0:
            s.goblin[slot] = start_side
            s.supply -= 1
    refill_row(s, enforce=True)
    s.first = 0
    s.no_quest_by_day = True
    start_day(s)
    return s
