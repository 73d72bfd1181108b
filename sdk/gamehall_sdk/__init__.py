"""The Python SDK of gamehall: an asyncio client of the public gateway for client authors and bot writers.

    import asyncio, random
    from gamehall_sdk import Gamehall, play_seat, random_policy

    async def main() -> None:
        async with Gamehall.connect("localhost:50051") as hall:
            await hall.login("alice", "secret")
            match = await hall.matches.create("high-card", join_seat=0)
            final = await play_seat(hall, match.id, 0, random_policy(random.Random(1)))
            print(final.outcome.ranks)

    asyncio.run(main())

Every failed call raises a `GamehallError` subclass (`IllegalAction`, `NotYourTurn`, ...).
"""

from gamehall_sdk.bot import Policy, play_seat, random_policy, take_turn
from gamehall_sdk.client import CHANNEL_OPTIONS, Gamehall
from gamehall_sdk.errors import (
    AlreadyExists,
    DeadlineExceeded,
    FailedPrecondition,
    GamehallError,
    IllegalAction,
    InternalError,
    InvalidRequest,
    MatchOver,
    NotFound,
    NotYourTurn,
    PermissionDenied,
    RateLimited,
    Unauthenticated,
    Unavailable,
    UnknownGame,
    VersionConflict,
    from_rpc_error,
)
from gamehall_sdk.matches import Matches, bot_seat, open_seat, reserved_seat
from gamehall_sdk.matchmaking import Matchmaking
from gamehall_sdk.models import GameEvent, LegalAction, LegalActions, MatchUpdate, Submitted, View
from gamehall_sdk.retry import RetryPolicy
from gamehall_sdk.tournaments import Tournaments
from gamehall_sdk.transport import DEFAULT_TIMEOUT

__all__ = [
    "CHANNEL_OPTIONS",
    "DEFAULT_TIMEOUT",
    "AlreadyExists",
    "DeadlineExceeded",
    "FailedPrecondition",
    "GameEvent",
    "Gamehall",
    "GamehallError",
    "IllegalAction",
    "InternalError",
    "InvalidRequest",
    "LegalAction",
    "LegalActions",
    "MatchOver",
    "MatchUpdate",
    "Matches",
    "Matchmaking",
    "NotFound",
    "NotYourTurn",
    "PermissionDenied",
    "Policy",
    "RateLimited",
    "RetryPolicy",
    "Submitted",
    "Tournaments",
    "Unauthenticated",
    "Unavailable",
    "UnknownGame",
    "VersionConflict",
    "View",
    "bot_seat",
    "from_rpc_error",
    "open_seat",
    "play_seat",
    "random_policy",
    "reserved_seat",
    "take_turn",
]
