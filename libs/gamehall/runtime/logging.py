"""structlog configuration: JSON lines in production, readable lines on a terminal.

Request-scoped ids (trace id, match id, tournament id) are bound with
`structlog.contextvars.bind_contextvars` and appear on every line logged inside the request.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

import structlog


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
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        # a process configures once: each module's logger is bound on first use, not on every call (an
        # access-log `debug` below the level was rebuilding its logger per RPC); tests that capture logs
        # never call this, so their loggers stay lazy
        cache_logger_on_first_use=True,
    )
    structlog.contextvars.clear_contextvars()
    structlog.contextvars.bind_contextvars(service=service)
    logging.basicConfig(
        level=max(numeric, logging.WARNING), stream=sys.stderr, format="%(name)s %(levelname)s %(message)s"
    )


def get_logger(name: str | None = None) -> Any:
    return structlog.get_logger(name)
