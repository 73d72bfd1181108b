"""Checks of the Grafana dashboard JSON shared by compose provisioning and the chart's ConfigMap."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from deploycheck.metrics import known_series
from deploycheck.promql import analyze, check_query

GRID_COLUMNS = 24
# Variables Grafana defines itself.
BUILTIN_VARIABLES = frozenset(
    {"__rate_interval", "__interval", "__interval_ms", "__range", "__range_s", "__range_ms", "__dashboard", "__from",
     "__to", "__all", "__name", "__org", "__user", "__timeFilter"}
)
_LABEL_VALUES = re.compile(r"^\s*label_values\((?:(?P<selector>.+),\s*)?(?P<label>[A-Za-z_]\w*)\s*\)\s*$", re.DOTALL)


def load_dashboard(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text())
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a dashboard is a JSON object")
    return data


def iter_panels(panels: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every panel, rows' collapsed children included."""
    for panel in panels:
        yield panel
        yield from iter_panels(panel.get("panels") or [])


def check_dashboard(
    dashboard: Mapping[str, Any], known: Mapping[str, frozenset[str]] | None = None
) -> tuple[list[str], set[str]]:
    """Problems of the dashboard, and every series its panels and variables query.

    `known` maps the series a query may name to their labels (default: the platform's exported series only).
    """
    known = known_series(allow_external=False) if known is None else known
    problems: list[str] = []
    used: set[str] = set()
    for key in ("uid", "title", "schemaVersion", "panels", "templating"):
        if key not in dashboard:
            problems.append(f"missing top-level {key!r}")
    variables = _check_variables(dashboard, known, problems, used)
    defined = {v.get("name", "") for v in variables} | BUILTIN_VARIABLES
    seen_ids: set[int] = set()
    panels = list(iter_panels(dashboard.get("panels") or []))
    if not panels:
        problems.append("no panels")
    for panel in panels:
        where = f"panel {panel.get('id')} {panel.get('title', '')!r}"
        if panel.get("id") in seen_ids or not isinstance(panel.get("id"), int):
            problems.append(f"{where}: missing or duplicate id")
        seen_ids.add(panel.get("id", -1))
        problems.extend(f"{where}: {p}" for p in _check_grid(panel.get("gridPos")))
        if panel.get("type") == "row":
            continue
        if not panel.get("type") or not panel.get("title"):
            problems.append(f"{where}: needs a type and a title")
        if (panel.get("datasource") or {}).get("uid") != "${datasource}":
            problems.append(f"{where}: datasource must be the ${{datasource}} variable (works in compose and k8s)")
        targets = panel.get("targets") or []
        if not targets:
            problems.append(f"{where}: no queries")
        ref_ids = [t.get("refId") for t in targets]
        if len(set(ref_ids)) != len(ref_ids) or None in ref_ids:
            problems.append(f"{where}: refIds must be present and unique")
        for target in targets:
            expr = target.get("expr", "")
            expr_problems, series = check_query(expr, known)
            used |= series
            problems.extend(f"{where} {target.get('refId')}: {p}" for p in expr_problems)
            undefined = sorted(analyze(expr).variables - defined)
            if undefined:
                problems.append(f"{where} {target.get('refId')}: undefined variables {', '.join(undefined)}")
    return problems, used


def _check_variables(
    dashboard: Mapping[str, Any], known: Mapping[str, frozenset[str]], problems: list[str], used: set[str]
) -> list[dict[str, Any]]:
    variables: list[dict[str, Any]] = list((dashboard.get("templating") or {}).get("list") or [])
    names = [v.get("name") for v in variables]
    if len(set(names)) != len(names):
        problems.append("duplicate template variable names")
    if not any(v.get("type") == "datasource" and v.get("name") == "datasource" for v in variables):
        problems.append("no 'datasource' variable of type datasource")
    defined = set(names) | BUILTIN_VARIABLES
    for variable in variables:
        if variable.get("type") != "query":
            continue
        query = variable.get("query")
        text = query.get("query", "") if isinstance(query, dict) else str(query or "")
        match = _LABEL_VALUES.match(text)
        where = f"variable {variable.get('name')!r}"
        if match is None:
            problems.append(f"{where}: expected label_values(selector, label), got {text!r}")
            continue
        selector = match.group("selector")
        if selector is None:
            continue
        expr_problems, series = check_query(selector, known)
        used |= series
        problems.extend(f"{where}: {p}" for p in expr_problems)
        label = match.group("label")
        if series and not any(label in known.get(s, frozenset()) for s in series):
            problems.append(f"{where}: no queried series has label {label!r}")
        undefined = sorted(analyze(selector).variables - defined)
        if undefined:
            problems.append(f"{where}: undefined variables {', '.join(undefined)}")
    return variables


def _check_grid(grid: Any) -> list[str]:
    if not isinstance(grid, dict) or not all(isinstance(grid.get(k), int) for k in ("h", "w", "x", "y")):
        return ["gridPos needs integer h, w, x, y"]
    if grid["x"] < 0 or grid["w"] < 1 or grid["x"] + grid["w"] > GRID_COLUMNS:
        return [f"gridPos x={grid['x']} w={grid['w']} leaves the {GRID_COLUMNS}-column grid"]
    return []
