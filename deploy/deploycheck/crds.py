"""Structural checks of the Prometheus Operator objects (ServiceMonitor, PrometheusRule) the chart renders.

No CRD schema ships offline, so a JSON schema of the fields the chart uses is checked here, plus what a schema
cannot see: a ServiceMonitor must select a rendered Service that has its port, and alert expressions must be
well-formed PromQL naming exported series.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import jsonschema

from deploycheck.chart import Manifest
from deploycheck.metrics import known_series
from deploycheck.promql import check_query

_DURATION = {"type": "string", "pattern": r"^([0-9]+(ms|s|m|h|d|w|y))+$"}
_LABELS = {"type": "object", "additionalProperties": {"type": "string"}}
_METADATA = {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "labels": _LABELS}}

SERVICE_MONITOR_SCHEMA = {
    "type": "object",
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "properties": {
        "apiVersion": {"const": "monitoring.coreos.com/v1"},
        "metadata": _METADATA,
        "spec": {
            "type": "object",
            "required": ["selector", "endpoints"],
            "additionalProperties": False,
            "properties": {
                "selector": {"type": "object", "required": ["matchLabels"], "properties": {"matchLabels": _LABELS}},
                "namespaceSelector": {"type": "object", "properties": {"matchNames": {"type": "array"}}},
                "endpoints": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "type": "object",
                        "required": ["port"],
                        "additionalProperties": False,
                        "properties": {
                            "port": {"type": "string"},
                            "path": {"type": "string", "pattern": "^/"},
                            "interval": _DURATION,
                            "scrapeTimeout": _DURATION,
                            "honorLabels": {"type": "boolean"},
                        },
                    },
                },
            },
        },
    },
}

PROMETHEUS_RULE_SCHEMA = {
    "type": "object",
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "properties": {
        "apiVersion": {"const": "monitoring.coreos.com/v1"},
        "metadata": _METADATA,
        "spec": {
            "type": "object",
            "required": ["groups"],
            "additionalProperties": False,
            "properties": {
                "groups": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "type": "object",
                        "required": ["name", "rules"],
                        "additionalProperties": False,
                        "properties": {
                            "name": {"type": "string", "minLength": 1},
                            "rules": {
                                "type": "array",
                                "minItems": 1,
                                "items": {
                                    "type": "object",
                                    "required": ["alert", "expr", "for", "labels", "annotations"],
                                    "additionalProperties": False,
                                    "properties": {
                                        "alert": {"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9]*$"},
                                        "expr": {"type": "string", "minLength": 1},
                                        "for": _DURATION,
                                        "labels": {
                                            "type": "object",
                                            "required": ["severity"],
                                            "properties": {"severity": {"enum": ["critical", "warning", "info"]}},
                                        },
                                        "annotations": {
                                            "type": "object",
                                            "required": ["summary", "description"],
                                            "additionalProperties": {"type": "string"},
                                        },
                                    },
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}


def _schema_problems(manifest: Manifest, schema: Mapping[str, object]) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema)
    return [
        f"{manifest}: {'.'.join(str(p) for p in error.absolute_path) or '(root)'}: {error.message}"
        for error in validator.iter_errors(manifest.doc)
    ]


def check_service_monitors(manifests: Sequence[Manifest]) -> list[str]:
    """Schema of each ServiceMonitor, and that it selects a rendered Service exposing the endpoint's port."""
    problems: list[str] = []
    services = [m for m in manifests if m.kind == "Service"]
    for monitor in (m for m in manifests if m.kind == "ServiceMonitor"):
        schema_problems = _schema_problems(monitor, SERVICE_MONITOR_SCHEMA)
        problems.extend(schema_problems)
        if schema_problems:
            continue
        wanted = monitor.doc["spec"]["selector"]["matchLabels"]
        selected = [s for s in services if wanted.items() <= s.labels.items()]
        if len(selected) != 1:
            problems.append(f"{monitor}: selects {len(selected)} Services, expected exactly 1")
            continue
        ports = {p.get("name") for p in selected[0].doc["spec"].get("ports", [])}
        for endpoint in monitor.doc["spec"]["endpoints"]:
            if endpoint["port"] not in ports:
                problems.append(f"{monitor}: {selected[0]} has no port named {endpoint['port']!r}")
    return problems


def check_prometheus_rules(manifests: Sequence[Manifest]) -> tuple[list[str], set[str], list[str]]:
    """Problems of every PrometheusRule, the series its alerts use, and the alert names."""
    problems: list[str] = []
    used: set[str] = set()
    alerts: list[str] = []
    known = known_series(allow_external=True)
    for rule in (m for m in manifests if m.kind == "PrometheusRule"):
        schema_problems = _schema_problems(rule, PROMETHEUS_RULE_SCHEMA)
        problems.extend(schema_problems)
        if schema_problems:
            continue
        group_names = [g["name"] for g in rule.doc["spec"]["groups"]]
        if len(set(group_names)) != len(group_names):
            problems.append(f"{rule}: duplicate group names")
        for group in rule.doc["spec"]["groups"]:
            for entry in group["rules"]:
                alerts.append(entry["alert"])
                expr_problems, series = check_query(entry["expr"], known)
                used |= series
                problems.extend(f"{rule} {entry['alert']}: {p}" for p in expr_problems)
    if len(set(alerts)) != len(alerts):
        problems.append("duplicate alert names")
    return problems, used, alerts
