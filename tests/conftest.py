"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _pytest.nodeid import NodeId

from tests.support.nats import NatsServer, running_nats

INTEGRATION_FOLDERS = (Path(__file__).parent / "integration", Path(__file__).parent / "e2e")


SHARED_FIXTURES = {
    "platform": "platform",
    "store_dsn": "postgres",
    "value_sets": "charts",
    "rendered": "charts",
    "merged": "charts",
}
"""Session fixtures that are costly to set up, and the xdist group of the tests that use them."""


def xdist_group(item: pytest.Item) -> str | None:
    """Where `make test` (`-n 2 --dist loadgroup`) runs a test: the tests sharing a costly session fixture
    (the e2e platform, the throwaway PostgreSQL, the rendered charts) together on one worker, so each is
    set up once; every other server test with the rest of its module (module fixtures, one nats-server
    at a time); a plain unit test on whichever worker is free (None)."""
    names = getattr(item, "fixturenames", ())
    for fixture, group in SHARED_FIXTURES.items():
        if fixture in names:
            return group
    if any(folder in item.path.parents for folder in INTEGRATION_FOLDERS):
        return item.path.stem  # two modules of one name would share a group: harmless
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Everything under integration/ and e2e/ starts real servers: mark it `integration` before `-m` selects;
    and give each test its xdist group (ignored without `--dist loadgroup`)."""
    for item in items:
        if any(folder in item.path.parents for folder in INTEGRATION_FOLDERS):
            item.add_marker(pytest.mark.integration)
        group = xdist_group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """On an xdist worker under `--dist loadgroup`, end each grouped test's id with `@group`, as xdist itself
    does on older pytest (pytest 9 keeps node ids in `_id`, which pytest-xdist 3.8 does not set), so the
    controller sees the groups; before the worker sends its collection (tryfirst)."""
    if not getattr(session.config.option, "loadgroup", False):
        return
    for item in session.items:
        group = xdist_group(item)
        if group is not None and not item.nodeid.endswith(f"@{group}"):
            item._id = NodeId.parse(f"{item.nodeid}@{group}")


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """Print what an xdist worker announced (e.g. which PostgreSQL backend ran): workers have no terminal."""
    reporter = node.config.pluginmanager.get_plugin("terminalreporter")
    for line in getattr(node, "workeroutput", {}).get("announce", []):
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_line(line)


@pytest.fixture
def nats_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NatsServer]:
    """A fresh real nats-server with JetStream on its own temp store."""
    with running_nats(tmp_path_factory.mktemp("nats")) as server:
        yield server
