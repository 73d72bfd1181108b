"""Repository invariants: generated code is fresh, protos lint clean, every package is shipped."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

from gamehall.protogen import stale_files

ROOT = Path(__file__).resolve().parents[2]
BUF = ROOT / ".venv" / "buf" / "node_modules" / ".bin" / "buf"


def test_generated_protobuf_code_is_fresh() -> None:
    assert stale_files() == [], "run `make proto` and commit the result"


def test_buf_lint() -> None:
    assert BUF.exists(), "buf is missing: `make buf` installs it from the @bufbuild/buf npm package"
    result = subprocess.run([str(BUF), "lint"], cwd=ROOT / "protos", capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_buf_breaking_against_the_accepted_api() -> None:
    """protos/api-baseline.binpb is the last accepted API; `make api-baseline` renews it on purpose."""
    result = subprocess.run(
        [str(BUF), "breaking", "--against", "api-baseline.binpb"],
        cwd=ROOT / "protos",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, "breaking API change:\n" + result.stdout + result.stderr


def _declared_packages() -> set[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return set(data["tool"]["setuptools"]["packages"])


def test_every_python_package_is_listed_in_pyproject() -> None:
    found = set()
    for prefix, folder in (("gamehall", ROOT / "libs" / "gamehall"), ("gamehall_services", ROOT / "services")):
        for init in folder.rglob("__init__.py"):
            rel = init.parent.relative_to(folder)
            found.add(".".join([prefix, *rel.parts]))
    missing = found - _declared_packages()
    assert not missing, f"add to [tool.setuptools] packages in pyproject.toml: {sorted(missing)}"


def test_top_level_layout() -> None:
    visible = {p.name for p in ROOT.iterdir() if not p.name.startswith(".")}
    assert {
        "protos",
        "services",
        "libs",
        "deploy",
        "helm",
        "tests",
        "Makefile",
        "pyproject.toml",
        "README.md",
    } <= visible
    assert (ROOT / ".ci" / "run").exists()
