"""Where games are found by id.

Built-in games and third-party packages announce themselves through the
``gamehall.games`` entry-point group (``id = "package.module:GAME"``). A game under
development can be loaded without packaging by listing ``module:ATTR`` references in the
``GAMEHALL_GAME_MODULES`` environment variable (comma separated); tests may also
`register` a game object directly.
"""

from __future__ import annotations

import importlib
import os
from importlib.metadata import entry_points
from typing import Any

from gamehall.engine.errors import MissingViewType, UnknownGame
from gamehall.engine.protocol import Game

ENTRY_POINT_GROUP = "gamehall.games"


def check_view_type(game: Game[Any]) -> None:
    """Raise MissingViewType unless `game` declares the type of its views (issue 17: every game does)."""
    if game.view_type is None:
        raise MissingViewType(f"{game.id} declares no view_type (a msgspec Struct type of what view() returns)")


_games: dict[str, Game[Any]] = {}
_loaded_entry_points = False


def register(game: Game[Any], *, replace: bool = False) -> Game[Any]:
    """Make `game` available under `game.id`; a game without a `view_type` is refused."""
    check_view_type(game)
    if not replace and game.id in _games and _games[game.id] is not game:
        raise ValueError(f"a different game is already registered as {game.id!r}")
    _games[game.id] = game
    return game


def unregister(game_id: str) -> None:
    _games.pop(game_id, None)


def _load_entry_points() -> None:
    global _loaded_entry_points
    if _loaded_entry_points:
        return
    _loaded_entry_points = True
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in _games:
            continue
        game = ep.load()
        if not isinstance(game, Game) or game.id != ep.name:
            raise TypeError(f"entry point {ep.name} = {ep.value} is not a Game with id {ep.name!r}")
        check_view_type(game)
        _games[ep.name] = game
    for ref in filter(None, (r.strip() for r in os.environ.get("GAMEHALL_GAME_MODULES", "").split(","))):
        register(load_reference(ref))


def load_reference(ref: str) -> Game[Any]:
    """Import ``package.module:ATTR`` and return the Game it names."""
    module_name, _, attr = ref.partition(":")
    game = getattr(importlib.import_module(module_name), attr or "GAME")
    if not isinstance(game, Game):
        raise TypeError(f"{ref} is not a Game")
    return game


def get_game(game_id: str) -> Game[Any]:
    _load_entry_points()
    try:
        return _games[game_id]
    except KeyError:
        raise UnknownGame(f"no game {game_id!r}; games: {sorted(_games)}") from None


def all_games() -> list[Game[Any]]:
    _load_entry_points()
    return [_games[k] for k in sorted(_games)]
