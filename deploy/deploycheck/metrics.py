"""Which series exist: the platform's (from gamehall.runtime.metrics) and the few external ones alerts may use."""

from __future__ import annotations

from functools import lru_cache

from gamehall.runtime.metrics import CATALOG, exported_series_names

# Series the platform does not export but a Kubernetes monitoring stack provides, with their labels.
EXTERNAL_SERIES: dict[str, frozenset[str]] = {
    # Prometheus itself, per scrape target.
    "up": frozenset(),
    # kube-state-metrics (kube-prometheus-stack), for the pod restart alert.
    "kube_pod_container_status_restarts_total": frozenset({"uid", "pod", "container"}),
}

# Labels Prometheus attaches to every scraped series (static configs and Prometheus Operator ServiceMonitors).
TARGET_LABELS = frozenset({"job", "instance", "namespace", "service", "pod", "container", "endpoint"})

_SERIES_SUFFIXES = ("", "_total", "_created", "_bucket", "_count", "_sum")


@lru_cache(maxsize=1)
def platform_series() -> dict[str, frozenset[str]]:
    """Every exported series name -> its label names (histogram buckets add `le`)."""
    exported = exported_series_names()
    series: dict[str, frozenset[str]] = {}
    for metric in CATALOG.values():
        labels = frozenset(metric._labelnames)
        for family in metric.describe():
            for suffix in _SERIES_SUFFIXES:
                name = family.name + suffix
                if name in exported:
                    series[name] = labels | ({"le"} if suffix == "_bucket" else frozenset())
    missing = exported - series.keys()
    if missing:
        raise RuntimeError(f"series without a catalog metric: {sorted(missing)}")
    return series


def known_series(*, allow_external: bool) -> dict[str, frozenset[str]]:
    """Series a query may name -> labels it may match on (target labels included)."""
    known = {name: labels | TARGET_LABELS for name, labels in platform_series().items()}
    if allow_external:
        known.update({name: labels | TARGET_LABELS for name, labels in EXTERNAL_SERIES.items()})
    return known
