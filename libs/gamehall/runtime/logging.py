"""structlog configuration: JSON lines in production, readable lines on a terminal.

Request-scoped ids (trace id, match id, tournament id) are bound with
`structlog.contextvars.bind_contextvars` and appear on every line logged inside the request.

Logging never raises into the service: a line that cannot be written (the disk under the log is full, the
stream is closed) is lost and counted in `gamehall_log_lines_lost_total`, and the task that logged goes on.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any, TextIO

import structlog

from gamehall.runtime import metrics


class SafeStream:
    """A text stream for log lines that never raises: each write goes out whole with one `os.write` to the
    stream's descriptor (nothing buffered to fail later), and a write that fails is counted and dropped."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        try:
            self._fd: int | None = stream.fileno()
            stream.flush()
        except (AttributeError, OSError, ValueError):  # a stream without a descriptor (captured in tests)
            self._fd = None

    def write(self, text: str) -> int:
        try:
            if self._fd is None:
                self._stream.write(text)
                self._stream.flush()
            else:
                data = text.encode("utf-8", "replace")
                while data:
                    data = data[os.write(self._fd, data) :]
        except (OSError, ValueError):
            if text.strip():
                metrics.LOG_LINES_LOST.inc()
        return len(text)

    def flush(self) -> None:
        return None

    def isatty(self) -> bool:
        try:
            return self._stream.isatty()
        except (OSError, ValueError):
            return False


def configure_logging(service: str, fmt: str = "auto", level: str = "info") -> None:
    """Configure structlog (and the stdlib root logger, for grpc/nats messages) once per process."""
    use_json = fmt == "json" or (fmt == "auto" and not sys.stderr.isatty())
    shared: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    renderer: Any = structlog.processors.JSONRenderer() if use_json else structlog.dev.ConsoleRenderer(colors=False)
    numeric = logging.getLevelNamesMapping()[level.upper()]
    structlog.configure(
        processors=[*shared, structlog.processors.StackInfoRenderer(), structlog.processors.format_exc_info, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=structlog.PrintLoggerFactory(file=SafeStream(sys.stderr)),  # type: ignore[arg-type]
        # a process configures once: each module's logger is bound on first use, not on every call (an
        # access-log `debug` below the level was rebuilding its logger per RPC); tests that capture logs
        # never call this, so their loggers stay lazy
        cache_logger_on_first_use=True,
    )
    structlog.contextvars.clear_contextvars()
    structlog.contextvars.bind_contextvars(service=service)
    logging.raiseExceptions = False  # a handler that cannot write must not print a traceback (to the same disk)
    logging.basicConfig(
        level=max(numeric, logging.WARNING),
        stream=SafeStream(sys.stderr),
        format="%(name)s %(levelname)s %(message)s",
        force=True,
    )


def get_logger(name: str | None = None) -> Any:
    return structlog.get_logger(name)
