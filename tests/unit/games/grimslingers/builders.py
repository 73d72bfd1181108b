"""Builders for Grimslingers scenario states and a driver that plays scripted turns."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gamehall.engine.content import Provenance
from gamehall.engine.protocol import Action, Event
from gamehall.engine.rng import Rng
from gamehall.games.grimslingers import GAME, machine
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.actions import Aim, Choose, EndStandoff, Pass, StopPicking
from gamehall.games.grimslingers.content.schema import CardDef, Effect
from gamehall.games.grimslingers.revival import DECLINE, SECRET
from gamehall.games.grimslingers.state import Phase, State

BASICS = ["FIRE", "WATER", "EARTH", "WIND", "ICE", "LIGHTNING"]


@dataclass
class P:
    """One seat of a scenario: values not given keep the rulebook defaults (8/8, max 10/10)."""

    hp: int = 8
    ep: int = 8
    hand: list[str] = field(default_factory=lambda: list(BASICS))
    discard: list[str] = field(default_factory=list)
    deact: list[str] = field(default_factory=list)
    archetype: str | None = None
    max_hp: int | None = None
    max_ep: int | None = None


def ids(keys: Iterable[str]) -> list[int]:
    return [cat.ID[k] for k in keys]


def keys(cards: Iterable[int]) -> list[str]:
    return [cat.KEYS[c] for c in cards]


def build(
    players: list[P],
    *,
    mode: str | None = None,
    fp: int = 0,
    options: Mapping[str, Any] | None = None,
    flags: Mapping[str, Any] | None = None,
    seed: int = 1,
    field_: list[str] | None = None,
    item_deck: list[str] | None = None,
) -> State:
    """A state at the start of a turn's Standoff (drafts done), seats as given, FP = `fp`."""
    n = len(players)
    mode = mode or ("versus-1v1" if n == 2 else "versus-ffa")
    config = GAME.configure(mode, n, options=options or {}, flags=flags or {})
    s = GAME.new_match(config, seed)
    s.first_player = fp
    for x, p in zip(s.seats, players, strict=True):
        if p.archetype:
            x.archetype = cat.ARCHETYPE_ID[p.archetype]
            a = cat.ARCHETYPES[x.archetype]
            x.max_hp, x.max_ep = a.hp, a.ep
        x.max_hp = p.max_hp if p.max_hp is not None else x.max_hp
        x.max_ep = p.max_ep if p.max_ep is not None else x.max_ep
        x.hp, x.ep = p.hp, p.ep
        x.hand, x.discard, x.deact = ids(p.hand), ids(p.discard), ids(p.deact)
        x.offer, x.draft_seen, x.acted = [], [], 0
    if field_ is not None:
        s.field = ids(field_)
    if item_deck is not None:
        s.item_deck = ids(item_deck)
    s.phase = Phase.STANDOFF
    s.standoff_open = False
    s.current = -1
    s.order = []
    machine.advance(s, [], Rng(s.rng))
    return s


def act(s: State, seat: int, action: Action) -> State:
    s, _ = GAME.apply(s, seat, action)
    return s


def turn(
    s: State,
    *,
    standoff: Mapping[int, list[Action]] | None = None,
    aims: Mapping[int, int] | None = None,
    fire: Mapping[int, Action] | None = None,
    answers: Mapping[int, list[Action]] | None = None,
    events: list[Event] | None = None,
) -> State:
    """Play one turn with scripted choices; unscripted seats end the Standoff, aim at the first
    option, pass, and take the turn clock's default for prompts. Stops at the next turn or the end."""
    start_turn = s.turn
    queues = {k: list(v) for k, v in (standoff or {}).items()}
    replies = {k: list(v) for k, v in (answers or {}).items()}
    for _ in range(500):
        if s.phase == Phase.OVER or s.turn != start_turn:
            return s
        seat = min(GAME.to_act(s))
        action: Action
        if s.prompts or (s.picking is not None and not queues.get(seat)):
            secret = bool(s.prompts) and s.prompts[0].kind in SECRET
            if secret and not (replies.get(seat) and replies[seat][0] in GAME.legal_actions(s, seat)):
                action = Choose(DECLINE)  # the secret revival offer every seat at 0 HP gets (item 5)
            elif replies.get(seat):
                action = replies[seat].pop(0)
            elif s.picking is not None:
                action = StopPicking()
            else:
                default = GAME.default_action(s, seat)
                assert default is not None
                action = default
        elif s.phase == Phase.STANDOFF or s.picking is not None:
            action = queues[seat].pop(0) if queues.get(seat) else EndStandoff()
        elif s.phase == Phase.AIM:
            action = Aim(aims[seat]) if aims and seat in aims else GAME.legal_actions(s, seat)[0]
        elif s.phase == Phase.FIRE:
            action = fire[seat] if fire and seat in fire else Pass()
        else:
            raise AssertionError(f"unexpected phase {s.phase}")
        s, ev = GAME.apply(s, seat, action)
        if events is not None:
            events.extend(ev)
    raise AssertionError("turn did not finish")


def fixture_card(key: str, rn: int | None, effects: list[Effect], *, cost: int = 0, target: str = "single") -> str:
    """Register a test-only signature card (e.g. the spec's BloodBolt) once; return its key."""
    if key not in cat.ID:
        card = CardDef(
            key=key,
            name=key,
            kind="signature",
            text=key,
            rn=rn,
            cost=cost,
            target=target,  # type: ignore[arg-type]
            effects=effects,
            provenance=Provenance("designed", "test fixture from the specification's scenarios"),
        )
        cat.register(card)
    return key


def choose(option: int) -> Choose:
    return Choose(option)


@dataclass
class C:
    """The creature of a creature-duel scenario: HP/EP and piles (the hand's last card is on top)."""

    hp: int = 20
    ep: int = 10
    hand: list[str] | None = None
    discard: list[str] = field(default_factory=list)
    deact: list[str] = field(default_factory=list)


def build_creature(
    players: list[P],
    creature: C,
    *,
    key: str = "bandits",
    mode: str = "creature-duel",
    options: Mapping[str, Any] | None = None,
    flags: Mapping[str, Any] | None = None,
    seed: int = 1,
) -> State:
    """A creature duel at the start of a turn's Standoff, players and creature as given."""
    opts = dict(options or {})
    if mode == "creature-duel":
        opts.setdefault("creature", key)
    config = GAME.configure(mode, len(players), options=opts, flags=flags or {})
    s = GAME.new_match(config, seed)
    for x, p in zip(s.seats, players, strict=False):
        if p.archetype:
            x.archetype = cat.ARCHETYPE_ID[p.archetype]
        x.max_hp = p.max_hp if p.max_hp is not None else x.max_hp
        x.max_ep = p.max_ep if p.max_ep is not None else x.max_ep
        x.hp, x.ep = p.hp, p.ep
        x.hand, x.discard, x.deact = ids(p.hand), ids(p.discard), ids(p.deact)
        x.offer, x.draft_seen, x.acted = [], [], 0
    c = s.seats[s.creature]
    c.hp, c.ep = creature.hp, creature.ep
    if creature.hand is not None:
        c.hand = ids(creature.hand)
    c.discard, c.deact = ids(creature.discard), ids(creature.deact)
    s.phase = Phase.STANDOFF
    s.standoff_open = False
    s.current = -1
    s.order = []
    machine.advance(s, [], Rng(s.rng))
    return s


def play_creature_turn(
    s: State,
    *,
    fire: Mapping[int, Action] | None = None,
    answers: Mapping[int, list[Action]] | None = None,
    standoff: Mapping[int, list[Action]] | None = None,
) -> State:
    """One creature-duel turn with scripted player choices (the same driver as `turn`)."""
    return turn(s, standoff=standoff, fire=fire, answers=answers)
