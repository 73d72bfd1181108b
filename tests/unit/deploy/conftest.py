"""Puts deploy/ on the import path (the checks live in deploy/deploycheck) and renders each value set once."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

DEPLOY_DIR = Path(__file__).resolve().parents[3] / "deploy"
if str(DEPLOY_DIR) not in sys.path:
    sys.path.insert(0, str(DEPLOY_DIR))

from deploycheck import chart  # noqa: E402 - needs the path above


@pytest.fixture(scope="session")
def value_sets() -> dict[str, dict[str, Any]]:
    return chart.value_sets()


@pytest.fixture(scope="session")
def rendered(value_sets: dict[str, dict[str, Any]]) -> dict[str, list[chart.Manifest]]:
    return {label: chart.render(values) for label, values in value_sets.items()}


@pytest.fixture(scope="session")
def merged(value_sets: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {label: chart.merged_values(values) for label, values in value_sets.items()}
