"""Every service and every game's rules host is present, hardened and probed; secrets and hooks line up."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest
from deploycheck import platform

from tests.unit.deploy.support import VALUE_SETS, edited, find, replaced

GAMES = tuple(sorted(ep.name for ep in entry_points(group="gamehall.games")))
"""Every game the package ships (pyproject entry points) is hosted by the chart's defaults."""


@pytest.mark.parametrize("label", VALUE_SETS)
def test_components_pass(rendered: dict, merged: dict, label: str) -> None:
    assert platform.check_components(rendered[label], merged[label]) == []
    assert platform.check_secrets_and_hooks(rendered[label], merged[label]) == []


def test_defaults_run_every_service_and_game(merged: dict) -> None:
    components = platform.expected_components(merged["default"])
    assert set(components) == {"gateway", "persistence", "matchmaking", "ai", "web", *(f"rules-{g}" for g in GAMES)}
    assert components["rules-grimmoir"] == {"module": "gamehall_services.rules", "game": "grimmoir"}


@pytest.mark.parametrize("game", GAMES)
def test_rules_host_runs_its_game_with_grpc_probes(rendered: dict, game: str) -> None:
    container = find(rendered["default"], "Deployment", f"rules-{game}").doc["spec"]["template"]["spec"]["containers"][
        0
    ]
    assert container["command"] == ["python", "-m", "gamehall_services.rules", "--game", game]
    for probe in platform.PROBES:
        assert container[probe]["grpc"]["port"] == 50051


def test_a_missing_game_deployment_is_caught(rendered: dict, merged: dict) -> None:
    manifests = [
        m
        for m in rendered["default"]
        if not (m.kind == "Deployment" and m.labels.get("app.kubernetes.io/component") == "rules-grimmoir")
    ]
    assert platform.check_components(manifests, merged["default"]) == ["rules-grimmoir: no Deployment"]


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        (("securityContext", "readOnlyRootFilesystem"), False, "root filesystem is writable"),
        (("securityContext", "allowPrivilegeEscalation"), True, "privilege escalation is allowed"),
        (("livenessProbe",), {"tcpSocket": {"port": 50051}}, "livenessProbe is not a gRPC health probe"),
        (("command",), ["python", "-m", "gamehall_services.ai"], "command"),
    ],
)
def test_weakened_workloads_are_caught(rendered: dict, merged: dict, path: tuple, value: object, expected: str) -> None:
    deployment = find(rendered["default"], "Deployment", "matchmaking")
    doc = edited(deployment)
    target = doc["spec"]["template"]["spec"]["containers"][0]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    problems = platform.check_components(replaced(rendered["default"], deployment, doc), merged["default"])
    assert len(problems) == 1 and expected in problems[0]


def test_a_dangling_secret_reference_is_caught(rendered: dict, merged: dict) -> None:
    deployment = find(rendered["default"], "Deployment", "gateway")
    doc = edited(deployment)
    env = doc["spec"]["template"]["spec"]["containers"][0]["env"]
    next(e for e in env if e["name"] == "GAMEHALL_TOKEN_KEY")["valueFrom"]["secretKeyRef"]["name"] = "nowhere"
    problems = platform.check_secrets_and_hooks(replaced(rendered["default"], deployment, doc), merged["default"])
    assert problems and "'nowhere'" in problems[0]


def test_migrations_run_before_install_externally_and_after_install_when_bundled(rendered: dict) -> None:
    def hook(label: str) -> str:
        job = next(m for m in rendered[label] if m.kind == "Job")
        return str(job.doc["metadata"]["annotations"]["helm.sh/hook"])

    assert hook("default") == "pre-install,pre-upgrade"
    assert hook("all-features") == "post-install,pre-upgrade"
