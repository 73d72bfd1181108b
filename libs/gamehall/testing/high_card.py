"""High Card: a tiny two-seat game of simultaneous secret choices, used by tests and benchmarks.

Each seat is dealt five cards from a shuffled 1..12 deck. In each of five rounds both
seats commit a card face down at the same time; when both have committed the cards are
revealed and the higher card scores the round. It exercises what real games need from
the platform: hidden hands, hidden commitments, a hidden deck, chance and an outcome.
"""

from __future__ import annotations

import random
from typing import Annotated

import msgspec
from msgspec import UNSET, Meta, UnsetType

from gamehall.engine import (
    Action,
    Event,
    IllegalAction,
    JsonDict,
    MatchConfig,
    Mode,
    Option,
    Outcome,
    Rng,
    StructGame,
)

DECK = tuple(range(1, 13))
HAND = 5


class Play(Action, tag="play", frozen=True):
    card: int


class Resign(Action, tag="resign", frozen=True):
    pass


class State(msgspec.Struct):
    seats: int
    rng: int
    deck: list[int]
    hands: list[list[int]]
    committed: list[int | None]
    scores: list[int]
    revealed: list[list[int]]
    resigned: int | None = None
    ties_score: bool = False


class HighCardView(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """What one observer (a seat, or null: a spectator) sees of a High Card match."""

    scores: list[int]
    revealed: Annotated[list[list[int]], Meta(description="Per seat, the cards it revealed, round by round.")]
    hand_sizes: list[int]
    committed: Annotated[list[bool], Meta(description="Per seat, whether it has committed this round's card.")]
    deck_size: int
    resigned: Annotated[int | None, Meta(description="The seat that resigned, if any.")]
    ties_score: Annotated[bool, Meta(description="Rule flag: a tied round scores for both seats.")]
    seat: Annotated[int | None, Meta(description="The observer's seat; null for a spectator.")]
    hand: Annotated[list[int] | UnsetType, Meta(description="The observer's cards (seats only).")] = UNSET
    my_commitment: Annotated[
        int | UnsetType | None, Meta(description="The card the observer committed this round (seats only).")
    ] = UNSET


class HighCard(StructGame[State]):
    id = "high-card"
    name = "High Card"
    description = "Test fixture: simultaneous secret card plays."
    modes = (Mode("duel", "Duel", (2,)),)
    flags = (Option("ties_score", False, "a tied round scores a point for both seats"),)
    action_types = (Play, Resign)
    state_type = State
    view_type = HighCardView

    def new_match(self, config: MatchConfig, seed: int) -> State:
        config = self.validate_config(config)
        rng = Rng(seed)
        deck = rng.shuffled(DECK)
        hands = [sorted(deck[i * HAND : (i + 1) * HAND]) for i in range(config.seats)]
        return State(
            seats=config.seats,
            rng=rng.state,
            deck=deck[config.seats * HAND :],
            hands=hands,
            committed=[None] * config.seats,
            scores=[0] * config.seats,
            revealed=[[] for _ in range(config.seats)],
            ties_score=bool(config.flags["ties_score"]),
        )

    def config_of(self, state: State) -> MatchConfig:
        return self.configure("duel", state.seats, flags={"ties_score": state.ties_score})

    def to_act(self, state: State) -> frozenset[int]:
        if self.outcome(state) is not None:
            return frozenset()
        return frozenset(s for s in range(state.seats) if state.committed[s] is None)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [*(Play(card) for card in state.hands[seat]), Resign()]

    def validate_action(self, state: State, seat: int, action: Action) -> None:
        if isinstance(action, Play) and action.card not in state.hands[seat]:
            raise IllegalAction(f"card {action.card} is not in your hand")
        super().validate_action(state, seat, action)

    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        s = self.copy(state)
        if isinstance(action, Resign):
            s.resigned = seat
            return s, [Event("resigned", {"seat": seat})]
        assert isinstance(action, Play)
        s.hands[seat].remove(action.card)
        s.committed[seat] = action.card
        events = [Event("committed", {"seat": seat}), Event("you_committed", {"card": action.card}, frozenset({seat}))]
        if all(c is not None for c in s.committed):
            cards = [c for c in s.committed if c is not None]
            best = max(cards)
            winners = [i for i, c in enumerate(cards) if c == best]
            if len(winners) == 1 or s.ties_score:
                for w in winners:
                    s.scores[w] += 1
            for i, c in enumerate(cards):
                s.revealed[i].append(c)
            s.committed = [None] * s.seats
            events.append(Event("revealed", {"cards": cards, "scores": list(s.scores)}))
        return s, events

    def outcome(self, state: State) -> Outcome | None:
        if state.resigned is not None:
            return Outcome(tuple(2 if s == state.resigned else 1 for s in range(state.seats)), reason="resigned")
        if any(state.hands[s] or state.committed[s] is not None for s in range(state.seats)):
            return None
        ranks = tuple(1 + sum(o > mine for o in state.scores) for mine in state.scores)
        return Outcome(ranks, tuple(float(x) for x in state.scores), reason="all cards played")

    def default_action(self, state: State, seat: int) -> Action | None:
        hand = state.hands[seat]
        return Play(min(hand)) if hand and seat in self.to_act(state) else None

    def view(self, state: State, seat: int | None) -> JsonDict:
        view = HighCardView(
            scores=list(state.scores),
            revealed=[list(r) for r in state.revealed],
            hand_sizes=[len(h) for h in state.hands],
            committed=[c is not None for c in state.committed],
            deck_size=len(state.deck),
            resigned=state.resigned,
            ties_score=state.ties_score,
            seat=seat,
        )
        if seat is not None:
            view.hand = list(state.hands[seat])
            view.my_commitment = state.committed[seat]
        return msgspec.to_builtins(view)  # type: ignore[no-any-return]

    def _unseen(self, state: State, seat: int | None) -> list[int]:
        """Cards `seat` cannot place: the deck, other seats' hands and commitments."""
        pool = list(state.deck)
        for s in range(state.seats):
            if s != seat:
                pool += state.hands[s]
                if state.committed[s] is not None:
                    pool.append(state.committed[s])  # type: ignore[arg-type]
        return pool

    def _redeal(self, state: State, seat: int | None, pool: list[int], rng: random.Random) -> State:
        s = self.copy(state)
        rng.shuffle(pool)
        for other in range(s.seats):
            if other == seat:
                continue
            n = len(s.hands[other])
            s.hands[other] = sorted(pool[:n])
            del pool[:n]
            if s.committed[other] is not None:
                s.committed[other] = pool.pop()
        s.deck = pool
        s.rng = rng.getrandbits(64)
        return s

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        return self._redeal(state, seat, self._unseen(state, seat), rng)

    def determinize(self, view: JsonDict, seat: int, rng: random.Random) -> State:
        n = len(view["scores"])
        seen = set(view["hand"]) | {c for r in view["revealed"] for c in r}
        if view["my_commitment"] is not None:
            seen.add(view["my_commitment"])
        pool = [c for c in DECK if c not in seen]
        hands: list[list[int]] = [[] for _ in range(n)]
        hands[seat] = list(view["hand"])
        committed: list[int | None] = [None] * n
        committed[seat] = view["my_commitment"]
        shell = State(
            seats=n,
            rng=0,
            deck=[],
            hands=hands,
            committed=committed,
            scores=list(view["scores"]),
            revealed=[list(r) for r in view["revealed"]],
            resigned=view["resigned"],
            ties_score=view["ties_score"],
        )
        # Fill the other seats' hands and commitments to the sizes the view shows.
        for other in range(n):
            if other != seat:
                shell.hands[other] = [0] * view["hand_sizes"][other]
                shell.committed[other] = 0 if view["committed"][other] else None
        return self._redeal(shell, seat, pool, rng)


GAME = HighCard()
