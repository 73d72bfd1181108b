"""The Python SDK of gamehall: an asyncio client of the public gateway for client authors and bot writers.

    import asyncio, random
    from gamehall_sdk import Gamehall, bot_seat, open_seat, play_seat, random_policy

    async def main() -> None:
        # TLS trusting `make run`'s certificate (tls=True: the system's store; neither: plaintext)
        async with Gamehall.connect("127.0.0.1:50051", ca_file="var/tls/gateway-public.crt") as hall:
            await hall.register("carol", "a long passphrase 42")  # or hall.login(...)
            match = await hall.matches.create("grimmoir", seat_specs=[open_seat(), bot_seat("easy")], join_seat=0)
            final = await play_seat(hall, match.id, 0, random_policy(random.Random(1)))
            print(list(final.outcome.ranks), final.outcome.reason)

    asyncio.run(main())

Every failed call raises a `GamehallError` subclass (`IllegalAction`, `NotYourTurn`, ...).
"""

from gamehall_sdk.bot import Policy, play_seat, play_seat_stream, random_policy, take_turn
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
    TooLarge,
    Unauthenticated,
    Unavailable,
    UnknownGame,
    VersionConflict,
    from_rpc_error,
)
from gamehall_sdk.matches import Matches, bot_seat, open_seat, reserved_seat
from gamehall_sdk.matchmaking import Matchmaking
from gamehall_sdk.models import GameEvent, LegalAction, LegalActions, MatchUpdate, SeatTurn, Submitted, View
from gamehall_sdk.retry import RetryPolicy
from gamehall_sdk.seat_stream import SeatStream
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
    "SeatStream",
    "SeatTurn",
    "Submitted",
    "TooLarge",
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
    "play_seat_stream",
    "random_policy",
    "reserved_seat",
    "take_turn",
]
