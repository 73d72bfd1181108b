"""The match domain as a library (ARCHITECTURE rule 6): lifecycle, seats and who may act or see,
turn clocks, request-id idempotency, the per-audience view fan-out of each step, replay, and which
rules replica owns a match; and the owner's flow itself (`owner.MatchOwner`, with its lobby and clocks),
whose I/O are the ports of `ports` (the match log, the store, the publisher, the timers). No gRPC and no
NATS inside: the gateway and the rules service are thin shells over it, as the rules service is over the
engine.
"""

from gamehall.matches.access import Caller, may_watch, require_seat, require_watch, seat_of
from gamehall.matches.clocks import ClockSpec
from gamehall.matches.errors import (
    MatchError,
    MatchNotRunning,
    NoSuchSeat,
    NotSeated,
    PrivateMatch,
    VersionConflict,
)
from gamehall.matches.live import LiveMatch, MatchFacts, SeatFacts, Step, StepView
from gamehall.matches.routing import owner_of

__all__ = [
    "Caller",
    "ClockSpec",
    "LiveMatch",
    "MatchError",
    "MatchFacts",
    "MatchNotRunning",
    "NoSuchSeat",
    "NotSeated",
    "PrivateMatch",
    "SeatFacts",
    "Step",
    "StepView",
    "VersionConflict",
    "may_watch",
    "owner_of",
    "require_seat",
    "require_watch",
    "seat_of",
]
