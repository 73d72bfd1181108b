"""The throwaway-PostgreSQL helper and the ensure script, without starting a server."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from gamehall.testing import postgres

ROOT = Path(__file__).resolve().parents[3]


def test_no_binaries_and_no_docker_fails_with_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(postgres.DSN_ENV, raising=False)
    monkeypatch.setattr(postgres, "docker_available", lambda: False)
    monkeypatch.setattr(postgres, "find_pg_bindir", lambda: None)
    with (
        pytest.raises(postgres.PostgresUnavailable, match=r"deploy/local/ensure-postgres\.sh"),
        postgres.throwaway_postgres(),
    ):
        pass


def test_an_external_server_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(postgres.DSN_ENV, "postgresql://u@db.example:5432/x")
    with postgres.throwaway_postgres() as server:
        assert (server.backend, server.dsn) == ("external", "postgresql://u@db.example:5432/x")


def test_docker_detection_never_raises() -> None:
    assert postgres.docker_available() in (True, False)


def _fake_bindir(tmp_path: Path) -> Path:
    bindir = tmp_path / "pgbin"
    bindir.mkdir()
    for name in ("initdb", "pg_ctl"):
        tool = bindir / name
        tool.write_text(f"#!/bin/sh\necho '{name} (PostgreSQL) 99.0'\n")
        tool.chmod(0o755)
    return bindir


def test_find_pg_bindir_honours_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bindir = _fake_bindir(tmp_path)
    monkeypatch.setenv(postgres.BIN_ENV, str(bindir))
    assert postgres.find_pg_bindir() == bindir


def test_ensure_script_reports_present_binaries_without_installing(tmp_path: Path) -> None:
    bindir = _fake_bindir(tmp_path)
    done = subprocess.run(
        ["bash", str(ROOT / "deploy/local/ensure-postgres.sh")],
        env={**os.environ, postgres.BIN_ENV: str(bindir)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == str(bindir)
    assert "already present" in done.stderr and "apt-get" not in done.stderr
