"""What the rendered chart must contain for the platform to run: one hardened workload per service and per game.

The expected components are read from the merged values (services and rules.games that are enabled), not from the
templates, so a template that drops a service or a game is caught.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from deploycheck.chart import Manifest

COMPONENT_LABEL = "app.kubernetes.io/component"
PROBES = ("startupProbe", "readinessProbe", "livenessProbe")


def _enabled(entry: Any) -> bool:
    return not isinstance(entry, dict) or entry.get("enabled", True) is not False


def expected_components(values: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """component name -> {"module": ..., "game": ...} for every enabled service and game (merged values)."""
    components: dict[str, dict[str, str]] = {}
    for name, entry in (values.get("services") or {}).items():
        if _enabled(entry):
            components[name] = {"module": entry["module"], "game": ""}
    for game, entry in (values.get("rules", {}).get("games") or {}).items():
        if _enabled(entry):
            components[f"rules-{game}"] = {"module": values["rules"]["module"], "game": game}
    return components


def _by_component(manifests: Sequence[Manifest], kind: str) -> dict[str, Manifest]:
    return {m.labels.get(COMPONENT_LABEL, ""): m for m in manifests if m.kind == kind}


def check_components(manifests: Sequence[Manifest], values: Mapping[str, Any]) -> list[str]:
    """Every enabled service and game has its Deployment, Service, PDB, HPA, ServiceMonitor as configured."""
    problems: list[str] = []
    expected = expected_components(values)
    deployments = _by_component(manifests, "Deployment")
    services = _by_component(manifests, "Service")
    extra = sorted(set(deployments) - set(expected))
    if extra:
        problems.append(f"Deployments for components not in values: {', '.join(extra)}")
    monitoring = bool(values.get("monitoring", {}).get("enabled"))
    for name, spec in expected.items():
        deployment = deployments.get(name)
        if deployment is None:
            problems.append(f"{name}: no Deployment")
            continue
        problems.extend(f"{deployment}: {p}" for p in check_workload(deployment, name, spec, values))
        service = services.get(name)
        ports = {p.get("name") for p in (service.doc["spec"].get("ports", []) if service else [])}
        if not {"grpc", "metrics"} <= ports:
            problems.append(f"{name}: no Service exposing grpc and metrics")
        settings = _component_settings(values, name, spec)
        autoscaling = bool(settings.get("autoscaling", {}).get("enabled"))
        has_hpa = name in _by_component(manifests, "HorizontalPodAutoscaler")
        if autoscaling != has_hpa:
            problems.append(f"{name}: autoscaling.enabled={autoscaling} but HPA rendered={has_hpa}")
        if autoscaling and "replicas" in deployment.doc["spec"]:
            problems.append(f"{name}: sets replicas although an HPA owns them")
        pdb_wanted = bool(settings.get("podDisruptionBudget", {}).get("enabled"))
        if pdb_wanted != (name in _by_component(manifests, "PodDisruptionBudget")):
            problems.append(f"{name}: PodDisruptionBudget does not follow podDisruptionBudget.enabled")
        if monitoring != (name in _by_component(manifests, "ServiceMonitor")):
            problems.append(f"{name}: ServiceMonitor does not follow monitoring.enabled")
    crds = sorted(str(m) for m in manifests if m.kind in ("ServiceMonitor", "PrometheusRule"))
    if crds and not monitoring:
        problems.append(f"CRD objects rendered without monitoring.enabled: {', '.join(crds)}")
    return problems


def _component_settings(values: Mapping[str, Any], name: str, spec: Mapping[str, str]) -> dict[str, Any]:
    """The keys a component overrides on top of `defaults` (one level deep is enough for the checks)."""
    entry = values["rules"]["games"].get(spec["game"]) if spec["game"] else values["services"][name]
    settings = {key: dict(value) if isinstance(value, dict) else value for key, value in values["defaults"].items()}
    for key, value in (entry or {}).items():
        if isinstance(value, dict) and isinstance(settings.get(key), dict):
            settings[key] = {**settings[key], **value}
        else:
            settings[key] = value
    return settings


def check_workload(deployment: Manifest, name: str, spec: Mapping[str, str], values: Mapping[str, Any]) -> list[str]:
    """Command, environment, gRPC probes and the non-root read-only security context of one Deployment."""
    problems: list[str] = []
    pod = deployment.doc["spec"]["template"]["spec"]
    containers = pod.get("containers", [])
    if len(containers) != 1:
        return [f"expected one container, found {len(containers)}"]
    container = containers[0]
    command = container.get("command", [])
    wanted = ["python", "-m", spec["module"]] + (["--game", spec["game"]] if spec["game"] else [])
    if command != wanted:
        problems.append(f"command {command} is not {wanted}")
    env = {e["name"]: e.get("value") for e in container.get("env", [])}
    if env.get("GAMEHALL_SERVICE") != name:
        problems.append(f"GAMEHALL_SERVICE={env.get('GAMEHALL_SERVICE')!r}")
    if spec["game"] and env.get("GAMEHALL_GAME") != spec["game"]:
        problems.append(f"GAMEHALL_GAME={env.get('GAMEHALL_GAME')!r}")
    if env.get("GAMEHALL_HOST") != "0.0.0.0" or env.get("GAMEHALL_LOG_FORMAT") != "json":
        problems.append("GAMEHALL_HOST must be 0.0.0.0 and GAMEHALL_LOG_FORMAT json")
    ports = {p["name"]: p["containerPort"] for p in container.get("ports", [])}
    if str(ports.get("grpc")) != env.get("GAMEHALL_GRPC_PORT") or str(ports.get("metrics")) != env.get(
        "GAMEHALL_METRICS_PORT"
    ):
        problems.append("container ports grpc/metrics do not match GAMEHALL_GRPC_PORT/GAMEHALL_METRICS_PORT")
    rules_addrs = json.loads(env.get("GAMEHALL_RULES_ADDRS") or "{}")
    games = {g for g, e in (values["rules"]["games"] or {}).items() if _enabled(e)}
    if set(rules_addrs) != games:
        problems.append(f"GAMEHALL_RULES_ADDRS covers {sorted(rules_addrs)}, enabled games are {sorted(games)}")
    # Under TLS the kubelet (no client certificate) asks the plaintext health-only port (GAMEHALL_HEALTH_PORT).
    probe_port = int(env["GAMEHALL_HEALTH_PORT"]) if env.get("GAMEHALL_HEALTH_PORT") else ports.get("grpc")
    for probe in PROBES:
        grpc_probe = (container.get(probe) or {}).get("grpc") or {}
        if grpc_probe.get("port") != probe_port:
            problems.append(f"{probe} is not a gRPC health probe on the grpc port (the health port under TLS)")
    problems.extend(_security_problems(pod, container))
    if not (container.get("resources") or {}).get("requests"):
        problems.append("no resource requests")
    return problems


def _security_problems(pod: Mapping[str, Any], container: Mapping[str, Any]) -> list[str]:
    problems = []
    pod_context = pod.get("securityContext") or {}
    context = container.get("securityContext") or {}
    if not (pod_context.get("runAsNonRoot") or context.get("runAsNonRoot")):
        problems.append("runAsNonRoot is not set")
    if 0 in (pod_context.get("runAsUser"), context.get("runAsUser")):
        problems.append("runs as uid 0")
    if context.get("readOnlyRootFilesystem") is not True:
        problems.append("root filesystem is writable")
    if context.get("allowPrivilegeEscalation") is not False:
        problems.append("privilege escalation is allowed")
    if "ALL" not in (context.get("capabilities") or {}).get("drop", []):
        problems.append("capabilities are not all dropped")
    if pod.get("automountServiceAccountToken") is not False:
        problems.append("mounts a service account token")
    return problems


def check_secrets_and_hooks(manifests: Sequence[Manifest], values: Mapping[str, Any]) -> list[str]:
    """Secrets referenced exist (or are named existing Secrets); migrations and bundled services as configured."""
    problems: list[str] = []
    rendered_secrets = {m.name for m in manifests if m.kind == "Secret"}
    external = {values["database"].get("existingSecret"), values["auth"].get("existingSecret")} - {"", None}
    for manifest in manifests:
        for ref in _secret_refs(manifest.doc):
            if ref not in rendered_secrets and ref not in external:
                problems.append(f"{manifest}: Secret {ref!r} is neither rendered nor a configured existing Secret")
    jobs = [m for m in manifests if m.kind == "Job"]
    if values["database"]["migrations"]["enabled"]:
        hooks = [str(j.doc["metadata"].get("annotations", {}).get("helm.sh/hook", "")) for j in jobs]
        first = "post-install" if values["bundled"]["enabled"] else "pre-install"
        if not any(first in h and "pre-upgrade" in h for h in hooks):
            problems.append(f"no migration Job hooked on {first},pre-upgrade")
        commands = [c.get("command", []) for j in jobs for c in j.doc["spec"]["template"]["spec"]["containers"]]
        if not any("--migrate-only" in command for command in commands):
            problems.append("the migration Job does not run --migrate-only")
    elif jobs:
        problems.append("a Job is rendered although migrations are disabled")
    statefulsets = {m.labels.get(COMPONENT_LABEL) for m in manifests if m.kind == "StatefulSet"}
    wanted = {"nats", "postgresql"} if values["bundled"]["enabled"] else set()
    if statefulsets != wanted:
        problems.append(f"bundled StatefulSets {sorted(s or '' for s in statefulsets)}, expected {sorted(wanted)}")
    for manifest in manifests:
        if manifest.kind == "StatefulSet" and manifest.labels.get(COMPONENT_LABEL) == "nats":
            args = manifest.doc["spec"]["template"]["spec"]["containers"][0].get("args", [])
            if "--jetstream" not in args and "-js" not in args:
                problems.append(f"{manifest}: NATS runs without JetStream")
    return problems


def _secret_refs(node: Any) -> set[str]:
    """Names in every secretKeyRef / secretRef under `node`."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("secretKeyRef", "secretRef") and isinstance(value, dict) and "name" in value:
                found.add(value["name"])
            else:
                found |= _secret_refs(value)
    elif isinstance(node, list):
        for item in node:
            found |= _secret_refs(item)
    return found
