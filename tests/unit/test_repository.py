"""Repository invariants: generated code is fresh, protos lint clean, every package is shipped."""

from __future__ import annotations

import os
import re
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
    sdk = tomllib.loads((ROOT / "sdk" / "pyproject.toml").read_text())
    in_sdk = {
        ".".join(p.parent.relative_to(ROOT / "sdk").parts) for p in (ROOT / "sdk").glob("gamehall_sdk/**/__init__.py")
    }
    assert in_sdk == set(sdk["tool"]["setuptools"]["packages"]), "sdk/pyproject.toml lists the SDK's packages"
    assert not any(
        d.startswith("gamehall") and not d.startswith("gamehall-sdk") for d in sdk["project"]["dependencies"]
    )


LAYOUT_ROW = re.compile(r"^\| ((?:`[^`]+`(?:, )?)+) \|", re.MULTILINE)
LAYOUT_HEADER = "| path | what lives there |"
GENERATED = {"v1", "internal", "events"}
"""Packages of libs/gamehall generated from protos/gamehall/<same name> (`make proto`)."""


def _layout_rows() -> list[str]:
    """The paths in the first column of the README's layout table; `a/b`, `c` means `a/b` and `a/c`."""
    text = (ROOT / "README.md").read_text()
    start = text.find(LAYOUT_HEADER)
    table = text[start : text.find("\n\n", start)] if start >= 0 else ""
    paths: list[str] = []
    for match in LAYOUT_ROW.finditer(table):
        parent = ""
        for item in re.findall(r"`([^`]+)`", match.group(1)):
            item = item.rstrip("/")
            if "/" not in item and parent:
                item = f"{parent}/{item}"
            parent = item.rsplit("/", 1)[0] if "/" in item else ""
            paths.append(item)
    return paths


def _tracked() -> list[str]:
    return subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.splitlines()


def test_top_level_layout() -> None:
    """The README's layout table is the map: each row names something that exists, and every top-level
    folder, library package and service has a row (a package added without a word in the map fails)."""
    rows = _layout_rows()
    assert rows, "the README lost its layout table"
    for path in rows:
        concrete = path.split("/<", 1)[0]  # `libs/gamehall/games/<game>`: the folder holding them
        assert (ROOT / concrete).exists(), f"the README's layout names {path}, which does not exist"
    covered = {path.split("/<", 1)[0] for path in rows}
    tracked = _tracked()
    folders = {line.split("/", 1)[0] for line in tracked if "/" in line and not line.startswith(".")}
    assert {"libs", "services", "protos", "deploy", "helm", "tests"} <= folders
    missing = sorted(f for f in folders if not any(c == f or c.startswith(f + "/") for c in covered))
    assert not missing, f"top-level folders with no row in the README's layout table: {missing}"
    packages = {line.split("/")[2] for line in tracked if re.fullmatch(r"libs/gamehall/\w+/__init__\.py", line)}
    assert not packages - GENERATED - {p.removeprefix("libs/gamehall/") for p in covered}, (
        f"library packages with no row in the README's layout table: "
        f"{sorted(packages - GENERATED - {p.removeprefix('libs/gamehall/') for p in covered})}"
    )
    assert all((ROOT / "protos" / "gamehall" / name).is_dir() for name in GENERATED & packages)
    for service in (p.parent for p in (ROOT / "services").glob("*/__init__.py")):
        assert (service / "__main__.py").is_file(), f"services/{service.name} cannot run as `python -m`"
    for name in ("Makefile", "pyproject.toml", "README.md"):
        assert (ROOT / name).is_file()
    ci = ROOT / ".ci" / "run"
    assert os.access(ci, os.X_OK) and "make test" in ci.read_text(), ".ci/run must run the README's `make test`"
