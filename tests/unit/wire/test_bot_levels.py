"""Bot difficulty as an enum (issue 39): `SeatSpec.bot_level` and `RegisterPlayerRequest.bot_level` are read, the
deprecated string fields still work, and a bot seat shows both `Seat.bot_level` and `Seat.bot_difficulty`."""

from __future__ import annotations

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches.lifecycle import SeatRequest
from gamehall.matches.lobby import seat_requests
from gamehall.wire.matches import public_match
from gamehall.wire.public import bot_level_name, bot_level_value
from gamehall_sdk import bot_seat
from gamehall_sdk.v1 import common_pb2, match_pb2


def test_every_level_has_its_name_both_ways() -> None:
    for name in ("random", "easy", "normal", "hard", "expert"):
        assert bot_level_name(bot_level_value(name)) == name
    assert (bot_level_value(""), bot_level_name(0)) == (0, "")


def test_seat_specs_by_enum_and_by_the_deprecated_name() -> None:
    specs = [
        match_pb2.SeatSpec(bot_level=common_pb2.BOT_DIFFICULTY_HARD),
        match_pb2.SeatSpec(bot="easy"),
        match_pb2.SeatSpec(open=True),
        match_pb2.SeatSpec(bot_level=common_pb2.BOT_DIFFICULTY_UNSPECIFIED),
    ]
    assert seat_requests(specs) == [
        SeatRequest("bot", bot="hard"),
        SeatRequest("bot", bot="easy"),
        SeatRequest("open"),
        SeatRequest("bot", bot="unspecified"),  # refused by the seat plan: not a difficulty
    ]


def test_the_sdk_sends_the_enum() -> None:
    assert bot_seat("expert") == match_pb2.SeatSpec(bot_level=common_pb2.BOT_DIFFICULTY_EXPERT)
    assert bot_seat(common_pb2.BOT_DIFFICULTY_EASY) == match_pb2.SeatSpec(bot_level=common_pb2.BOT_DIFFICULTY_EASY)


def test_a_bot_seat_shows_its_level_as_enum_and_name() -> None:
    record = ppb.MatchRecord(
        id="m1",
        game="grimmoir",
        status="running",
        seats=[ppb.SeatRecord(seat=0, kind="bot", bot_difficulty="normal"), ppb.SeatRecord(seat=1, kind="human")],
    )
    seats = public_match(record).seats
    assert (seats[0].bot_level, seats[0].bot_difficulty) == (common_pb2.BOT_DIFFICULTY_NORMAL, "normal")
    assert seats[1].bot_level == common_pb2.BOT_DIFFICULTY_UNSPECIFIED
