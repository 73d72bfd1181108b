"""The session fixture over `gamehall.testing.postgres` (the throwaway server is in the library for the benchmarks).

    # conftest.py: `from tests.support.postgres import postgres_server` registers the session fixture.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from gamehall.testing.postgres import (
    DSN_ENV,
    PostgresServer,
    PostgresUnavailable,
    docker_available,
    find_pg_bindir,
    fresh_schema,
    local_postgres,
    throwaway_postgres,
)

__all__ = [
    "DSN_ENV",
    "PostgresServer",
    "PostgresUnavailable",
    "docker_available",
    "find_pg_bindir",
    "fresh_schema",
    "local_postgres",
    "postgres_server",
    "throwaway_postgres",
]


# ----------------------------------------------------------------- pytest
def _announce(config: pytest.Config, line: str) -> None:
    """Print past pytest's output capture, so the run log says which backend served the tests."""
    workeroutput = getattr(config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker prints nothing: tests/conftest.py prints it when the worker ends
        workeroutput.setdefault("announce", []).append(line)
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")
    if reporter is None:
        return
    if capture is None:
        reporter.write_line(line)
        return
    with capture.global_and_fixture_disabled():
        reporter.ensure_newline()
        reporter.write_line(line)


@pytest.fixture(scope="session")
def postgres_server(request: pytest.FixtureRequest, record_testsuite_property: Any) -> Iterator[PostgresServer]:
    """One throwaway server for the session; reports which backend ran."""
    with contextlib.ExitStack() as stack:
        try:
            server = stack.enter_context(throwaway_postgres())
        except PostgresUnavailable as exc:
            pytest.fail(str(exc), pytrace=False)
        record_testsuite_property("postgres_backend", server.backend)
        _announce(request.config, f"[postgres] backend={server.backend} dsn={server.dsn}")
        yield server
