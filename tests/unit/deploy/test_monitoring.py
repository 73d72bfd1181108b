"""Alerts and the Grafana dashboard name only exported series, with real labels, in well-formed PromQL."""

from __future__ import annotations

import copy

import pytest
from deploycheck import crds, dashboard, run
from deploycheck.metrics import EXTERNAL_SERIES
from deploycheck.paths import DASHBOARD_PATH

from gamehall.runtime.metrics import exported_series_names
from tests.unit.deploy.support import edited, replaced

ALERTS = {
    "GamehallHighErrorRatio",
    "GamehallHighLatencyP99",
    "GamehallJetStreamConsumerLag",
    "GamehallEventsDeadLettered",
    "GamehallTurnQueueLag",
    "GamehallPodRestarting",
}


@pytest.fixture(scope="module")
def board() -> dict:
    return dashboard.load_dashboard(DASHBOARD_PATH)


def test_alert_rules_are_well_formed(rendered: dict) -> None:
    problems, used, alerts = crds.check_prometheus_rules(rendered["all-features"])
    assert problems == []
    assert set(alerts) >= ALERTS
    assert used - exported_series_names() <= EXTERNAL_SERIES.keys()
    assert {"gamehall_jetstream_consumer_pending", "gamehall_turn_queue_lag_seconds"} <= used
    assert "gamehall_events_dead_lettered_total" in used


def test_service_monitors_select_their_services(rendered: dict) -> None:
    assert crds.check_service_monitors(rendered["all-features"]) == []


def test_a_service_monitor_on_a_missing_port_is_caught(rendered: dict) -> None:
    monitor = next(m for m in rendered["all-features"] if m.kind == "ServiceMonitor")
    doc = edited(monitor)
    doc["spec"]["endpoints"][0]["port"] = "http-metrics"
    problems = crds.check_service_monitors(replaced(rendered["all-features"], monitor, doc))
    assert len(problems) == 1 and "http-metrics" in problems[0]


def test_an_alert_on_an_unexported_metric_is_caught(rendered: dict) -> None:
    rule = next(m for m in rendered["all-features"] if m.kind == "PrometheusRule")
    doc = edited(rule)
    doc["spec"]["groups"][0]["rules"][0]["expr"] = "rate(gamehall_rpc_errors_total[5m]) > 1"
    problems, _, _ = crds.check_prometheus_rules(replaced(rendered["all-features"], rule, doc))
    assert problems == [f"{rule} GamehallHighErrorRatio: series 'gamehall_rpc_errors_total' is not exported"]


def test_an_alert_without_severity_is_caught(rendered: dict) -> None:
    rule = next(m for m in rendered["all-features"] if m.kind == "PrometheusRule")
    doc = edited(rule)
    del doc["spec"]["groups"][0]["rules"][0]["labels"]["severity"]
    problems, _, _ = crds.check_prometheus_rules(replaced(rendered["all-features"], rule, doc))
    assert problems and "severity" in problems[0]


def test_dashboard_passes_and_uses_only_exported_series(board: dict) -> None:
    problems, used = dashboard.check_dashboard(board)
    assert problems == []
    assert used and used <= exported_series_names()


def test_metrics_used_are_a_subset_of_exported(board: dict, rendered: dict) -> None:
    _, alert_series, _ = crds.check_prometheus_rules(rendered["all-features"])
    _, board_series = dashboard.check_dashboard(board)
    assert run.metrics_subset_check(alert_series, board_series).ok
    assert not run.metrics_subset_check(alert_series, board_series | {"gamehall_bogus_total"}).ok


def _with_expr(board: dict, expr: str) -> dict:
    changed = copy.deepcopy(board)
    panel = next(p for p in dashboard.iter_panels(changed["panels"]) if p.get("targets"))
    panel["targets"][0]["expr"] = expr
    return changed


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("sum(rate(gamehall_rpc_failures_total[5m]))", "series 'gamehall_rpc_failures_total' is not exported"),
        ('sum(gamehall_active_matches{mode="ffa"})', "gamehall_active_matches has no label mode"),
        ("sum by (tournament) (gamehall_active_matches)", "grouping by labels no series here has: tournament"),
        ("sum(rate(gamehall_actions_applied_total[5m])", "does not parse: unclosed left parenthesis"),
        ('gamehall_active_matches{game=~"$table"}', "undefined variables table"),
    ],
)
def test_dashboard_mistakes_are_caught(board: dict, expr: str, expected: str) -> None:
    problems, _ = dashboard.check_dashboard(_with_expr(board, expr))
    assert len(problems) == 1 and expected in problems[0]


def test_dashboard_variable_on_a_missing_label_is_caught(board: dict) -> None:
    changed = copy.deepcopy(board)
    variable = next(v for v in changed["templating"]["list"] if v["name"] == "game")
    variable["query"]["query"] = "label_values(gamehall_actions_applied_total, gamez)"
    problems, _ = dashboard.check_dashboard(changed)
    assert problems == ["variable 'game': no queried series has label 'gamez'"]
