"""Every Prometheus metric the platform exports, declared in one place.

Services import the metric objects from here, so the Helm chart's alerts and Grafana
dashboard can be checked against `CATALOG` (a dashboard that graphs a metric nobody
exports fails the chart tests). Each service serves them on its own port.
"""

from __future__ import annotations

import urllib.request

from prometheus_client import REGISTRY, Counter, Gauge, Histogram, start_http_server
from prometheus_client.metrics import MetricWrapperBase

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
THINK_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
WAIT_BUCKETS = (0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800)

RPC_REQUESTS = Counter(
    "gamehall_rpc_requests", "gRPC calls handled, by method and status code.", ["service", "method", "code"]
)
RPC_LATENCY = Histogram(
    "gamehall_rpc_latency_seconds", "gRPC handling time, by method.", ["service", "method"], buckets=LATENCY_BUCKETS
)
RPC_IN_FLIGHT = Gauge("gamehall_rpc_in_flight", "gRPC calls being handled now.", ["service"])
ACTIONS_APPLIED = Counter("gamehall_actions_applied", "Actions applied by the rules engines.", ["game"])
ACTIONS_REJECTED = Counter("gamehall_actions_rejected", "Actions rejected as illegal.", ["game"])
ACTIVE_MATCHES = Gauge("gamehall_active_matches", "Matches running now.", ["game"])
VIEWS_PUSHED = Counter(
    "gamehall_views_pushed",
    "Views a match's owner pushed to watched audiences after a step (audience: seat or spectators).",
    ["game", "audience"],
)
LIVE_MATCHES_HELD = Gauge(
    "gamehall_live_matches_held", "Live matches a rules replica holds in memory (its warm cache).", ["game"]
)
MATCHES_FINISHED = Counter("gamehall_matches_finished", "Matches that reached an outcome.", ["game", "reason"])
QUEUE_DEPTH = Gauge("gamehall_queue_depth", "Tickets waiting in a matchmaking queue.", ["game", "mode"])
QUEUE_WAIT = Histogram(
    "gamehall_queue_wait_seconds", "Time from ticket to match.", ["game", "mode"], buckets=WAIT_BUCKETS
)
MATCHES_MADE = Counter(
    "gamehall_matchmaking_matches_made", "Matches made from queued tickets, by why.", ["game", "mode", "reason"]
)
RATINGS_APPLIED = Counter("gamehall_ratings_applied", "Finished matches rated (once each).", ["game", "mode"])
TOURNAMENTS_ACTIVE = Gauge("gamehall_tournaments_active", "Tournaments running or paused.", [])
TOURNAMENT_ROUNDS = Counter("gamehall_tournament_rounds", "Tournament rounds paired after the first.", ["format"])
BOT_THINK = Histogram(
    "gamehall_bot_think_seconds", "Time a bot took to decide.", ["game", "difficulty"], buckets=THINK_BUCKETS
)
BOT_DECISIONS = Counter("gamehall_bot_decisions", "Decisions submitted by bots.", ["game", "difficulty"])
JETSTREAM_PUBLISHED = Counter("gamehall_jetstream_published", "Messages published to JetStream.", ["stream"])
JETSTREAM_PENDING = Gauge(
    "gamehall_jetstream_consumer_pending", "Messages a durable consumer has not yet received.", ["stream", "consumer"]
)
LOG_CONFLICTS = Counter(
    "gamehall_match_log_conflicts",
    "Appends to the match log refused by its compare-and-swap (a stale replica).",
    ["game"],
)
LOG_PROJECTED = Counter("gamehall_match_log_projected", "Match log entries projected into SQL by persistence.")
LOG_BATCH = Histogram(
    "gamehall_match_log_projection_batch_entries",
    "Match log entries per projection transaction (small batches cost persistence a transaction each).",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256),
)
PLAY_STREAM_CALLS = Histogram(
    "gamehall_play_stream_calls_per_message",
    "Play calls per message a rules replica reads from a play stream (many per message is what makes it cheap).",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256),
)
LOG_PROJECTION_LAG = Gauge(
    "gamehall_match_log_projection_lag_seconds",
    "How far the SQL projection runs behind the match log: the age of the oldest entry it holds unprojected while it "
    "waits, else of the newest entry it projected (0 once nothing is pending).",
)
LOG_PROJECTION_LAG_ENTRIES = Gauge(
    "gamehall_match_log_projection_lag_entries",
    "Match log entries not yet projected into SQL (held by the projector plus pending in its consumer).",
)
CONSUMER_WAITING = Gauge(
    "gamehall_consumer_waiting",
    "Messages a durable consumer holds while it waits for a dependency that is away (database, a service, NATS); "
    "it retries with backoff and drops nothing.",
    ["stream", "consumer"],
)
LOG_LINES_LOST = Counter(
    "gamehall_log_lines_lost", "Log lines that could not be written (a full disk, a closed stream); never raised."
)
BACKGROUND_RESTARTS = Counter(
    "gamehall_background_loop_restarts",
    "Background loops (projector, relay, retention) that raised and were started again.",
    ["loop"],
)
TURN_QUEUE_LAG = Gauge("gamehall_turn_queue_lag_seconds", "Age of the oldest turn waiting for a bot.", ["game"])
EVENTS_RETRIED = Counter(
    "gamehall_events_retried", "Event deliveries that failed and were nak'd for a later retry.", ["stream", "consumer"]
)
EVENTS_DEAD_LETTERED = Counter(
    "gamehall_events_dead_lettered",
    "Events a consumer gave up on (reason: permanent or exhausted), moved to the dead-letter stream.",
    ["stream", "consumer", "reason"],
)
OUTBOX_PENDING = Gauge("gamehall_outbox_pending", "Committed events not yet published.", [])

CATALOG: dict[str, MetricWrapperBase] = {
    m._name: m
    for m in (
        RPC_REQUESTS,
        RPC_LATENCY,
        RPC_IN_FLIGHT,
        ACTIONS_APPLIED,
        ACTIONS_REJECTED,
        ACTIVE_MATCHES,
        VIEWS_PUSHED,
        MATCHES_FINISHED,
        QUEUE_DEPTH,
        QUEUE_WAIT,
        MATCHES_MADE,
        RATINGS_APPLIED,
        TOURNAMENTS_ACTIVE,
        TOURNAMENT_ROUNDS,
        BOT_THINK,
        BOT_DECISIONS,
        JETSTREAM_PUBLISHED,
        JETSTREAM_PENDING,
        TURN_QUEUE_LAG,
        LOG_CONFLICTS,
        LOG_PROJECTED,
        LOG_BATCH,
        LOG_PROJECTION_LAG,
        LOG_PROJECTION_LAG_ENTRIES,
        CONSUMER_WAITING,
        LOG_LINES_LOST,
        BACKGROUND_RESTARTS,
        EVENTS_RETRIED,
        EVENTS_DEAD_LETTERED,
        OUTBOX_PENDING,
    )
}


def exported_series_names() -> set[str]:
    """Every time-series name the platform can export (with _total, _bucket, ... suffixes)."""
    names: set[str] = set()
    for metric in CATALOG.values():
        for family in metric.describe():
            for suffix in _SUFFIXES[family.type]:
                names.add(family.name + suffix)
    return names


_SUFFIXES = {
    "counter": ("_total", "_created"),
    "gauge": ("",),
    "histogram": ("_bucket", "_count", "_sum", "_created"),
    "summary": ("", "_count", "_sum", "_created"),
}


def scraped_total(address: str, name: str, label: str = "", timeout: float = 10.0) -> float:
    """One scrape of a service's /metrics at `address` (host:port): the sum of series `name` over every label
    set containing `label` (e.g. 'game="grimmoir"'), for tools and tests that watch a counter from outside."""
    text = urllib.request.urlopen(f"http://{address}/metrics", timeout=timeout).read().decode()
    return sum(
        float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(name + "{") and label in line
    )


def start_metrics_server(host: str, port: int) -> int:
    """Serve /metrics on (host, port); returns the bound port (port 0 picks a free one)."""
    server, _thread = start_http_server(port, addr=host, registry=REGISTRY)
    return int(server.server_address[1])
