"""The chart renders with its defaults and with every ci/ values file, and follows the values."""

from __future__ import annotations

import json

import helm_python
import pytest
from deploycheck import chart, platform

from tests.unit.deploy.support import VALUE_SETS, find


def test_every_ci_values_file_is_checked() -> None:
    assert {"default", "all-features"} <= set(VALUE_SETS)


@pytest.mark.parametrize("label", VALUE_SETS)
def test_renders(rendered: dict, label: str) -> None:
    kinds = {m.kind for m in rendered[label]}
    assert {"Deployment", "Service", "NetworkPolicy", "PodDisruptionBudget", "Secret", "Job"} <= kinds


def test_defaults_render_no_custom_resources(rendered: dict) -> None:
    kinds = {m.kind for m in rendered["default"]}
    assert not kinds & {"ServiceMonitor", "PrometheusRule", "StatefulSet"}


def test_all_features_turns_every_option_on(rendered: dict) -> None:
    manifests = rendered["all-features"]
    kinds = {m.kind for m in manifests}
    assert {"ServiceMonitor", "PrometheusRule", "StatefulSet", "HorizontalPodAutoscaler", "ConfigMap"} <= kinds
    assert find(manifests, "Service", "gateway-external").doc["spec"]["type"] == "LoadBalancer"
    assert (
        find(manifests, "Deployment", "rules-grimm-world")
        .doc["spec"]["template"]["spec"]["containers"][0]["image"]
        .endswith(":0.2.0-rc1")
    )
    configmaps = [m for m in manifests if m.kind == "ConfigMap"]
    assert configmaps[0].labels["grafana_dashboard"] == "1"
    assert json.loads(configmaps[0].doc["data"]["gamehall.json"])["uid"] == "gamehall-overview"


def test_a_game_is_added_by_values_alone(merged: dict) -> None:
    values = {"rules": {"games": {"grimm-world": {"enabled": True}, "new-game": {}}}}
    manifests = chart.render(values)
    merged_values = chart.merged_values(values)
    assert "rules-new-game" in platform.expected_components(merged_values)
    assert platform.check_components(manifests, merged_values) == []
    gateway = find(manifests, "Deployment", "gateway").doc["spec"]["template"]["spec"]["containers"][0]
    addrs = json.loads(next(e["value"] for e in gateway["env"] if e["name"] == "GAMEHALL_RULES_ADDRS"))
    assert addrs["new-game"] == "dns:///gamehall-rules-new-game-replicas:50051"
    headless = find(manifests, "Service", "rules-new-game-replicas").doc
    assert headless["spec"]["clusterIP"] == "None" and headless["spec"]["ports"][0]["port"] == 50051
    assert set(addrs) == {"grimslingers", "grimmoir", "tiny-epic-quest", "grimm-world", "new-game"}


@pytest.mark.parametrize(
    "values",
    [
        {"rules": {"games": {"Not_A_Dns_Label": {}}}},
        {"services": {"gateway": {"replica": 3}}},
        {"monitorng": {"enabled": True}},
        {"defaults": {"secrets": ["everything"]}},
    ],
)
def test_bad_values_are_refused(values: dict) -> None:
    with pytest.raises(helm_python.HelmError):
        chart.render(values)


def test_existing_secrets_are_referenced_not_created() -> None:
    manifests = chart.render({"auth": {"existingSecret": "my-auth"}})
    assert [m.name for m in manifests if m.kind == "Secret"] == []
    persistence = find(manifests, "Deployment", "persistence").doc["spec"]["template"]["spec"]["containers"][0]
    refs = {e["name"]: e["valueFrom"]["secretKeyRef"]["name"] for e in persistence["env"] if "valueFrom" in e}
    assert refs == {"GAMEHALL_DATABASE_URL": "gamehall-database", "GAMEHALL_OPERATOR_PASSWORD": "my-auth"}


def test_token_key_secret_only_goes_where_granted(rendered: dict) -> None:
    granted = set()
    for manifest in rendered["default"]:
        if manifest.kind == "Deployment":
            env = manifest.doc["spec"]["template"]["spec"]["containers"][0]["env"]
            if any(e["name"] == "GAMEHALL_TOKEN_KEY" for e in env):
                granted.add(manifest.labels["app.kubernetes.io/component"])
    assert granted == {"gateway"}  # the ai plays on the rules owners: it signs no token
