"""Import layering of the installed package: it never reaches into tests/, and benchmarks never drive the CLI."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

LIBS = Path(__file__).resolve().parents[2] / "libs" / "gamehall"
MODULE_REFERENCE = re.compile(r"^tests(\.[A-Za-z_][\w.]*|\.[A-Za-z_][\w.]*:[A-Za-z_]\w*)$")
"""A string naming a module of tests/ (``tests.fixtures.x`` or ``tests.fixtures.x:GAME``) for a dynamic import."""


def _imports(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and MODULE_REFERENCE.match(node.value):
            yield node.lineno, node.value


def _offenders(folder: Path, banned: str) -> list[str]:
    found = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for line, name in _imports(tree):
            if name == banned or name.startswith(banned + ".") or name.startswith(banned + ":"):
                found.append(f"{path.relative_to(LIBS.parent)}:{line} {name}")
    return found


def test_the_library_imports_nothing_from_tests() -> None:
    """tests/ is not installed: a library module that imports it works only in a checkout."""
    assert _offenders(LIBS, "tests") == []


def test_benchmarks_do_not_import_the_cli() -> None:
    """`gamehall.bench` measures the libraries; the CLI is a front end over them, not a dependency."""
    assert _offenders(LIBS / "bench", "gamehall.cli") == []


def test_the_checks_see_an_offender(tmp_path: Path) -> None:
    """The scan itself: each way of reaching tests/ is caught."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import tests.support\nfrom tests.fixtures import x\nFIXTURE = 'tests.fixtures.high_card:GAME'\nok = 'tests'\n"
    )
    found = [name for _, name in _imports(ast.parse(sample.read_text()))]
    assert found == ["tests.support", "tests.fixtures", "tests.fixtures.high_card:GAME"]
