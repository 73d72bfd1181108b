"""The result of one check and the table check_chart.py prints."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass
class Check:
    """One named check on one subject: it passes when it found no problem."""

    name: str
    subject: str
    problems: list[str] = field(default_factory=list)
    detail: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems


def format_table(checks: Iterable[Check]) -> str:
    """A plain-text table (check, subject, result, detail) followed by every problem found."""
    checks = list(checks)
    rows = [(c.name, c.subject, "ok" if c.ok else f"FAIL ({len(c.problems)})", c.detail) for c in checks]
    header = ("check", "subject", "result", "detail")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(3)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row[:3], widths, strict=True)) + "  " + row[3]
             for row in [header, *rows]]
    lines.insert(1, "-" * (sum(widths) + 2 * len(widths) + len(header[3])))
    for check in checks:
        lines.extend(f"  {check.name} [{check.subject}]: {problem}" for problem in check.problems)
    return "\n".join(lines)
