"""One platform (nats-server, persistence, gateway, a rules host per game) shared by the e2e tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest

from gamehall.engine import all_games
from gamehall.launcher.platform import Platform
from tests.e2e.client import Client
from tests.e2e.cold_start import FirstCall, first_calls
from tests.support.processes import repo_env
from tests.support.stack import Stack, running_stack

FIXTURE_GAME = "tests.fixtures.high_card:GAME"
if FIXTURE_GAME not in os.environ.get("GAMEHALL_GAME_MODULES", ""):  # the fixture game, plus any installed games
    os.environ["GAMEHALL_GAME_MODULES"] = ",".join(
        filter(None, [os.environ.get("GAMEHALL_GAME_MODULES"), FIXTURE_GAME])
    )

TOKEN_KEY = "e2e-test-signing-key-0123456789-abcdefghij"
OPERATOR_PASSWORD = "operator password 2026"


@dataclass
class Running:
    stack: Stack
    address: str
    data_dir: Path
    first_calls: list[FirstCall] = field(default_factory=list)
    """What a client's first calls got the moment the platform reported ready (`cold_start`)."""

    @property
    def platform(self) -> Platform:
        """The local launcher (crash tests kill and restart its processes); skips on the container backend."""
        if self.stack.platform is None:
            pytest.skip("needs the local-process backend (it restarts processes and reads the SQLite file)")
        return self.stack.platform

    def client(self) -> Client:
        return Client(grpc.insecure_channel(self.address))

    def player(self) -> Client:
        return self.client().register()


AUTH_UNLIMITED = {
    # every test registers and logs in from this one address: the auth limits are tested on their own
    "GAMEHALL_AUTH_REGISTER_PER_IP": "100000/minute",
    "GAMEHALL_AUTH_LOGIN_PER_IP": "100000/minute",
    "GAMEHALL_AUTH_LOGIN_PER_USERNAME": "100000/minute",
}


def game_ids() -> list[str]:
    return [g.id for g in all_games()]


@pytest.fixture(scope="session")
def platform(tmp_path_factory: pytest.TempPathFactory, record_testsuite_property: Any) -> Iterator[Running]:
    """The whole platform: containers where a Docker engine answers, local processes otherwise."""
    mp = pytest.MonkeyPatch()
    for key, value in repo_env().items():
        mp.setenv(key, value)
    data_dir = tmp_path_factory.mktemp("platform")
    extra_env = {
        "GAMEHALL_TOKEN_KEY": TOKEN_KEY,
        "GAMEHALL_OPERATOR_PASSWORD": OPERATOR_PASSWORD,
        "GAMEHALL_LOG_LEVEL": "warning",
        "GAMEHALL_AI_ACK_WAIT_SECONDS": "3",
        # A lone ticket gets bots after 4 s, not 10: the tests that pair two people enqueue them back to back.
        "GAMEHALL_MATCHMAKING_BOT_FILL_SECONDS": "4",
        **AUTH_UNLIMITED,
    }
    try:
        with running_stack(data_dir, game_ids(), "sqlite", extra_env) as stack:
            record_testsuite_property("e2e_backend", stack.describe())
            print(f"\n[e2e] platform {stack.describe()}")
            yield Running(stack, stack.gateway, data_dir, first_calls(stack.gateway))
    finally:
        mp.undo()
