"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.nats import NatsServer, running_nats

INTEGRATION_FOLDERS = (Path(__file__).parent / "integration", Path(__file__).parent / "e2e")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Everything under integration/ and e2e/ starts real servers: mark it `integration` before `-m` selects."""
    for item in items:
        if any(folder in item.path.parents for folder in INTEGRATION_FOLDERS):
            item.add_marker(pytest.mark.integration)


@pytest.fixture
def nats_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NatsServer]:
    """A fresh real nats-server with JetStream on its own temp store."""
    with running_nats(tmp_path_factory.mktemp("nats")) as server:
        yield server
