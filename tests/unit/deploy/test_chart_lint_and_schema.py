"""helm lint --strict and strict Kubernetes schema validation of every value set, and that both catch mistakes."""

from __future__ import annotations

import pytest
from deploycheck import chart, kube
from deploycheck.paths import KUBE_VERSIONS

from tests.unit.deploy.support import VALUE_SETS, edited, find, replaced


@pytest.mark.parametrize("label", VALUE_SETS)
def test_lint_strict_passes(value_sets: dict, label: str) -> None:
    problems, _notes = chart.lint(value_sets[label], KUBE_VERSIONS[0])
    assert problems == []


def test_lint_reports_values_the_schema_refuses() -> None:
    problems, _notes = chart.lint({"ports": {"grpc": "fifty"}}, KUBE_VERSIONS[0])
    assert any("grpc" in p for p in problems)


@pytest.mark.parametrize("version", KUBE_VERSIONS)
@pytest.mark.parametrize("label", VALUE_SETS)
def test_every_manifest_matches_the_kubernetes_schema(rendered: dict, label: str, version: str) -> None:
    problems, validated = kube.validate_manifests(rendered[label], version)
    assert problems == []
    assert validated == sum(1 for m in rendered[label] if m.kind not in kube.CRD_KINDS)


def test_strict_validation_rejects_unknown_fields(rendered: dict) -> None:
    deployment = find(rendered["default"], "Deployment", "gateway")
    doc = edited(deployment)
    doc["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["grpcc"] = {"port": 1}
    problems, _ = kube.validate_manifests(replaced(rendered["default"], deployment, doc), KUBE_VERSIONS[0])
    assert len(problems) == 1 and "grpcc" in problems[0]


def test_validation_rejects_wrong_types(rendered: dict) -> None:
    service = find(rendered["default"], "Service", "persistence")
    doc = edited(service)
    doc["spec"]["ports"][0]["port"] = "grpc-port"
    problems, _ = kube.validate_manifests([chart.Manifest(service.template, doc)], KUBE_VERSIONS[-1])
    assert problems and "port" in problems[0]
