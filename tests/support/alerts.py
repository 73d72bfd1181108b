"""The Helm chart's alert rules, evaluated against a running platform's scraped metrics (no Prometheus needed).

    firing(scrape_text)  ->  the names of the chart's alerts whose expression holds on that scrape

The chart is rendered with monitoring on (the real helm engine, `deploy/deploycheck`), and each rule's expression
is evaluated at one instant by `deploycheck.evaluate` over the samples, labelled as the ServiceMonitor's scrape
would be (`namespace`). A rule's `for:` duration is not applied: the tests ask whether the condition holds.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

DEPLOY_DIR = Path(__file__).resolve().parents[2] / "deploy"
if str(DEPLOY_DIR) not in sys.path:
    sys.path.insert(0, str(DEPLOY_DIR))

from deploycheck import chart, evaluate  # noqa: E402 - needs the path above


@functools.cache
def chart_alerts() -> dict[str, str]:
    """Alert name -> PromQL expression, as the chart renders them in its release namespace."""
    manifests = chart.render({"monitoring": {"enabled": True}})
    rules = {}
    for manifest in manifests:
        if manifest.kind != "PrometheusRule":
            continue
        for group in manifest.doc["spec"]["groups"]:
            for rule in group["rules"]:
                if "alert" in rule:
                    rules[rule["alert"]] = rule["expr"]
    return rules


def firing(*scrapes: str, only: set[str] | None = None) -> set[str]:
    """The alerts whose expression yields a series over these scrapes (range functions are skipped)."""
    samples = []
    for text in scrapes:
        samples += evaluate.samples(text, {"namespace": chart.NAMESPACE, "job": "gamehall"})
    fired = set()
    for name, expr in chart_alerts().items():
        if only is not None and name not in only:
            continue
        try:
            result = evaluate.evaluate(expr, samples)
        except evaluate.Unsupported:
            continue
        if result:
            fired.add(name)
    return fired
