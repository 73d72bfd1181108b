"""Run every deployment check and print the table (the body of deploy/check_chart.py)."""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import helm_python

from deploycheck import chart, compose, crds, dashboard, kube, netpol, platform
from deploycheck.metrics import EXTERNAL_SERIES
from deploycheck.paths import COMPOSE_PATH, DASHBOARD_PATH, KUBE_VERSIONS
from deploycheck.report import Check, format_table
from gamehall.runtime.metrics import exported_series_names


def check_value_set(label: str, values: dict[str, Any]) -> tuple[list[Check], list[chart.Manifest]]:
    """Render, lint, schema-validate and inspect the chart with one set of values."""
    checks: list[Check] = []
    try:
        manifests = chart.render(values)
    except helm_python.HelmError as error:
        return [Check("render", label, [str(error).strip()])], []
    kinds = Counter(m.kind for m in manifests)
    checks.append(Check("render", label, [], f"{len(manifests)} objects: " + ", ".join(
        f"{n} {k}" for k, n in sorted(kinds.items()))))
    for version in KUBE_VERSIONS:
        problems, notes = chart.lint(values, version)
        checks.append(Check(f"helm lint --strict (k8s {version})", label, problems, "; ".join(notes)))
    for version in KUBE_VERSIONS:
        problems, validated = kube.validate_manifests(manifests, version)
        checks.append(Check(f"k8s schema --strict {version}", label, problems, f"{validated} objects (CRDs apart)"))
    merged = chart.merged_values(values)
    crd_count = kinds["ServiceMonitor"] + kinds["PrometheusRule"]
    checks.append(Check("CRD structure", label, crds.check_service_monitors(manifests), f"{crd_count} objects"))
    components = platform.expected_components(merged)
    checks.append(Check("services and games", label, platform.check_components(manifests, merged),
                        ", ".join(sorted(components))))
    checks.append(Check("secrets, hooks, bundled", label, platform.check_secrets_and_hooks(manifests, merged)))
    allowed, _ = netpol.exposures(manifests, merged)
    public = sorted({f"{e.component}:{e.port}" for e in allowed if e.peer in netpol.EXTERNAL})
    checks.append(Check("network policies", label, netpol.check_network_policies(manifests, merged),
                        "open outside: " + (", ".join(public) or "nothing")))
    return checks, manifests


def run_all() -> list[Check]:
    """Every check: each chart value set, the alerts, the dashboard, metric names and compose."""
    checks: list[Check] = []
    alert_problems: list[str] = []
    alert_series: set[str] = set()
    alert_names: set[str] = set()
    for label, values in chart.value_sets().items():
        set_checks, manifests = check_value_set(label, values)
        checks.extend(set_checks)
        problems, series, names = crds.check_prometheus_rules(manifests)
        alert_problems.extend(f"[{label}] {p}" for p in problems)
        alert_series |= series
        alert_names |= set(names)
    if not alert_names:
        alert_problems.append("no value set renders a PrometheusRule (ci/all-features.yaml should)")
    checks.append(Check("alert rules (PromQL)", "PrometheusRule", alert_problems,
                        f"{len(alert_names)} alerts: {', '.join(sorted(alert_names))}"))
    board_problems, board_series = dashboard.check_dashboard(dashboard.load_dashboard(DASHBOARD_PATH))
    panels = sum(1 for p in dashboard.iter_panels(dashboard.load_dashboard(DASHBOARD_PATH)["panels"])
                 if p.get("type") != "row")
    checks.append(Check("grafana dashboard", DASHBOARD_PATH.name, board_problems,
                        f"{panels} panels, {len(board_series)} series"))
    checks.append(metrics_subset_check(alert_series, board_series))
    games = [c.removeprefix("rules-") for c in platform.expected_components(chart.merged_values({}))
             if c.startswith("rules-")]
    checks.append(Check("compose structure", COMPOSE_PATH.name, compose.check_compose(COMPOSE_PATH, games),
                        f"games: {', '.join(sorted(games))}"))
    return checks


def metrics_subset_check(alert_series: set[str], board_series: set[str]) -> Check:
    """Every gamehall series used by alerts and the dashboard is exported; only alerts may use external ones."""
    exported = exported_series_names()
    problems = [f"alerts use {s!r}: not exported" for s in sorted(alert_series - exported - EXTERNAL_SERIES.keys())]
    problems += [f"dashboard uses {s!r}: not exported" for s in sorted(board_series - exported)]
    external = sorted(alert_series & EXTERNAL_SERIES.keys())
    used = (alert_series | board_series) & exported
    return Check("metrics used ⊆ exported", "alerts + dashboard", problems,
                 f"{len(used)} of {len(exported)} exported series used; external: {', '.join(external) or 'none'}")


def main() -> int:
    checks = run_all()
    print(format_table(checks))
    failed = [c for c in checks if not c.ok]
    print(f"\n{len(checks) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
