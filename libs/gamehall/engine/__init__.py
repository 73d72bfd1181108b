"""The engine protocol: the API every game implements and everything generic uses."""

from gamehall.engine.errors import (
    ConfigError,
    DecodeError,
    GameError,
    IllegalAction,
    MalformedAction,
    MatchOver,
    NotYourTurn,
    UnknownGame,
    UnknownSeat,
)
from gamehall.engine.protocol import (
    SPECTATOR,
    Action,
    Event,
    Game,
    JsonDict,
    MatchConfig,
    Mode,
    Option,
    Outcome,
    StructGame,
    action_id,
)
from gamehall.engine.registry import all_games, get_game, register, unregister
from gamehall.engine.rng import Rng, derive_seed

__all__ = [
    "SPECTATOR",
    "Action",
    "ConfigError",
    "DecodeError",
    "Event",
    "Game",
    "GameError",
    "IllegalAction",
    "JsonDict",
    "MalformedAction",
    "MatchConfig",
    "MatchOver",
    "Mode",
    "NotYourTurn",
    "Option",
    "Outcome",
    "Rng",
    "StructGame",
    "UnknownGame",
    "UnknownSeat",
    "action_id",
    "all_games",
    "derive_seed",
    "get_game",
    "register",
    "unregister",
]
