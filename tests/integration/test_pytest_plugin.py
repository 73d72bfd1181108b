"""The SDK's pytest plugin for other people's integration tests (issue 39): the README's ten-line test of a
third-party bot, run by pytest in a directory of its own (nothing of this repository's test setup), starts a
gamehall through the plugin's fixtures (local processes here: no Docker), plays a match against a bot and
passes; without Docker and without the server package, the fixture fails saying what to install."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gamehall_sdk import testing

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
HEADING = "### Integration tests of your own bot or client (`gamehall-sdk[testing]`)"


def _readme_test(readme: Path) -> str:
    section = readme.read_text().split(HEADING, 1)[1]
    found = re.search(r"```python\n(.*?)```", section, flags=re.DOTALL)
    assert found is not None, f"{readme} shows the plugin's example"
    return found.group(1)


def test_the_readmes_show_the_same_ten_line_test() -> None:
    code = _readme_test(ROOT / "README.md")
    assert code == _readme_test(ROOT / "sdk" / "README.md")
    assert len(code.strip().splitlines()) <= 11 and "gamehall_bot_match" in code


def _outsider_environment() -> dict[str, str]:
    """This process's environment without what this repository's suite sets for itself (its fixture games in
    GAMEHALL_GAME_MODULES, its import paths): a third party's pytest has none of it."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("GAMEHALL_", "PYTEST_")) and k != "PYTHONPATH"}


def test_the_readme_test_starts_a_stack_and_passes(tmp_path: Path) -> None:
    (tmp_path / "test_my_bot.py").write_text(_readme_test(ROOT / "README.md"))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--gamehall-backend", "local", "-rA"],
        cwd=tmp_path,
        env=_outsider_environment(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "1 passed" in done.stdout


def test_without_docker_or_the_server_package_the_error_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GAMEHALL_TEST_BACKEND", "local")
    monkeypatch.setitem(sys.modules, "gamehall.launcher.platform", None)  # as if the server were not installed
    with pytest.raises(testing.StackUnavailable) as missing, testing.running_stack(data_dir=tmp_path):
        pass
    message = str(missing.value)
    assert "Docker" in message and "pip install" in message and "gamehall-sdk[testing]" in message
