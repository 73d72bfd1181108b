"""Mode `campaign`: a new campaign (setup and the Book Cover), Martha's choices, and how the story ended
(W-SU-*, W-EX-*, W-SU-08). Fights inside it run on part 1's combat."""

from __future__ import annotations

from gamehall.engine import Action, Event, IllegalAction, Rng
from gamehall.games.grimm_world import chapters, effects, holdings, market, rounds  # noqa: F401  (register ops)
from gamehall.games.grimm_world.actions import Pick
from gamehall.games.grimm_world.atlas import CHAPTERS, COVER, LAST_CHAPTER, PAGES
from gamehall.games.grimm_world.catalog import ACTION_CARDS, CHARACTERS, ENEMY_PACK
from gamehall.games.grimm_world.choices import apply_character, apply_prompt, legal
from gamehall.games.grimm_world.combat import run as run_combat
from gamehall.games.grimm_world.content.schema import Op
from gamehall.games.grimm_world.context import Ctx
from gamehall.games.grimm_world.decks import new_decks
from gamehall.games.grimm_world.effects import put_region
from gamehall.games.grimm_world.journey import Journey
from gamehall.games.grimm_world.state import Sheet, State
from gamehall.games.grimm_world.trip import Trip, run

START_REGION, START_LOCATION = "111", 11
"""Martha sets out from her birthplace Tronda [11] on Region Card 1 (111)."""


def new_campaign(seed: int, round_limit: int = 0) -> State:
    """Lay out the piles (W-SU-01), Martha with her 4 starting cards (W-SU-04), then turn over the Book Cover and
    Chapter 1 (W-SU-02) and run to her first choice."""
    rng = Rng(seed)
    martha = CHARACTERS["martha"]
    sheet = Sheet(martha.key, [], [], [], [], list(martha.starting_cards))
    action_deck = sorted(k for k in ACTION_CARDS if k not in martha.starting_cards)
    decks = new_decks(rng, action_deck)
    journey = Journey(
        location=START_LOCATION, previous=START_LOCATION, regions={},
        story={str(n): list(CHAPTERS[n].sub) for n in range(1, LAST_CHAPTER + 1) if CHAPTERS[n].sub},
        quest_deck=sorted((k for k, c in PAGES.items() if c.kind == "quest" and c.level),
                          key=lambda k: (PAGES[k].level, k)),
        training=sorted(k for k, c in PAGES.items() if c.kind == "training"),
        enemy_deck=[e.number for e in ENEMY_PACK.enemies],
    )
    s = State("campaign", "", 1, rng.state, sheet, decks, journey=journey, round_limit=round_limit)
    t = Trip(s)
    put_region(t, START_REGION)
    first = CHAPTERS[1]
    t.push(Op("text", text=CHAPTERS[COVER].text), *CHAPTERS[COVER].ops, Op("text", text=first.text), *first.ops,
           Op("sub_chapter"), Op("new_round"))
    run(t)
    t.close()
    return s


def fighting(s: State) -> bool:
    return s.fight is not None and not s.fight.result


def legal_actions(s: State) -> list[Action]:
    j = s.journey
    if j is None or j.result:
        return []
    if fighting(s):
        return legal(Ctx(s))
    return [Pick(i) for i in range(len(j.menu))]


def apply(s: State, action: Action) -> list[Event]:
    """Martha's choice: a combat decision while a fight is on, else an option of the exploration menu."""
    j = s.journey
    assert j is not None
    events: list[Event] = []
    if fighting(s):
        ctx = Ctx(s)
        if ctx.f.prompt:
            apply_prompt(ctx, action)
        else:
            apply_character(ctx, action)
        run_combat(ctx)
        events += ctx.close()
        if fighting(s):
            return events
        t = Trip(s)
    else:
        if not isinstance(action, Pick) or not 0 <= action.n < len(j.menu):
            raise IllegalAction(f"{action!r} is not on the menu")
        choice = j.menu[action.n]
        j.menu, j.title = [], ""
        t = Trip(s)
        t.emit("choice", label=choice.label)
        t.push(*choice.then)
    run(t)
    events += t.close()
    return events
