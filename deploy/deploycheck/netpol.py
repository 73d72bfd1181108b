"""Who may reach which pod: the rendered NetworkPolicies must expose only the gateway's gRPC port outside.

Every pod of the release must be selected by an Ingress policy (so unlisted traffic is denied); each allowed
(port, peer) is classed as "anywhere" (no peer or an ipBlock), "platform" (this release's pods), "monitoring"
(the configured monitoring namespace) or "other" (any other namespace), and only the gateway's gRPC port and the web
service's HTTP port (the pages and their API bridge, which forwards to the gateway) may be reachable from
"anywhere"/"other".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deploycheck.chart import Manifest
from deploycheck.platform import COMPONENT_LABEL

PUBLIC_COMPONENTS = frozenset({"gateway"})
PUBLIC_HTTP_COMPONENTS = frozenset({"web"})
"""Components whose HTTP port (values `ports.http`) is public: the web pages and their Connect bridge."""
EXTERNAL = frozenset({"anywhere", "other"})


@dataclass(frozen=True)
class Exposure:
    """One component's port reachable by one class of peer."""

    component: str
    port: int
    peer: str


def _pod_labels(manifest: Manifest) -> dict[str, str] | None:
    if manifest.kind == "Pod":
        return manifest.labels
    if manifest.kind in ("Deployment", "StatefulSet", "Job", "DaemonSet"):
        return dict(manifest.doc["spec"]["template"]["metadata"].get("labels") or {})
    return None


def _selects(selector: Mapping[str, Any], labels: Mapping[str, str]) -> bool:
    if selector.get("matchExpressions"):
        raise ValueError("matchExpressions in a NetworkPolicy podSelector is not analysed")
    return dict(selector.get("matchLabels") or {}).items() <= dict(labels).items()


def _peer_class(peer: Mapping[str, Any], release_labels: Mapping[str, str], monitoring: Mapping[str, Any]) -> str:
    if "ipBlock" in peer:
        return "anywhere"
    if "namespaceSelector" in peer:
        return "monitoring" if peer["namespaceSelector"] == monitoring else "other"
    pods = peer.get("podSelector") or {}
    return "platform" if _selects(pods, release_labels) and pods.get("matchLabels") else "other"


def exposures(manifests: Sequence[Manifest], values: Mapping[str, Any]) -> tuple[list[Exposure], list[str]]:
    """Every (component, port, peer class) the policies allow, and the pods no policy selects."""
    policies = [m for m in manifests if m.kind == "NetworkPolicy" and "Ingress" in m.doc["spec"].get("policyTypes", [])]
    monitoring = values["networkPolicy"]["metrics"]["namespaceSelector"]
    release_labels: dict[str, str] = {}
    for policy in policies:
        if not policy.doc["spec"].get("ingress") and policy.doc["spec"]["podSelector"].get("matchLabels"):
            release_labels = policy.doc["spec"]["podSelector"]["matchLabels"]  # the default-deny policy
    found: list[Exposure] = []
    uncovered: list[str] = []
    for manifest in manifests:
        labels = _pod_labels(manifest)
        if labels is None:
            continue
        selecting = [p for p in policies if _selects(p.doc["spec"]["podSelector"], labels)]
        if not selecting:
            uncovered.append(str(manifest))
        component = labels.get(COMPONENT_LABEL, manifest.name)
        for policy in selecting:
            for rule in policy.doc["spec"].get("ingress") or []:
                peers = rule.get("from") or []
                classes = {_peer_class(p, release_labels, monitoring) for p in peers} or {"anywhere"}
                ports = [int(p["port"]) for p in rule.get("ports") or []] or [0]  # 0: every port
                found.extend(Exposure(component, port, peer) for port in ports for peer in classes)
    return sorted(set(found), key=lambda e: (e.component, e.port, e.peer)), uncovered


def check_network_policies(manifests: Sequence[Manifest], values: Mapping[str, Any]) -> list[str]:
    """Problems: uncovered pods, anything but the gateway's gRPC port open outside, internal ports unreachable."""
    if not values["networkPolicy"]["enabled"]:
        return []
    problems: list[str] = []
    allowed, uncovered = exposures(manifests, values)
    problems.extend(f"{pod}: no NetworkPolicy selects it (all ingress allowed)" for pod in uncovered)
    grpc, metrics = int(values["ports"]["grpc"]), int(values["ports"]["metrics"])
    http = int(values["ports"].get("http") or 0)

    def public(exposure: Exposure) -> bool:
        if exposure.component in PUBLIC_HTTP_COMPONENTS and http:
            return exposure.port == http
        return exposure.component in PUBLIC_COMPONENTS and exposure.port == grpc

    for exposure in allowed:
        if exposure.peer in EXTERNAL and not public(exposure):
            problems.append(f"{exposure.component}: port {exposure.port or 'all'} is open to {exposure.peer}")
    components = {m.labels.get(COMPONENT_LABEL) for m in manifests if m.kind == "Deployment"}
    for component in sorted(c for c in components if c):
        peers = {e.peer for e in allowed if e.component == component and e.port == grpc}
        if component in PUBLIC_COMPONENTS and not peers & EXTERNAL:
            problems.append(f"{component}: the public gRPC port is not reachable from outside")
        if component not in PUBLIC_COMPONENTS and "platform" not in peers:
            problems.append(f"{component}: the platform's pods cannot reach its gRPC port")
        if not any(e.component == component and e.port == metrics and e.peer == "monitoring" for e in allowed):
            problems.append(f"{component}: Prometheus cannot scrape its metrics port")
    return problems
