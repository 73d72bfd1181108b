"""The SDK's distribution metadata (issue 39): compatible version ranges, never exact pins that clash with a
client's own setup, with lower bounds that the generated stubs actually accept."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

SDK = Path(__file__).resolve().parents[3] / "sdk"


def _requirements() -> dict[str, Requirement]:
    project = tomllib.loads((SDK / "pyproject.toml").read_text())["project"]
    return {Requirement(text).name: Requirement(text) for text in project["dependencies"]}


def test_dependencies_are_ranges_not_pins() -> None:
    for name, requirement in _requirements().items():
        operators = {spec.operator for spec in requirement.specifier}
        assert "==" not in operators and "===" not in operators, f"{name} is pinned: {requirement}"
        assert ">=" in operators and "<" in operators, f"{name} needs a lower bound and a next-major ceiling"


def test_lower_bounds_are_what_the_generated_stubs_accept() -> None:
    """A lower bound below the generating versions would install and then fail at import."""
    requirements = _requirements()
    grpc_stub = (SDK / "gamehall_sdk" / "v1" / "match_pb2_grpc.py").read_text()
    generated = re.search(r"GRPC_GENERATED_VERSION = '([\d.]+)'", grpc_stub)
    assert generated is not None
    assert requirements["grpcio"].specifier.contains(generated.group(1))
    assert not requirements["grpcio"].specifier.contains(str(Version(generated.group(1)).major) + ".0")
    message_stub = (SDK / "gamehall_sdk" / "v1" / "common_pb2.py").read_text()
    gencode = re.search(r"Domain\.PUBLIC,\s*(\d+),\s*(\d+),\s*(\d+),", message_stub)
    assert gencode is not None
    version = ".".join(gencode.groups())
    assert requirements["protobuf"].specifier.contains(version)
    assert not requirements["protobuf"].specifier.contains(f"{int(gencode.group(1)) + 1}.0.0")
