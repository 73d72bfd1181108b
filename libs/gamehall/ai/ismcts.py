"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse, 2012), generic over `Game`.

One tree is grown for the observing seat. Each iteration samples a determinization of the
observer's view (`game.determinize`, which also reseeds the state's own RNG, so chance
differs per iteration) and descends the tree along action ids:

- *Availability-aware UCB*: at a node only the arms legal in this determinization compete,
  and an arm's exploration term uses how often it was available, not the parent's visits.
- *Per-seat statistics*: an arm's rewards are `Outcome.returns()[seat]` of the seat acting
  there, so every seat maximises its own return (n seats, teams, ties: whatever returns say).
- *Simultaneous secret choices* (several seats in `to_act`): the node is decoupled. Every
  acting seat picks from its own arm statistics at that node, all from the same state and
  before any pick is applied; the picks are then applied in ascending seat order and the
  child is keyed by the joint picks. So the fixed order only sequences the engine calls:
  an opponent's pick never sees the observer's hidden commitment (nor the reverse), which a
  plain sequential tree (observer first, opponent as its child) would leak to the opponent.
  A later pick that the earlier ones made illegal is dropped from that joint step.
- *Chance* happens inside the state's RNG, so the tree is open-loop over chance outcomes.
- *Rollouts* play uniformly random legal actions to the end, or stop after `rollout_depth`
  actions and value the state with an `Evaluator` (a game heuristic).

Budget: `iterations` and/or a `deadline` read from `clock` (the engine never reads a clock).
For a fixed rng seed and an iteration budget the result is deterministic.

Known limit (as in the paper's SO-ISMCTS): a *sequential* hidden move (a secret action
followed by another seat's turn) is keyed by its id, so inside the tree the next seat's
statistics are conditioned on it. The decision itself stays fair: it is built from the view.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gamehall.ai.heuristic import Evaluator, find_heuristic, find_rollout_depth
from gamehall.ai.playout import random_playout
from gamehall.engine import Action, Game, JsonDict, action_id

Pick = tuple[int, str]
"""(seat, action id): one seat's move at a tree node."""


class _Arm:
    __slots__ = ("available", "reward", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.reward = 0.0
        self.available = 0


class _Node:
    __slots__ = ("arms", "children")

    def __init__(self) -> None:
        self.arms: dict[int, dict[str, _Arm]] = {}
        self.children: dict[tuple[Pick, ...], _Node] = {}


@dataclass(frozen=True)
class SearchResult:
    """The chosen action and the root statistics (visits, mean return) per action id."""

    action: Action
    iterations: int
    root: dict[str, tuple[int, float]]


def _select(arms: dict[str, _Arm], ids: list[str], rng: random.Random, exploration: float) -> tuple[int, bool]:
    """Index of the arm to play among `ids` (all available now) and whether it was untried."""
    untried = []
    for i, key in enumerate(ids):
        arm = arms.get(key)
        if arm is None:
            arm = arms[key] = _Arm()
        arm.available += 1
        if arm.visits == 0:
            untried.append(i)
    if untried:
        return untried[rng.randrange(len(untried))], True
    best, best_score = 0, -math.inf
    log, sqrt = math.log, math.sqrt
    for i, key in enumerate(ids):
        arm = arms[key]
        score = arm.reward / arm.visits + exploration * sqrt(log(arm.available) / arm.visits)
        if score > best_score:
            best, best_score = i, score
    return best, False


def ismcts(
    game: Game[Any],
    view: JsonDict,
    seat: int,
    legal: Sequence[Action],
    rng: random.Random,
    *,
    iterations: int | None = None,
    deadline: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
    exploration: float = 0.7,
    rollout_depth: int | None = None,
    evaluator: Evaluator | None = None,
) -> SearchResult:
    """Search from `seat`'s view and return the most visited legal root action.

    Stops after `iterations`, or at `deadline` (a `clock()` value), whichever comes first;
    at least one iteration always runs. `rollout_depth` needs an `evaluator`.
    """
    if not legal:
        raise ValueError(f"seat {seat} has no legal action to choose from")
    if iterations is None and deadline is None:
        raise ValueError("give an iteration budget, a deadline, or both")
    if rollout_depth is not None and evaluator is None:
        raise ValueError("a rollout depth cut-off needs an evaluator")
    ids_of: dict[Action, str] = {}

    def ids(actions: Sequence[Action]) -> list[str]:
        out = []
        for action in actions:
            key = ids_of.get(action)
            if key is None:
                key = ids_of[action] = action_id(action)
            out.append(key)
        return out

    to_act, legal_actions, apply, outcome_of = game.to_act, game.legal_actions, game.apply, game.outcome
    root = _Node()
    seats = 0
    done = 0
    while iterations is None or done < iterations:
        if deadline is not None and done and clock() >= deadline:
            break
        state = game.determinize(view, seat, rng)
        if not seats:
            seats = game.config_of(state).seats
        node = root
        path: list[tuple[_Node, list[Pick]]] = []
        while True:
            acting = to_act(state)
            if not acting:
                break
            grew = False
            picks: list[tuple[int, str, Action]] = []
            for mover in sorted(acting) if len(acting) > 1 else acting:
                moves = legal_actions(state, mover)
                keys = ids(moves)
                arms = node.arms.get(mover)
                if arms is None:
                    arms = node.arms[mover] = {}
                index, untried = _select(arms, keys, rng, exploration)
                grew = grew or untried
                picks.append((mover, keys[index], moves[index]))
            applied: list[Pick] = []
            for mover, key, action in picks:
                if applied and (mover not in to_act(state) or action not in legal_actions(state, mover)):
                    continue
                state, _ = apply(state, mover, action, trusted=True)
                applied.append((mover, key))
            path.append((node, applied))
            joint = tuple(applied)
            child = node.children.get(joint)
            if child is None:
                child = node.children[joint] = _Node()
                grew = True
            node = child
            if grew:
                break
        state, _ = random_playout(game, state, rng, rollout_depth)
        outcome = outcome_of(state)
        if outcome is not None:
            rewards: Sequence[float] = outcome.returns()
        elif evaluator is not None:
            rewards = evaluator.values(state, seats)
        else:
            rewards = [0.5] * seats  # a playout that outlived max_steps: no information
        for visited, applied in path:
            for mover, key in applied:
                arm = visited.arms[mover][key]
                arm.visits += 1
                arm.reward += rewards[mover]
        done += 1
    root_arms = root.arms.get(seat, {})
    keys = ids(legal)
    stats: dict[str, tuple[int, float]] = {}
    for key in keys:
        found = root_arms.get(key)
        stats[key] = (found.visits, found.reward / found.visits) if found is not None and found.visits else (0, 0.0)
    best = max(range(len(legal)), key=lambda i: stats[keys[i]])  # most visits, then best mean, then first
    return SearchResult(legal[best], done, stats)


class ISMCTSBot:
    """A bot that runs `ismcts` on its view with an iteration and/or millisecond budget.

    Rollouts stop after the depth the game's heuristic declares (`ROLLOUT_DEPTH`), else after
    `heuristic_depth` actions when given, and are then valued by the game's heuristic; with
    neither, or no heuristic, they run to the end.
    """

    def __init__(
        self,
        *,
        iterations: int | None = 200,
        time_ms: float | None = None,
        exploration: float = 0.7,
        heuristic_depth: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
        name: str = "ismcts",
    ) -> None:
        if iterations is None and time_ms is None:
            raise ValueError("give an iteration budget, a time budget, or both")
        self.iterations = iterations
        self.time_ms = time_ms
        self.exploration = exploration
        self.heuristic_depth = heuristic_depth
        self.clock = clock
        self.name = name

    def choose(self, game: Game[Any], view: JsonDict, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        return self.search(game, view, seat, legal, rng).action

    def search(
        self, game: Game[Any], view: JsonDict, seat: int, legal: Sequence[Action], rng: random.Random
    ) -> SearchResult:
        if len(legal) == 1:
            return SearchResult(legal[0], 0, {action_id(legal[0]): (0, 0.0)})
        deadline = None if self.time_ms is None else self.clock() + self.time_ms / 1000.0
        evaluator = None
        depth = find_rollout_depth(game) or self.heuristic_depth
        if depth is not None:
            heuristic = find_heuristic(game)
            if heuristic is not None:
                evaluator = Evaluator(game, heuristic)
            else:
                depth = None
        return ismcts(
            game,
            view,
            seat,
            legal,
            rng,
            iterations=self.iterations,
            deadline=deadline,
            clock=self.clock,
            exploration=self.exploration,
            rollout_depth=depth,
            evaluator=evaluator,
        )
