"""What `gamehall run` prints for operators and clients (issue 39): the operator password once, on a terminal,
when it is made, never again and never into a log; the client hints name options that exist."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamehall.cli.run_cmd import operator_login


@pytest.fixture(autouse=True)
def _embedded(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GAMEHALL_OPERATOR_PASSWORD", "GAMEHALL_HOST", "GAMEHALL_ENVIRONMENT"):
        monkeypatch.delenv(name, raising=False)


def test_the_operator_password_is_shown_once_on_a_terminal(tmp_path: Path) -> None:
    first = operator_login(tmp_path, terminal=True)
    password = (tmp_path / "secrets" / "operator-password").read_text().strip()
    assert f"with password {password}" in first and "only this once" in first
    again = operator_login(tmp_path, terminal=True)
    assert password not in again
    assert f"the password kept in {tmp_path.resolve() / 'secrets' / 'operator-password'}" in again


def test_a_log_never_gets_the_operator_password(tmp_path: Path) -> None:
    """stderr under a supervisor (systemd, docker, nohup) is a log: even the first start names the file only."""
    shown = operator_login(tmp_path, terminal=False)
    password = (tmp_path / "secrets" / "operator-password").read_text().strip()
    assert password not in shown and "the password kept in" in shown


def test_a_configured_password_is_never_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMEHALL_OPERATOR_PASSWORD", "configured secret 1234")
    shown = operator_login(tmp_path, terminal=True)
    assert "configured secret" not in shown and "GAMEHALL_OPERATOR_PASSWORD" in shown
