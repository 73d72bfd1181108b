"""pytest fixtures that start a gamehall for integration tests of third-party bots, clients and tools.

Installed with the SDK's `testing` extra (`pip install 'gamehall-sdk[testing]'`) and loaded by pytest through
its `pytest11` entry point; nothing to import. The stack (`gamehall_sdk.testing.running_stack`) is the
platform's container images where a Docker engine answers, else the same services as local processes (that
needs the gamehall server package; the error says what to install). One stack per test session:

- `gamehall_stack`: the running `Stack` (`.address` of the plaintext gateway, `.connect(token)` an SDK
  session, `.backend` "docker" or "local");
- `gamehall_player`: a new player account (`Account`: username, password, token, account_id) per test;
- `gamehall_operator`: the operator account, signed in;
- `gamehall_bot_match`: a match of the stack's first game with the player in seat 0 and an easy bot in the
  others (`BotMatch`: `.match_id`, `.seat`, `.player`, `.connect()`).

Options: `--gamehall-game GAME` (repeatable; default grimmoir), `--gamehall-backend local|docker`. The
fixtures are synchronous (use `asyncio.run` in a test, or any async plugin), so they work without one.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from gamehall_sdk.client import Gamehall
    from gamehall_sdk.testing import Account, Stack


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gamehall", "a gamehall stack for integration tests (gamehall-sdk[testing])")
    group.addoption(
        "--gamehall-game",
        action="append",
        default=None,
        help="A game the stack hosts (repeatable; default: grimmoir).",
    )
    group.addoption(
        "--gamehall-backend",
        choices=("local", "docker"),
        default=None,
        help="Force the stack's backend (default: docker where an engine answers, else local processes).",
    )


@pytest.fixture(scope="session")
def gamehall_stack(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """A gamehall for the whole session (started on first use, stopped at the end)."""
    from gamehall_sdk.testing import DEFAULT_GAMES, StackUnavailable, running_stack

    games = tuple(request.config.getoption("--gamehall-game") or DEFAULT_GAMES)
    backend = request.config.getoption("--gamehall-backend")
    saved = os.environ.get("GAMEHALL_TEST_BACKEND")
    if backend:
        os.environ["GAMEHALL_TEST_BACKEND"] = backend
    try:
        with running_stack(games, data_dir=Path(tmp_path_factory.mktemp("gamehall"))) as stack:
            yield stack
    except StackUnavailable as exc:
        pytest.fail(str(exc), pytrace=False)
    finally:
        if backend:
            if saved is None:
                os.environ.pop("GAMEHALL_TEST_BACKEND", None)
            else:
                os.environ["GAMEHALL_TEST_BACKEND"] = saved


@pytest.fixture
def gamehall_player(gamehall_stack: Stack) -> Account:
    """A new player account on the stack, for this test."""
    return gamehall_stack.sign_up()


@pytest.fixture
def gamehall_operator(gamehall_stack: Stack) -> Account:
    """The stack's operator account, signed in."""
    return gamehall_stack.operator()


@dataclass(frozen=True)
class BotMatch:
    """A running match: `player` holds `seat`, bots the other seats."""

    stack: Stack
    player: Account
    match_id: str
    seat: int
    game: str

    def connect(self) -> Gamehall:
        """An SDK session signed in as the player (`async with bot_match.connect() as hall:`)."""
        return self.stack.connect(self.player.token)


@pytest.fixture
def gamehall_bot_match(gamehall_stack: Stack, gamehall_player: Account) -> BotMatch:
    """A match of the stack's first game: the player in seat 0, an easy bot in every other seat."""
    from gamehall_sdk.matches import bot_seat, open_seat

    game = gamehall_stack.games[0]

    async def create() -> str:
        async with gamehall_stack.connect(gamehall_player.token) as hall:
            described = next(g for g in await hall.games() if g.id == game)
            mode = described.modes[0]
            seats = int(mode.seats[0]) if mode.seats else 2
            specs = [open_seat()] + [bot_seat("easy")] * (seats - 1)
            match = await hall.matches.create(game, mode=mode.id, seats=seats, seat_specs=specs, join_seat=0)
            return str(match.id)

    return BotMatch(gamehall_stack, gamehall_player, asyncio.run(create()), 0, game)
