"""Helpers shared by the deploy tests: the value-set labels and manifest lookups."""

from __future__ import annotations

import copy
from collections.abc import Sequence

from deploycheck import chart
from deploycheck.paths import CI_VALUES_DIR

VALUE_SETS = ["default", *sorted(path.stem for path in CI_VALUES_DIR.glob("*.yaml"))]


def find(manifests: Sequence[chart.Manifest], kind: str, component: str) -> chart.Manifest:
    """The one manifest of `kind` labelled with `component`."""
    matches = [m for m in manifests if m.kind == kind and m.labels.get("app.kubernetes.io/component") == component]
    assert len(matches) == 1, f"{len(matches)} {kind} for {component}"
    return matches[0]


def replaced(manifests: Sequence[chart.Manifest], old: chart.Manifest, new_doc: dict) -> list[chart.Manifest]:
    """A copy of `manifests` with `old` swapped for a manifest holding `new_doc`."""
    return [chart.Manifest(m.template, new_doc) if m is old else m for m in manifests]


def edited(manifest: chart.Manifest) -> dict:
    """A deep copy of a manifest's document, to mutate in a negative test."""
    return copy.deepcopy(manifest.doc)
