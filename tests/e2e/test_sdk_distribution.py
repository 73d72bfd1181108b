"""The SDK as its own distribution: `pip install ./sdk` into a fresh virtualenv (cached in .venv-sdk,
rebuilt when sdk/ changes) holds gamehall-sdk and only its gRPC/protobuf dependencies, and the SDK's
own suite (sdk/tests, unittest) passes there against the platform this session started."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.e2e.conftest import Running

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "sdk"
VENV = ROOT / ".venv-sdk"
STAMP = VENV / "gamehall-sdk.sha256"
ALLOWED = {
    *("gamehall-sdk", "grpcio", "grpcio-status", "protobuf", "googleapis-common-protos"),
    "typing-extensions",  # grpcio's own dependency
    *("pip", "setuptools"),  # the virtualenv's tools
}
"""Every distribution the SDK's virtualenv may hold: the SDK, its four dependencies (and theirs), the venv's tools."""


def _clean_env() -> dict[str, str]:
    """This process's environment without what would let the checkout or the server's venv leak in."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}


def _sdk_digest() -> str:
    """A hash of everything pip installs from sdk/ (its tests excluded)."""
    digest = hashlib.sha256()
    for path in sorted(SDK.rglob("*")):
        if path.is_file() and "tests" not in path.relative_to(SDK).parts and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(SDK)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _sdk_python() -> Path:
    """The virtualenv's python with the current sdk/ installed (made or refreshed only when needed)."""
    python = VENV / "bin" / "python"
    wanted = _sdk_digest()
    if python.exists() and STAMP.exists() and STAMP.read_text() == wanted:
        return python
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True, timeout=300, env=_clean_env())
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "--force-reinstall", "--no-deps", str(SDK)], check=True, timeout=600, env=_clean_env())
    subprocess.run([*pip, str(SDK)], check=True, timeout=600, env=_clean_env())  # its pinned dependencies
    STAMP.write_text(wanted)
    return python


def test_the_sdk_stands_alone_and_its_suite_passes(platform: Running) -> None:
    python = _sdk_python()
    listed = subprocess.run(
        [str(python), "-m", "pip", "list", "--format=json", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=_clean_env(),
    )
    installed = {row["name"].lower().replace("_", "-") for row in json.loads(listed.stdout)}
    assert "gamehall-sdk" in installed and installed <= ALLOWED, f"unexpected: {sorted(installed - ALLOWED)}"
    env = {**_clean_env(), "GAMEHALL_SDK_TEST_ADDRESS": platform.address}
    suite = subprocess.run(
        [str(python), "-m", "unittest", "discover", "-s", str(SDK / "tests"), "-t", str(SDK / "tests"), "-v"],
        cwd=VENV,  # not the checkout: nothing of it may be importable
        env=env,
        capture_output=True,
        text=True,
        timeout=480,
    )
    report = suite.stdout + suite.stderr
    assert suite.returncode == 0, report
    assert "skipped" not in report.lower().split("ran ")[-1], report


TESTING_VENV = ROOT / ".venv-sdk-testing"


def test_the_testing_extra_alone_says_what_to_install_without_docker_or_the_server(tmp_path: Path) -> None:
    """Issue 39: in a clean virtualenv, `pip install ./sdk[testing]` and the README's ten-line test: where no
    Docker engine answers and the server package is not installed, the plugin's fixture fails with one message
    that says exactly what to install (with Docker, or the server package, the stack starts:
    tests/integration/test_pytest_plugin.py)."""
    python = TESTING_VENV / "bin" / "python"
    stamp = TESTING_VENV / "gamehall-sdk.sha256"
    if not (python.exists() and stamp.exists() and stamp.read_text() == _sdk_digest()):
        if not python.exists():
            subprocess.run([sys.executable, "-m", "venv", str(TESTING_VENV)], check=True, timeout=300, env=_clean_env())
        pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        subprocess.run([*pip, "--force-reinstall", "--no-deps", str(SDK)], check=True, timeout=600, env=_clean_env())
        subprocess.run([*pip, f"{SDK}[testing]"], check=True, timeout=900, env=_clean_env())
        stamp.write_text(_sdk_digest())
    readme = (ROOT / "README.md").read_text().split("`gamehall-sdk[testing]`)", 1)[1]
    (tmp_path / "test_my_bot.py").write_text(readme.split("```python\n", 1)[1].split("```", 1)[0])
    done = subprocess.run(
        [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        env={k: v for k, v in _clean_env().items() if k != "GAMEHALL_TEST_BACKEND"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    report = done.stdout + done.stderr
    assert done.returncode != 0, report
    assert "gamehall server package" in report and "pip install" in report and "Docker" in report, report
    assert "Traceback" not in report, "one message, not a stack"
