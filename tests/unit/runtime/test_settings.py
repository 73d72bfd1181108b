from __future__ import annotations

import pytest
from pydantic import ValidationError

from gamehall.runtime.settings import Settings


def test_defaults_are_embedded(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("GAMEHALL_DATABASE_URL", "GAMEHALL_DATA_DIR", "GAMEHALL_NATS_URL"):
        monkeypatch.delenv(key, raising=False)
    s = Settings()
    assert s.nats_url == "nats://127.0.0.1:4222"
    assert s.database_dsn().startswith("sqlite:///") and s.database_dsn().endswith("var/gamehall.db")


def test_environment_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMEHALL_SERVICE", "gateway")
    monkeypatch.setenv("GAMEHALL_GRPC_PORT", "6000")
    monkeypatch.setenv("GAMEHALL_RULES_ADDRS", '{"grimmoir": "rules:1"}')
    monkeypatch.setenv("GAMEHALL_DATABASE_URL", "postgresql://u@h/db")
    s = Settings()
    assert (s.service, s.grpc_port, s.rules_addrs) == ("gateway", 6000, {"grimmoir": "rules:1"})
    assert s.database_dsn() == "postgresql://u@h/db"


@pytest.mark.parametrize(
    ("var", "value", "field"),
    [
        ("GAMEHALL_GRPC_PORT", "70000", "grpc_port"),
        ("GAMEHALL_SERVICE", "bad name!", "service"),
        ("GAMEHALL_LOG_FORMAT", "xml", "log_format"),
    ],
)
def test_invalid_values_fail_with_the_field_name(
    monkeypatch: pytest.MonkeyPatch, var: str, value: str, field: str
) -> None:
    monkeypatch.setenv(var, value)
    with pytest.raises(ValidationError, match=field):
        Settings()


def test_secrets_are_not_printed() -> None:
    assert "change-me" not in repr(Settings())
