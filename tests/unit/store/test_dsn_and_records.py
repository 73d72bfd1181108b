"""DSN parsing, page cursors, seed commitments and record helpers: no database needed."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gamehall.store import InvalidArgument, Match, Seat, open_store, seed_commitment
from gamehall.store.cursor import decode_cursor, encode_cursor
from gamehall.store.dsn import sqlite_options
from gamehall.store.errors import AlreadyExists, MatchClosed, NotFound, SeatTaken, StoreError, VersionConflict


def test_sqlite_dsns() -> None:
    assert sqlite_options("sqlite:///var/lib/gamehall/x.db") == (Path("/var/lib/gamehall/x.db"), {})
    assert sqlite_options("sqlite:relative/x.db") == (Path("relative/x.db"), {})
    path, options = sqlite_options("sqlite:///x.db?synchronous=normal&busy_timeout=250")
    assert path == Path("/x.db") and options == {"synchronous": "NORMAL", "busy_timeout_ms": 250}
    for bad in (
        "sqlite://",
        "sqlite:///:memory:",
        "sqlite:///x.db?synchronous=fast",
        "sqlite:///x.db?busy_timeout=soon",
        "sqlite:///x.db?colour=blue",
    ):
        with pytest.raises(InvalidArgument):
            sqlite_options(bad)


def test_a_relative_sqlite_path_has_a_spelling_with_three_slashes() -> None:
    assert sqlite_options("sqlite:///./var/x.db") == (Path("var/x.db"), {})
    assert sqlite_options("sqlite:///../x.db") == (Path("../x.db"), {})


async def test_typos_that_would_make_an_empty_store_elsewhere_are_refused(tmp_path: Path) -> None:
    """Issue 39: `--database-url sqlite:///var/gamehall.db` (meant relative) made an empty store outside the
    checkout. Paths at the root, and for readers (the command-line tools) missing folders and files, are refused
    before any file is made, with the relative spelling; a service's store creates the folders of its path."""
    with pytest.raises(InvalidArgument, match=r"filesystem root.*sqlite:///\./gamehall\.db"):
        await open_store("sqlite:///gamehall.db")
    assert not Path("/gamehall.db").exists()
    missing = tmp_path / "no-such-folder" / "gamehall.db"
    with pytest.raises(InvalidArgument, match="does not exist"):
        await open_store(f"sqlite://{missing}", must_exist=True)
    assert not missing.parent.exists()
    absent = tmp_path / "gamehall.db"
    with pytest.raises(InvalidArgument, match=r"which does not exist.*sqlite:///\./"):
        await open_store(f"sqlite://{absent}", must_exist=True)
    assert not absent.exists()
    store = await open_store(f"sqlite://{absent}")  # a writer (persistence) may create it in an existing folder
    await store.close()
    reopened = await open_store(f"sqlite://{absent}", must_exist=True)
    await reopened.close()


def test_reading_tools_refuse_a_store_that_is_not_there(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from gamehall.cli.main import app

    absent = tmp_path / "gamehall.db"
    for command in (["verify", "m1"], ["replay", "m1"], ["archive", "list"], ["audit"]):
        done = CliRunner().invoke(app, [*command, "--database-url", f"sqlite://{absent}"])
        assert done.exit_code == 2, (command, done.output)
        assert "does not exist" in done.output and "sqlite:///./" in done.output, (command, done.output)
    assert not absent.exists()


async def test_unknown_scheme() -> None:
    with pytest.raises(InvalidArgument, match="unsupported"):
        await open_store("mysql://localhost/db")


def test_cursor_round_trip_and_garbage() -> None:
    moment = datetime(2031, 5, 6, 7, 8, 9, 123456, tzinfo=UTC)
    assert decode_cursor(encode_cursor(moment, "match-1")) == (moment, "match-1")
    for bad in ("", "!!!", "bm90IGpzb24", encode_cursor(moment, "m")[:-3]):
        with pytest.raises(InvalidArgument):
            decode_cursor(bad)


def test_seed_commitment_is_sha256_of_id_and_seed() -> None:
    assert seed_commitment(42, "m-1") == hashlib.sha256(b"m-1:42").hexdigest()
    assert seed_commitment(42, "m-1") != seed_commitment(43, "m-1") != seed_commitment(42, "m-2")


def _match(status: str) -> Match:
    return Match(
        id="m",
        game="g",
        mode="duel",
        config={"mode": "duel", "seats": 2},
        public=True,
        status=status,  # type: ignore[arg-type]
        seed=7,
        seed_commitment=seed_commitment(7, "m"),
        version=0,
        outcome=None,
        created_by=None,
        created_at=datetime(2030, 1, 1, tzinfo=UTC),
        finished_at=None,
        clock=None,
        clock_state=None,
        tournament_id=None,
        labels={},
        seats=(
            Seat(match_id="m", seat=0, kind="reserved", account_id="a"),
            Seat(match_id="m", seat=1, kind="human", account_id="a"),
        ),
    )


def test_the_seed_is_revealed_only_when_closed() -> None:
    assert _match("open").revealed_seed is None
    assert _match("running").revealed_seed is None
    assert _match("finished").revealed_seed == 7
    assert _match("aborted").revealed_seed == 7


def test_seat_of_skips_reservations() -> None:
    assert _match("open").seat_of("a") == 1
    assert _match("open").seat_of("b") is None


def test_errors_name_their_grpc_status() -> None:
    assert NotFound.grpc_status == "NOT_FOUND"
    assert AlreadyExists.grpc_status == "ALREADY_EXISTS"
    assert VersionConflict.grpc_status == "ABORTED"
    assert SeatTaken.grpc_status == MatchClosed.grpc_status == "FAILED_PRECONDITION"
    assert InvalidArgument.grpc_status == "INVALID_ARGUMENT"
    conflict = VersionConflict("m", 3, 5)
    assert isinstance(conflict, StoreError) and (conflict.expected, conflict.current) == (3, 5)
    assert "version 5" in str(conflict)
