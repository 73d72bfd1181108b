"""Render and lint the Helm chart offline with helm-python-sdk (Helm's Go SDK, no helm binary or cluster)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import helm_python
import yaml

from deploycheck.paths import CHART_DIR, CI_VALUES_DIR, NAMESPACE, RELEASE

LINT_WARNING = 2  # helm lint severities: 1 info, 2 warning, 3 error


@dataclass(frozen=True)
class Manifest:
    """One rendered Kubernetes object and the template it came from."""

    template: str
    doc: dict[str, Any]

    @property
    def kind(self) -> str:
        return str(self.doc.get("kind", ""))

    @property
    def name(self) -> str:
        return str(self.doc.get("metadata", {}).get("name", ""))

    @property
    def labels(self) -> dict[str, str]:
        return dict(self.doc.get("metadata", {}).get("labels") or {})

    def __str__(self) -> str:
        return f"{self.kind}/{self.name}"


def value_sets() -> dict[str, dict[str, Any]]:
    """The values the chart is checked with: its defaults ({}) and every file of helm/gamehall/ci/."""
    sets: dict[str, dict[str, Any]] = {"default": {}}
    for path in sorted(CI_VALUES_DIR.glob("*.yaml")):
        sets[path.stem] = load_values(path)
    return sets


def load_values(path: Path) -> dict[str, Any]:
    loaded = yaml.safe_load(path.read_text()) or {}
    if not isinstance(loaded, dict):
        raise ValueError(f"{path}: values must be a mapping")
    return loaded


def merged_values(values: dict[str, Any], chart_dir: Path = CHART_DIR) -> dict[str, Any]:
    """The chart's defaults coalesced with `values`, as an install would see them."""
    with helm_python.Chart.load(chart_dir) as chart:
        return chart.merge_values(values)


def render(
    values: dict[str, Any], chart_dir: Path = CHART_DIR, release: str = RELEASE, namespace: str = NAMESPACE
) -> list[Manifest]:
    """Every object the chart renders (hooks and test pods included), in template order.

    Raises helm_python.HelmError when the values break the schema or a template fails.
    """
    with helm_python.Chart.load(chart_dir) as chart:
        rendered = chart.render(values, name=release, namespace=namespace, is_install=True)
    manifests = []
    for template, text in sorted(rendered.items()):
        if not template.endswith((".yaml", ".yml")):
            continue  # NOTES.txt
        for doc in yaml.safe_load_all(text):
            if doc is not None:
                manifests.append(Manifest(template, doc))
    return manifests


def lint(values: dict[str, Any], kube_version: str, chart_dir: Path = CHART_DIR) -> tuple[list[str], list[str]]:
    """`helm lint --strict` with these values: (problems: warnings and errors, notes: info messages)."""
    report = helm_python.lint(chart_dir, values, strict=True, kube_version=f"v{kube_version}")
    problems: list[str] = []
    notes: list[str] = []
    for message in report.get("messages", []):
        text = f"{message.get('path', '')}: {str(message.get('error', '')).strip()}"
        (problems if message.get("severity", 0) >= LINT_WARNING else notes).append(text)
    if not problems:  # errors normally repeat the severity-3 messages
        problems = [str(error).strip() for error in report.get("errors", [])]
    return problems, notes
