"""Tall Tale fixtures: a campaign past the archetype picks, a piece placed on a node, play helpers."""

from __future__ import annotations

from gamehall.engine.protocol import Action, Event
from gamehall.engine.rng import Rng
from gamehall.games.grimslingers import GAME, machine
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.actions import Choose
from gamehall.games.grimslingers.revival import SECRET
from gamehall.games.grimslingers.state import Phase, State
from gamehall.games.grimslingers.tale_content import EVENTS, NODE_ID
from gamehall.games.grimslingers.tale_state import Activity, Step, Tale


def tale(players: int = 1, difficulty: str = "normal", seed: int = 1) -> State:
    """A Tall Tale whose archetypes are picked (first legal pick), halted before any node resolves."""
    s = GAME.new_match(GAME.configure("tall-tale", players, options={"difficulty": difficulty}), seed)
    while s.phase == Phase.ARCHETYPE:
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    return s


def t_of(s: State) -> Tale:
    assert s.tale is not None
    return s.tale


def ids(keys: list[str]) -> list[int]:
    return [cat.ID[k] for k in keys]


def keys(cards: list[int]) -> list[str]:
    return [cat.KEYS[c] for c in cards]


def advance(s: State) -> list[Event]:
    events: list[Event] = []
    rng = Rng(s.rng)
    machine.advance(s, events, rng)
    s.rng = rng.state
    return events


def place(
    s: State, node: str, *, step: Step = Step.NODE, last_start: str | None = None, part: int | None = None
) -> list[Event]:
    """Put the piece on `node` with nothing pending, then run the adventure from `step`."""
    t = t_of(s)
    t.node = t.turn_start = NODE_ID[node]
    t.last_start = NODE_ID[last_start] if last_start else -1
    t.step, t.stage = step, 0
    t.decision, t.activity, t.queue, t.award = None, Activity.NONE, [], []
    if part is not None:
        t.part = part
    s.phase = Phase.ADVENTURE
    s.picking, s.prompts = None, []
    return advance(s)


def top_event(s: State, key: str) -> None:
    """Make `key` the next event card drawn."""
    t = t_of(s)
    idx = next(i for i, e in enumerate(EVENTS) if e.key == key)
    t.event_deck = [e for e in t.event_deck if e != idx] + [idx]


def act(s: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """Apply, then answer the secret revival offers of seats that hold nothing to answer with
    (item 5: every seat at 0 HP gets one; only its own legal actions show what it holds)."""
    s, events = GAME.apply(s, seat, action)
    while s.prompts and s.prompts[0].kind in SECRET and GAME.legal_actions(s, s.prompts[0].seat) == [Choose(0)]:
        s, more = GAME.apply(s, s.prompts[0].seat, Choose(0))
        events += more
    return s, events


def take_from_deck(s: State, key: str) -> int:
    """Move an item out of the item deck (test setup: give it to someone)."""
    card = cat.ID[key]
    s.item_deck.remove(card)
    return card
