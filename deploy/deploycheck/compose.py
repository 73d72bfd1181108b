"""Structure of deploy/compose.yaml (no Docker engine here to run `docker compose config`).

Checks every service has an image or a build, a command where it is ours, healthchecks on long-running
services, the platform's environment and ports (gamehall.runtime.settings.DEFAULT_PORTS), one rules host per
game, dependencies and volumes that exist, Prometheus scraping every service, and Grafana reading the chart's
dashboard directory.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from deploycheck.paths import DASHBOARD_PATH, PROMETHEUS_CONFIG_PATH
from gamehall.runtime.settings import DEFAULT_PORTS

PLATFORM_SERVICES = ("gateway", "persistence", "matchmaking", "ai")
INFRASTRUCTURE = {"nats": "nats:2.", "postgres": "postgres:", "prometheus": "prom/prometheus:", "grafana": "grafana/"}


def load_compose(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text())
    if not isinstance(data, dict) or not isinstance(data.get("services"), dict):
        raise ValueError(f"{path}: no services mapping")
    return data


def _environment(service: Mapping[str, Any]) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        return dict(item.split("=", 1) if "=" in item else (item, "") for item in env)
    return {str(k): "" if v is None else str(v) for k, v in env.items()}


def _command(service: Mapping[str, Any]) -> list[str]:
    command = service.get("command") or []
    return shlex.split(command) if isinstance(command, str) else [str(part) for part in command]


def _is_one_shot(name: str, services: Mapping[str, Any]) -> bool:
    """A job others wait to complete (restart "no" and depended on with service_completed_successfully)."""
    waited = any(
        isinstance(other.get("depends_on"), dict)
        and (other["depends_on"].get(name) or {}).get("condition") == "service_completed_successfully"
        for other in services.values()
    )
    return waited and str(services[name].get("restart", "no")) == "no"


def check_compose(path: Path, games: Iterable[str], base: Path | None = None) -> list[str]:
    """Problems of the compose file at `path`, which must run every game of `games` (ids).

    Relative paths (build context, bind mounts) resolve against `base`, by default the file's directory.
    """
    compose = load_compose(path)
    base = path.parent if base is None else base
    games = list(games)
    services: dict[str, Any] = compose["services"]
    problems: list[str] = []
    ours = {name for name, s in services.items() if "build" in s}
    for name, service in services.items():
        problems.extend(f"{name}: {p}" for p in _check_service(name, service, services, compose, base))
    for name, prefix in INFRASTRUCTURE.items():
        if not str(services.get(name, {}).get("image", "")).startswith(prefix):
            problems.append(f"{name}: expected a service with image {prefix}*")
    nats = _command(services.get("nats", {}))
    if "-js" not in nats and "--jetstream" not in nats:
        problems.append("nats: JetStream is not enabled (-js)")
    expected = {**{s: ("", s) for s in PLATFORM_SERVICES}, **{f"rules-{g}": (g, f"rules-{g}") for g in games}}
    for name, (game, _) in expected.items():
        if name not in services:
            problems.append(f"{name}: missing")
            continue
        problems.extend(f"{name}: {p}" for p in _check_platform_service(name, game, services[name]))
    extra_rules = sorted(n for n in ours if n.startswith("rules-") and n not in expected)
    if extra_rules:
        problems.append(f"rules hosts for games not in the chart: {', '.join(extra_rules)}")
    problems.extend(_check_addresses(services, set(games)))
    problems.extend(_check_prometheus(services, expected))
    problems.extend(_check_grafana(services.get("grafana", {}), base))
    return problems


def _check_service(
    name: str, service: Mapping[str, Any], services: Mapping[str, Any], compose: Mapping[str, Any], base: Path
) -> list[str]:
    problems = []
    if "image" not in service and "build" not in service:
        problems.append("neither image nor build")
    if "build" in service:
        build = service["build"]
        dockerfile = base / build.get("context", ".") / build.get("dockerfile", "Dockerfile")
        if not dockerfile.is_file():
            problems.append(f"build Dockerfile {dockerfile} does not exist")
        if not _command(service):
            problems.append("no command (the image runs every service; the command picks one)")
        if service.get("read_only") is not True:
            problems.append("root filesystem is writable (read_only: true)")
    healthcheck = service.get("healthcheck") or {}
    if not _is_one_shot(name, services) and (not healthcheck.get("test") or healthcheck.get("disable")):
        problems.append("a long-running service without a healthcheck")
    for dependency in service.get("depends_on") or {}:
        if dependency not in services:
            problems.append(f"depends on unknown service {dependency!r}")
    declared = set((compose.get("volumes") or {}).keys())
    for volume in service.get("volumes") or []:
        source = str(volume).split(":", 1)[0] if isinstance(volume, str) else str(volume.get("source", ""))
        if source.startswith((".", "/")):
            if not (base / source).exists():
                problems.append(f"bind mount source {source} does not exist")
        elif source not in declared:
            problems.append(f"volume {source!r} is not declared")
    return problems


def _check_platform_service(name: str, game: str, service: Mapping[str, Any]) -> list[str]:
    problems = []
    module = "gamehall_services.rules" if game else f"gamehall_services.{name}"
    wanted = ["python", "-m", module] + (["--game", game] if game else [])
    if _command(service) != wanted:
        problems.append(f"command {_command(service)} is not {wanted}")
    env = _environment(service)
    if not env:
        problems.append("no environment")
    grpc, metrics = DEFAULT_PORTS.get(name, (None, None))
    checks = {
        "GAMEHALL_SERVICE": name,
        "GAMEHALL_HOST": "0.0.0.0",
        "GAMEHALL_LOG_FORMAT": "json",
        "GAMEHALL_GRPC_PORT": str(grpc),
        "GAMEHALL_METRICS_PORT": str(metrics),
    }
    if game:
        checks["GAMEHALL_GAME"] = game
    problems.extend(
        f"{var}={env.get(var)!r}, expected {want!r}" for var, want in checks.items() if env.get(var) != want
    )
    if "GAMEHALL_NATS_URL" not in env:
        problems.append("no GAMEHALL_NATS_URL")
    return problems


def _check_addresses(services: Mapping[str, Any], games: set[str]) -> list[str]:
    """Service addresses in the environment point at existing services on their gRPC ports."""
    problems = []
    for name, service in services.items():
        env = _environment(service)
        addresses = {var: env[var] for var in env if var.endswith("_ADDR")}
        if "GAMEHALL_RULES_ADDRS" in env:
            try:
                rules = json.loads(env["GAMEHALL_RULES_ADDRS"])
            except json.JSONDecodeError as error:
                problems.append(f"{name}: GAMEHALL_RULES_ADDRS is not JSON: {error}")
                continue
            if set(rules) != games:
                problems.append(f"{name}: GAMEHALL_RULES_ADDRS covers {sorted(rules)}, games are {sorted(games)}")
            addresses.update({f"GAMEHALL_RULES_ADDRS[{g}]": a for g, a in rules.items()})
        for var, address in addresses.items():
            host, _, port = address.rpartition(":")
            target_env = _environment(services.get(host, {}))
            if host not in services or target_env.get("GAMEHALL_GRPC_PORT") != port:
                problems.append(f"{name}: {var}={address} is not a service's gRPC port")
    return problems


def _check_prometheus(services: Mapping[str, Any], expected: Mapping[str, tuple[str, str]]) -> list[str]:
    config = yaml.safe_load(PROMETHEUS_CONFIG_PATH.read_text()) or {}
    targets = {
        target
        for job in config.get("scrape_configs") or []
        for static in job.get("static_configs") or []
        for target in static.get("targets") or []
    }
    problems = []
    for name in expected:
        port = _environment(services.get(name, {})).get("GAMEHALL_METRICS_PORT")
        if f"{name}:{port}" not in targets:
            problems.append(f"prometheus: does not scrape {name}:{port}")
    return problems


def _check_grafana(grafana: Mapping[str, Any], base: Path) -> list[str]:
    """Grafana must mount the chart's dashboard directory itself (one source file for both)."""
    for volume in grafana.get("volumes") or []:
        source = str(volume).split(":", 1)[0]
        if source.startswith(".") and (base / source).resolve() == DASHBOARD_PATH.parent.resolve():
            return []
    return [f"grafana: does not mount {DASHBOARD_PATH.parent}"]
