"""Bots playing matches in-process, seeing only what their seat sees; round-robin win-rate tables.

The harness is the only holder of the true state: each bot receives a detached copy of
`game.view(state, seat)` and the list from `game.legal_actions(state, seat)`, never the
state. Results are plain data (dicts, lists, numbers) for the CLI and services.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from gamehall.ai.bot import Bot
from gamehall.ai.levels import make_bot
from gamehall.ai.stats import Sprt, wilson_interval
from gamehall.engine import Game, IllegalAction, JsonDict, MatchConfig, Outcome, action_id, derive_seed


@dataclass(frozen=True)
class MatchResult:
    """One finished match: its seed, outcome, number of actions and the action log."""

    seed: int
    outcome: Outcome
    steps: int
    actions: tuple[tuple[int, str], ...]

    def to_json(self) -> JsonDict:
        return {
            "seed": self.seed,
            "outcome": self.outcome.to_json(),
            "steps": self.steps,
            "actions": [[seat, aid] for seat, aid in self.actions],
        }


def bot_rng(seed: int, seat: int) -> random.Random:
    """The generator a seat's bot uses in the match with `seed` (never the match's own RNG)."""
    return random.Random(derive_seed(seed, "bot", seat))


def _detached(view: JsonDict) -> JsonDict:
    """A deep JSON copy: the bot can hold nothing that aliases the true state."""
    return msgspec.json.decode(msgspec.json.encode(view))  # type: ignore[no-any-return]


def play_match(
    game: Game[Any], config: MatchConfig, bots: Sequence[Bot], seed: int, *, max_steps: int | None = None
) -> MatchResult:
    """Play one match, `bots[i]` in seat i. When several seats act at once, the lowest seat is asked first."""
    if len(bots) != config.seats:
        raise ValueError(f"{config.seats} seats need {config.seats} bots, got {len(bots)}")
    limit = game.max_steps if max_steps is None else max_steps
    state = game.new_match(config, seed)
    rngs = [bot_rng(seed, seat) for seat in range(config.seats)]
    log: list[tuple[int, str]] = []
    while True:
        outcome = game.outcome(state)
        if outcome is not None:
            return MatchResult(seed, outcome, len(log), tuple(log))
        acting = game.to_act(state)
        if not acting:
            raise RuntimeError(f"{game.id} seed={seed}: no outcome, but no seat is to act")
        if len(log) >= limit:
            raise RuntimeError(f"{game.id} seed={seed}: no outcome after {limit} actions")
        seat = min(acting)
        view = _detached(game.view(state, seat))
        legal = list(game.legal_actions(state, seat))
        action = bots[seat].choose(game, view, seat, legal, rngs[seat])
        if action not in legal:
            raise IllegalAction(f"bot {bots[seat].name} in seat {seat} chose {action_id(action)}, which is not legal")
        state, _ = game.apply(state, seat, action, trusted=True)
        log.append((seat, action_id(action)))


def _pair_seats(seats: int, match: int) -> int:
    """The seat of the first level in the `match`-th game of a pair; it rotates so no seat is favoured."""
    return match % seats


def round_robin(
    game: Game[Any],
    config: MatchConfig,
    levels: Sequence[str],
    matches: int,
    *,
    seed: int = 0,
    bot_factory: Callable[[str], Bot] = make_bot,
    progress: Callable[[int, int], None] | None = None,
) -> JsonDict:
    """Every pair of `levels` plays `matches` matches; returns each pair's score with a Wilson 95% CI.

    In a pair (a, b) level a takes one seat (rotating over matches) and b all the others; a's
    score is its `Outcome.returns()` (1 a win, 0.5 a two-way tie), so `rate` is a's win rate.
    `table[a][b]` is a's rate against b (and `table[b][a]` its complement).
    """
    if matches < 1:
        raise ValueError("matches must be at least 1")
    pairs = list(itertools.combinations(levels, 2))
    total, done = len(pairs) * matches, 0
    rows: list[JsonDict] = []
    table: dict[str, dict[str, JsonDict]] = {level: {} for level in levels}
    for a, b in pairs:
        score = 0.0
        steps = 0
        for k in range(matches):
            seat_a = _pair_seats(config.seats, k)
            bots = [bot_factory(a) if s == seat_a else bot_factory(b) for s in range(config.seats)]
            result = play_match(game, config, bots, derive_seed(seed, a, b, k))
            score += result.outcome.returns()[seat_a]
            steps += result.steps
            done += 1
            if progress is not None:
                progress(done, total)
        low, high = wilson_interval(score, matches)
        rate = score / matches
        rows.append(
            {"a": a, "b": b, "matches": matches, "score": score, "rate": rate, "low": low, "high": high,
             "mean_steps": steps / matches}
        )
        table[a][b] = {"rate": rate, "low": low, "high": high, "matches": matches}
        table[b][a] = {"rate": 1 - rate, "low": 1 - high, "high": 1 - low, "matches": matches}
    return {
        "game": game.id,
        "config": config.to_json(),
        "levels": list(levels),
        "matches_per_pair": matches,
        "seed": seed,
        "pairs": rows,
        "table": table,
    }


def sequential_pair(
    game: Game[Any],
    config: MatchConfig,
    a: str,
    b: str,
    *,
    sprt: Sprt | None = None,
    max_matches: int = 400,
    seed: int = 0,
    bot_factory: Callable[[str], Bot] = make_bot,
) -> JsonDict:
    """Level `a` against `b` under a sequential test: play until `sprt` decides or `max_matches` is spent.

    Seeds are paired: each seed is played once with `a` in every seat (the others are `b`), so
    the deal and the seat advantage cancel out, and the test looks at the evidence only after a
    whole rotation. `decision` is "H1" (a scores p1 or more), "H0" (a is no better than p0) or
    "inconclusive" when the budget ran out first; `low`/`high` are the Wilson 95% bounds.
    """
    test = sprt or Sprt()
    if max_matches < config.seats:
        raise ValueError(f"max_matches must allow one rotation of {config.seats} seats")
    score, matches, steps, decision = 0.0, 0, 0, "inconclusive"
    rotation = 0
    while matches + config.seats <= max_matches:
        match_seed = derive_seed(seed, a, b, rotation)
        for seat_a in range(config.seats):
            bots = [bot_factory(a) if s == seat_a else bot_factory(b) for s in range(config.seats)]
            result = play_match(game, config, bots, match_seed)
            score += result.outcome.returns()[seat_a]
            steps += result.steps
            matches += 1
        rotation += 1
        verdict = test.decide(score, matches)
        if verdict is not None:
            decision = verdict
            break
    low, high = wilson_interval(score, matches)
    return {
        "game": game.id, "a": a, "b": b, "matches": matches, "score": score, "rate": score / matches,
        "low": low, "high": high, "llr": test.llr(score, matches), "decision": decision,
        "p0": test.p0, "p1": test.p1, "alpha": test.alpha, "beta": test.beta, "mean_steps": steps / matches,
    }


def team_result(outcome: Outcome) -> tuple[float, float]:
    """How well the seats of a solo or co-op match did together: (won, score) for ordering two matches.

    `won` is 1.0 when seat 0 ranks first (in a solo or co-op match every seat shares the fate), and the
    score is the seats' total when the game gives scores (0.0 otherwise), a finer measure among wins or losses.
    """
    won = 1.0 if outcome.ranks[0] == 1 else 0.0
    score = float(sum(outcome.scores)) if outcome.scores else 0.0
    return won, score


def sequential_cooperative(
    game: Game[Any],
    config: MatchConfig,
    a: str,
    b: str | None,
    *,
    sprt: Sprt | None = None,
    max_matches: int = 400,
    seed: int = 0,
    by_score: bool = False,
    config_b: MatchConfig | None = None,
    losses: bool = False,
    bot_factory: Callable[[str], Bot] = make_bot,
) -> JsonDict:
    """Level `a` in a solo or co-op mode (every seat played by `a`) under a sequential test.

    With `b`, a paired comparison: each seed is played once with every seat `a` and once with every
    seat `b`; a seed counts 1 when `a`'s match ended better, 0 when `b`'s did, and a tie (the same
    result) is left out, so the test is a sign test of "a wins more often than b" (by win or loss,
    `by_score` also orders matches of the same result by their score). Without `b`, the test is of
    `a`'s win rate (H0 rate p0 against H1 rate p1). With `config_b`, `b`'s matches are played under that
    config instead (same seeds), so "level a at an easier setting wins more often than level b at a harder
    one" is a claim too (`b` may equal `a`). Counts like `sequential_pair`'s: `matches` is every match played,
    `trials` the ones the test looked at, `rate` the share of those `a` took. With `losses` (and no `b`) the
    test counts `a`'s defeats instead, so H1 says "a loses at least about p0 of its matches": a setting that
    no level wins, stated as a claim the bots meet.
    """
    test = sprt or Sprt()
    score, trials, matches, steps, decision = 0.0, 0, 0, 0, "inconclusive"
    per_seed = 1 if b is None else 2
    seeds = 0
    won = [0.0, 0.0]
    while matches + per_seed <= max_matches:
        match_seed = derive_seed(seed, a, b or "-", "coop", seeds)
        seeds += 1
        results = []
        for level, setting in ((a, config),) if b is None else ((a, config), (b, config_b or config)):
            result = play_match(game, setting, [bot_factory(level) for _ in range(setting.seats)], match_seed)
            results.append(team_result(result.outcome))
            steps += result.steps
            matches += 1
        won[0] += results[0][0]
        if b is None:
            score += 1.0 - results[0][0] if losses else results[0][0]
            trials += 1
        else:
            won[1] += results[1][0]
            mine, theirs = results
            if not by_score:
                mine, theirs = (mine[0], 0.0), (theirs[0], 0.0)
            if mine == theirs:
                continue
            score += 1.0 if mine > theirs else 0.0
            trials += 1
        verdict = test.decide(score, trials)
        if verdict is not None:
            decision = verdict
            break
    low, high = wilson_interval(score, trials) if trials else (0.0, 1.0)
    return {
        "game": game.id, "a": a, "b": b or "-", "matches": matches, "trials": trials, "score": score,
        "rate": score / trials if trials else 0.0, "low": low, "high": high, "llr": test.llr(score, trials),
        "decision": decision, "p0": test.p0, "p1": test.p1, "alpha": test.alpha, "beta": test.beta,
        "mean_steps": steps / matches if matches else 0.0,
        "win_rates": [w / seeds if seeds else 0.0 for w in won[: 1 if b is None else 2]],
    }
