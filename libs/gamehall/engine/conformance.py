"""The conformance kit: one call proves a game honours the engine protocol.

    from gamehall.engine.conformance import assert_conforms
    assert_conforms(GAME, matches=500)

It plays random matches to the end over many seeds and configs and checks, at every
step (or every `deep_every` steps for the costly checks):

- `to_act` is empty exactly when `outcome` is set; every seat to act has a legal action,
  and a seat that is not to act has none;
- `apply` never mutates its input, and rejects with a reason: seats not to act, and
  actions that were legal earlier but are not now;
- `default_action`, when given, is legal;
- views (every seat and the spectator) are JSON-safe, convert back to the game's `view_type`
  (strict `msgspec.convert`: a view that strays from its declared type fails), and are equal under
  `resample_hidden` (so no view carries what the game declares secret to that seat);
- `determinize(view(s, seat), seat)` gives a state whose view and legal actions for that
  seat equal the original's;
- `decode(encode(s))` re-encodes to the same bytes;
- replaying the action log from the seed reproduces every state byte for byte;
- the outcome has one rank per seat and the match ends within `game.max_steps`;
- the game's own invariants hold at every step: a game may define `invariants(state)` returning
  a list of breaches (e.g. card conservation), which the kit calls on every state it reaches.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from gamehall.engine.errors import IllegalAction
from gamehall.engine.protocol import Action, Game, MatchConfig, action_id
from gamehall.engine.registry import check_view_type


class ConformanceError(AssertionError):
    """A game broke the engine protocol; the message says where and how to replay it."""


@dataclass
class ConformanceReport:
    matches: int = 0
    steps: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    hidden_differs: int = 0
    """How often `resample_hidden` changed the state (0 for a game with no secrets)."""
    by_config: Counter[str] = field(default_factory=Counter)


def default_configs(game: Game[Any]) -> list[MatchConfig]:
    """Every mode at every seat count it accepts, with default options and flags."""
    return [game.configure(mode.id, seats) for mode in game.modes for seats in mode.seats]


def _json_safe(obj: Any, where: str) -> None:
    try:
        json.dumps(obj, allow_nan=False, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise ConformanceError(f"{where}: view is not JSON-safe: {exc}") from exc
    if not isinstance(obj, dict):
        raise ConformanceError(f"{where}: view must be a dict, got {type(obj).__name__}")


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


class _Match:
    """One random match under the kit's eye."""

    def __init__(self, game: Game[Any], config: MatchConfig, seed: int, deep_every: int) -> None:
        self.game = game
        self.config = config
        self.seed = seed
        self.deep_every = deep_every
        self.rng = random.Random(seed)
        self.where = f"{game.id} {config.to_json()} seed={seed}"

    def fail(self, step: int, message: str) -> ConformanceError:
        return ConformanceError(f"{self.where} step {step}: {message}")

    def play(self, report: ConformanceReport) -> None:
        game, rng = self.game, self.rng
        state = game.new_match(self.config, self.seed)
        log: list[tuple[int, Action]] = []
        digests = [_digest(game.encode(state))]
        seen: list[Action] = []
        seats = list(range(self.config.seats))
        step = 0
        invariants = getattr(game, "invariants", None)
        while True:
            if invariants is not None:
                breaches = list(invariants(state))
                if breaches:
                    raise self.fail(step, f"game invariant broken: {'; '.join(breaches[:5])}")
            outcome = game.outcome(state)
            acting = game.to_act(state)
            deep = step % self.deep_every == 0
            if deep:
                self.check_state(step, state, seats, report)
            if outcome is not None:
                if acting:
                    raise self.fail(step, f"match is over but seats {sorted(acting)} are to act")
                worst = max(2, self.config.seats)  # a solo match ranks 2 for a loss
                if len(outcome.ranks) != self.config.seats or not all(1 <= r <= worst for r in outcome.ranks):
                    raise self.fail(step, f"bad outcome ranks {outcome.ranks}")
                report.outcomes[",".join(map(str, outcome.ranks))] += 1
                break
            if not acting:
                raise self.fail(step, "no outcome yet, but no seat is to act")
            if step >= game.max_steps:
                raise self.fail(step, f"no outcome after max_steps={game.max_steps}")
            seat = rng.choice(sorted(acting))
            legal = list(game.legal_actions(state, seat))
            if not legal:
                raise self.fail(step, f"seat {seat} is to act but has no legal action")
            if len(set(legal)) != len(legal):
                raise self.fail(step, "legal_actions lists an action twice")
            if deep:
                self.check_rejections(step, state, seat, acting, legal, seen, seats)
                default = game.default_action(state, seat)
                if default is not None and default not in legal:
                    raise self.fail(step, f"default_action {action_id(default)} is not legal")
            action = rng.choice(legal)
            seen.append(action)
            if len(seen) > 64:
                del seen[: len(seen) - 64]
            before = game.encode(state)
            next_state, events = game.apply(state, seat, action)
            if game.encode(state) != before:
                raise self.fail(step, f"apply({action_id(action)}) mutated its input state")
            for ev in events:
                if ev.audience is not None and not ev.audience <= set(seats):
                    raise self.fail(step, f"event {ev.kind} addressed to unknown seats {ev.audience}")
            log.append((seat, action))
            state = next_state
            digests.append(_digest(game.encode(state)))
            step += 1
        report.matches += 1
        report.steps += step
        report.by_config[f"{self.config.mode}/{self.config.seats}"] += 1
        self.check_replay(log, digests)

    def check_state(self, step: int, state: Any, seats: Sequence[int], report: ConformanceReport) -> None:
        game, rng = self.game, self.rng
        encoded = game.encode(state)
        if game.encode(game.decode(encoded)) != encoded:
            raise self.fail(step, "decode(encode(state)) does not re-encode to the same bytes")
        for observer in [None, *seats]:
            view = game.view(state, observer)
            _json_safe(view, f"{self.where} step {step} view for {observer}")
            self.check_view_type(step, view, observer)
            other = game.resample_hidden(state, observer, rng)
            if game.encode(other) != encoded:
                report.hidden_differs += 1
            if game.view(other, observer) != view:
                raise self.fail(
                    step,
                    f"the view for {'spectator' if observer is None else f'seat {observer}'} changes when "
                    "what is hidden from it is redrawn: it leaks a secret "
                    "(or resample_hidden redraws something visible)",
                )
            if observer is None:
                continue
            if observer not in game.to_act(state) and list(game.legal_actions(state, observer)):
                raise self.fail(step, f"seat {observer} is not to act but legal_actions lists actions for it")
            guess = game.determinize(json.loads(json.dumps(view)), observer, rng)
            if game.view(guess, observer) != view:
                raise self.fail(step, f"determinize for seat {observer} gives a state whose view differs")
            if game.to_act(guess) != game.to_act(state) and observer in game.to_act(state):
                raise self.fail(step, f"determinize for seat {observer} changes who is to act")
            if observer in game.to_act(state) and list(game.legal_actions(guess, observer)) != list(
                game.legal_actions(state, observer)
            ):
                raise self.fail(step, f"determinize for seat {observer} changes its legal actions")

    def check_view_type(self, step: int, view: Any, observer: int | None) -> None:
        try:
            msgspec.convert(view, self.game.view_type)
        except msgspec.ValidationError as exc:
            who = "spectator" if observer is None else f"seat {observer}"
            raise self.fail(step, f"the view for {who} strays from {self.game.id}'s view_type: {exc}") from exc

    def check_rejections(
        self,
        step: int,
        state: Any,
        seat: int,
        acting: frozenset[int],
        legal: list[Action],
        seen: list[Action],
        seats: Sequence[int],
    ) -> None:
        idle = [s for s in seats if s not in acting]
        if idle:
            self.expect_illegal(step, state, idle[0], legal[0], "a seat that is not to act")
        legal_set = set(legal)
        for old in seen[-8:]:
            if old not in legal_set:
                self.expect_illegal(step, state, seat, old, "an action that is not legal now")
                break

    def expect_illegal(self, step: int, state: Any, seat: int, action: Action, what: str) -> None:
        before = self.game.encode(state)
        try:
            self.game.apply(state, seat, action)
        except IllegalAction as exc:
            if not exc.reason:
                raise self.fail(step, f"IllegalAction for {what} carries no reason") from exc
        else:
            raise self.fail(step, f"apply accepted {what}: seat {seat} {action_id(action)}")
        if self.game.encode(state) != before:
            raise self.fail(step, f"a rejected action ({what}) mutated the state")

    def check_replay(self, log: list[tuple[int, Action]], digests: list[bytes]) -> None:
        game = self.game
        state = game.new_match(self.config, self.seed)
        if _digest(game.encode(state)) != digests[0]:
            raise self.fail(0, "new_match is not deterministic for the same config and seed")
        for i, (seat, action) in enumerate(log, start=1):
            state, _ = game.apply(state, seat, action)
            if _digest(game.encode(state)) != digests[i]:
                raise self.fail(i, "replaying the action log from the seed gives a different state")


def check_game(
    game: Game[Any],
    *,
    matches: int = 200,
    configs: Iterable[MatchConfig] | None = None,
    seed: int = 0,
    deep_every: int = 1,
) -> ConformanceReport:
    """Play `matches` random matches spread over `configs` and check the protocol throughout."""
    try:
        check_view_type(game)
    except TypeError as exc:
        raise ConformanceError(str(exc)) from exc
    config_list = list(configs) if configs is not None else default_configs(game)
    if not config_list:
        raise ConformanceError(f"{game.id} has no config to test")
    report = ConformanceReport()
    for i in range(matches):
        config = config_list[i % len(config_list)]
        _Match(game, config, seed * 1_000_003 + i, deep_every).play(report)
    if game.has_hidden_information and report.hidden_differs == 0:
        raise ConformanceError(
            f"{game.id} declares hidden information but resample_hidden never changed a state: "
            "its secrets are not declared"
        )
    return report


def assert_conforms(game: Game[Any], **kwargs: Any) -> ConformanceReport:
    """`check_game` for tests: raises ConformanceError (an AssertionError) on the first breach."""
    return check_game(game, **kwargs)
