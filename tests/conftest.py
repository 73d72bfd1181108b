"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.nats import NatsServer, running_nats


@pytest.fixture
def nats_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NatsServer]:
    """A fresh real nats-server with JetStream on its own temp store."""
    with running_nats(tmp_path_factory.mktemp("nats")) as server:
        yield server
