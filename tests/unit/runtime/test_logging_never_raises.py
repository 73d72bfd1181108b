"""Logging never raises into the service (issue 36): on a full disk the line is lost and counted, the caller goes
on. Before, a log line written onto a full disk raised inside the projection task and killed it for good."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest
import structlog

from gamehall.runtime import metrics
from gamehall.runtime.logging import SafeStream, configure_logging


def _lost() -> float:
    return float(metrics.LOG_LINES_LOST._value.get())


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (every write fails with ENOSPC)")
def test_a_line_onto_a_full_disk_is_counted_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    with open("/dev/full", "w") as full:
        monkeypatch.setattr("sys.stderr", full)
        before = _lost()
        configure_logging("test", "json", "info")
        try:
            structlog.get_logger("test").warning("this line cannot be written", n=1)
            logging.getLogger("grpc").warning("nor this one")
        finally:
            structlog.reset_defaults()
            logging.basicConfig(force=True, handlers=[logging.NullHandler()])
            logging.raiseExceptions = True
        assert _lost() == before + 2


def test_a_closed_stream_loses_the_line_and_a_working_one_keeps_it() -> None:
    closed = io.StringIO()
    closed.close()
    before = _lost()
    assert SafeStream(closed).write("a line\n") == len("a line\n")
    assert _lost() == before + 1
    working = io.StringIO()
    SafeStream(working).write("kept\n")
    assert working.getvalue() == "kept\n"
