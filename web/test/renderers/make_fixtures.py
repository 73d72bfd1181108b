"""Write real engine views as JSON fixtures for the renderer tests: for every seed game and mode, a spectator view
and a seat view at an early, a middle and a final position of a seeded random-legal-move match.

Run with the project's venv: `python web/test/renderers/make_fixtures.py` (from the repository root).
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

from gamehall.engine.registry import get_game

OUT = Path(__file__).resolve().parents[1] / "fixtures" / "views"

CASES: list[tuple[str, str, int, dict[str, object], dict[str, object], str]] = [
    ("grimslingers", "versus-1v1", 2, {}, {}, ""),
    ("grimslingers", "versus-ffa", 4, {"items": True}, {}, ""),
    ("grimslingers", "versus-teams", 4, {}, {}, ""),
    ("grimslingers", "versus-teams-3v3", 6, {"archetypes": True}, {}, ""),
    ("grimslingers", "advanced-duels", 2, {}, {}, ""),
    ("grimslingers", "creature-duel", 2, {}, {}, ""),
    ("grimslingers", "witch-king", 1, {}, {}, ""),
    ("grimslingers", "tall-tale", 2, {}, {}, ""),
    ("grimmoir", "duel", 2, {}, {}, ""),
    ("grimmoir", "duel", 2, {}, {"team_secrecy": "secret"}, "secret"),
    ("tiny-epic-quest", "standard", 3, {}, {}, ""),
    ("tiny-epic-quest", "gloomfall", 2, {}, {}, ""),
    ("tiny-epic-quest", "solo", 1, {}, {}, ""),
    ("grimm-world", "skirmish", 1, {}, {}, ""),
    ("grimm-world", "campaign", 1, {}, {}, ""),
]
"""(game, mode, seats, options, rule flags, variant): a variant names a case that differs from its mode's default."""
FEATURES = {
    "grimslingers": {"feature": lambda v: bool(v["plays"]), "draft": lambda v: v["phase"] == "draft"},
    "grimmoir": {"feature": lambda v: v["phase"] in ("display", "arrange") and any(v["hand_sizes"])},
    "tiny-epic-quest": {"feature": lambda v: v["phase"] == 1 and bool(v["roll"])},
    "grimm-world": {"feature": lambda v: v.get("fight") is not None and v["fight"]["round"] > 1},
}
"""Per game, positions worth a fixture of their own: cards in play, a draft, characters in hand, dice, a fight."""
MAX_STEPS = 4000
EARLY = 3
SEED = 7
MAX_SECONDS = 40.0


def play(
    game_id: str,
    mode: str,
    seats: int,
    options: dict[str, object],
    seed: int,
    limit: int = MAX_STEPS,
    flags: dict[str, object] | None = None,
) -> list[object]:
    """States along one seeded match (random legal moves, default action 1 time in 3), at most `limit`."""
    game = get_game(game_id)
    rng = random.Random(seed)
    state = game.new_match(game.configure(mode, seats, options, flags), seed)
    states = [state]
    started = time.monotonic()
    while game.outcome(state) is None and len(states) < limit and time.monotonic() - started < MAX_SECONDS:
        seat = min(game.to_act(state))
        legal = list(game.legal_actions(state, seat))
        default = game.default_action(state, seat)
        action = default if default is not None and rng.random() < 0.34 else rng.choice(legal)
        state, _ = game.apply(state, seat, action, trusted=True)
        states.append(state)
    return states


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    only = set(sys.argv[1:])
    for game_id, mode, seats, options, flags, variant in CASES:
        if only and game_id not in only and f"{game_id}:{mode}" not in only:
            continue
        game = get_game(game_id)
        states = play(game_id, mode, seats, options, SEED, flags=flags)
        done = game.outcome(states[-1]) is not None
        picks = {"early": states[min(EARLY, len(states) - 1)], "mid": states[len(states) // 2]}
        picks["final" if done else "late"] = states[-1]
        for name, wanted in FEATURES[game_id].items():
            found = next((st for st in states[1:] if wanted(game.view(st, None))), None)
            if found is not None:
                picks[name] = found
        case = f"{mode}+{variant}" if variant else mode
        for when, state in picks.items():
            for seat, who in ((None, "spectator"), (0, "seat0")):
                view = game.view(state, seat)
                doc = {"game": game_id, "mode": mode, "seats": seats, "options": options, "flags": flags,
                       "variant": variant, "when": when, "viewer": who, "view": view}
                path = OUT / f"{game_id}--{case}--{when}--{who}.json"
                path.write_text(json.dumps(doc, separators=(",", ":"), sort_keys=True))
        print(f"{game_id} {case}: {len(states)} states, finished={done}")

if __name__ == "__main__":
    main()
