"""Only the gateway's gRPC port and the web's HTTP port are reachable from outside; internal ports only from the
platform and monitoring."""

from __future__ import annotations

import pytest
from deploycheck import chart, netpol

from tests.unit.deploy.support import VALUE_SETS


@pytest.mark.parametrize("label", VALUE_SETS)
def test_policies_pass(rendered: dict, merged: dict, label: str) -> None:
    assert netpol.check_network_policies(rendered[label], merged[label]) == []


@pytest.mark.parametrize("label", VALUE_SETS)
def test_only_the_gateway_grpc_port_and_the_web_http_port_are_open_outside(
    rendered: dict, merged: dict, label: str
) -> None:
    allowed, uncovered = netpol.exposures(rendered[label], merged[label])
    assert uncovered == []
    assert {(e.component, e.port) for e in allowed if e.peer in netpol.EXTERNAL} == {("gateway", 50051), ("web", 8080)}
    assert {e.port for e in allowed if e.peer == "monitoring"} <= {9100, 8222}


def test_an_internal_service_opened_to_the_world_is_caught(rendered: dict, merged: dict) -> None:
    leak = {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "NetworkPolicy",
        "metadata": {"name": "leak"},
        "spec": {
            "podSelector": {"matchLabels": {"app.kubernetes.io/component": "persistence"}},
            "policyTypes": ["Ingress"],
            "ingress": [{"from": [{"ipBlock": {"cidr": "0.0.0.0/0"}}], "ports": [{"port": 50051}]}],
        },
    }
    manifests = [*rendered["default"], chart.Manifest("leak.yaml", leak)]
    problems = netpol.check_network_policies(manifests, merged["default"])
    assert problems == ["persistence: port 50051 is open to anywhere"]


def test_pods_without_a_policy_are_caught(rendered: dict, merged: dict) -> None:
    manifests = [m for m in rendered["default"] if m.kind != "NetworkPolicy"]
    problems = netpol.check_network_policies(manifests, merged["default"])
    assert any("Deployment/gamehall-gateway: no NetworkPolicy" in p for p in problems)
