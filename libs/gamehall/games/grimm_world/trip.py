"""The campaign's working context and its runner: a stack of card lines (ops) executed until Martha must choose,
a fight starts, or the story ends. Handlers register themselves by op name."""

from __future__ import annotations

from collections.abc import Callable

from gamehall.engine import Event, Rng
from gamehall.games.grimm_world.catalog import ENCOUNTERS
from gamehall.games.grimm_world.content.schema import Choice, Op
from gamehall.games.grimm_world.decks import take_out_specials
from gamehall.games.grimm_world.journey import Journey
from gamehall.games.grimm_world.sheet import stats
from gamehall.games.grimm_world.state import State


class CampaignError(ValueError):
    """Content asked for something the campaign engine does not know (a bad op or card): a content bug."""


class Trip:
    """One `apply` of the campaign: the state, its journey, the generator and the events."""

    def __init__(self, s: State) -> None:
        if s.journey is None:
            raise CampaignError("not a campaign")
        self.s = s
        self.j: Journey = s.journey
        self.rng = Rng(s.rng)
        self.events: list[Event] = []

    def close(self) -> list[Event]:
        self.s.rng = self.rng.state
        return self.events

    def emit(self, kind: str, /, **data: object) -> None:
        self.events.append(Event(kind, data))

    @property
    def stats(self) -> dict[str, int]:
        return stats(self.s.sheet)

    def push(self, *ops: Op) -> None:
        """Run `ops` next, in the order given (the stack's last element runs first)."""
        self.j.stack.extend(reversed(ops))

    def ask(self, title: str, options: list[Choice]) -> None:
        """Wait for Martha's choice among `options` (never empty)."""
        if not options:
            raise CampaignError(f"empty menu: {title}")
        self.j.title = title
        self.j.menu = options

    # ------------------------------------------------------------- the Encounter Deck

    def top(self) -> str:
        """The top card once 'Time Passes' / 'Next Chapter' are taken out (W-ED-07)."""
        take_out_specials(self.s.decks)
        return self.s.decks.encounter[0]

    def take(self) -> str:
        """Take the top card out of the deck (a good, an item, a held Value / Encounter card)."""
        card = self.top()
        self.s.decks.encounter.pop(0)
        take_out_specials(self.s.decks)
        return card

    def cycle(self) -> str:
        """Move the top card to the bottom (a search or the Farm)."""
        card = self.take()
        self.s.decks.encounter.append(card)
        take_out_specials(self.s.decks)
        return card

    def under(self, card: str) -> None:
        if card:
            self.s.decks.encounter.append(card)

    def landscape(self, card: str) -> str:
        return ENCOUNTERS[card].landscape

    @property
    def fighting(self) -> bool:
        return self.s.fight is not None and not self.s.fight.result


HANDLERS: dict[str, Callable[[Trip, Op], None]] = {}


def handler(name: str) -> Callable[[Callable[[Trip, Op], None]], Callable[[Trip, Op], None]]:
    def register(fn: Callable[[Trip, Op], None]) -> Callable[[Trip, Op], None]:
        if name in HANDLERS:
            raise CampaignError(f"op {name!r} registered twice")
        HANDLERS[name] = fn
        return fn
    return register


def run(t: Trip) -> None:
    """Execute ops until Martha must choose, a fight is on, or the story has ended."""
    j = t.j
    while j.stack and not j.menu and not j.result and not t.fighting:
        op = j.stack.pop()
        fn = HANDLERS.get(op.op)
        if fn is None:
            raise CampaignError(f"unknown op {op.op!r}")
        fn(t, op)
