"""deploy/check_chart.py end to end: every check passes and the table names each of them."""

from __future__ import annotations

from deploycheck import run
from deploycheck.report import Check, format_table


def test_run_all_passes() -> None:
    checks = run.run_all()
    failed = [f"{c.name} [{c.subject}]: {c.problems}" for c in checks if not c.ok]
    assert failed == []
    names = {c.name for c in checks}
    assert {"render", "compose structure", "grafana dashboard", "alert rules (PromQL)", "network policies"} <= names


def test_table_lists_problems() -> None:
    table = format_table([Check("lint", "default", []), Check("schema", "x", ["bad field"], "1 object")])
    assert "FAIL (1)" in table and "schema [x]: bad field" in table
