"""deploy/compose.yaml runs the whole platform: every service, one rules host per game, monitoring."""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

import pytest
import yaml
from deploycheck import compose, platform
from deploycheck.paths import COMPOSE_PATH, DEPLOY_DIR

SHIPPED_GAMES = sorted(ep.name for ep in entry_points(group="gamehall.games"))
"""The games the package registers (pyproject entry points); test fixtures are not among them."""


@pytest.fixture(scope="module")
def games(merged: dict) -> list[str]:
    return [c.removeprefix("rules-") for c in platform.expected_components(merged["default"]) if c.startswith("rules-")]


def test_compose_passes(games: list[str]) -> None:
    assert sorted(games) == SHIPPED_GAMES  # the chart hosts every game the package ships...
    assert compose.check_compose(COMPOSE_PATH, games) == []  # ...and so does compose


def _mutated(tmp_path: Path, change: object) -> Path:
    data = yaml.safe_load(COMPOSE_PATH.read_text())
    change(data["services"])  # type: ignore[operator]
    path = tmp_path / "compose.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda s: s.pop("rules-grimmoir"), "rules-grimmoir: missing"),
        (lambda s: s["matchmaking"].pop("healthcheck"), "matchmaking: a long-running service without a healthcheck"),
        (lambda s: [s["ai"].pop(key) for key in ("image", "build")], "ai: neither image nor build"),
        (lambda s: s["gateway"]["environment"].update(GAMEHALL_GRPC_PORT="50099"), "GAMEHALL_GRPC_PORT='50099'"),
        (lambda s: s["nats"].update(command=["--http_port", "8222"]), "nats: JetStream is not enabled"),
        (
            lambda s: s["grafana"].update(volumes=["./grafana/provisioning:/etc/grafana/provisioning:ro"]),
            "grafana: does not mount",
        ),
        (
            lambda s: s["persistence"]["depends_on"].update(queue={"condition": "service_started"}),
            "depends on unknown service 'queue'",
        ),
    ],
)
def test_compose_mistakes_are_caught(tmp_path: Path, games: list[str], change: object, expected: str) -> None:
    problems = compose.check_compose(_mutated(tmp_path, change), games, base=DEPLOY_DIR)
    assert any(expected in p for p in problems), problems


def test_a_game_missing_from_compose_is_caught() -> None:
    problems = compose.check_compose(COMPOSE_PATH, [*SHIPPED_GAMES, "new-game"])
    assert "rules-new-game: missing" in problems
