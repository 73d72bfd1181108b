"""No secret has a public default: embedded starts generate theirs, other starts must be given one."""

from __future__ import annotations

import stat
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from pydantic import SecretStr

from gamehall.runtime import embedded_secrets
from gamehall.runtime.embedded_secrets import MissingSecret, is_loopback, operator_password, token_key
from gamehall.runtime.settings import Settings

OLD_PUBLIC_DEFAULT = "gamehall-embedded-development-key-change-me"


@pytest.fixture(autouse=True)
def _no_configured_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GAMEHALL_TOKEN_KEY", "GAMEHALL_OPERATOR_PASSWORD", "GAMEHALL_ENVIRONMENT", "GAMEHALL_HOST"):
        monkeypatch.delenv(name, raising=False)


def test_settings_carry_no_default_signing_key() -> None:
    assert Settings().token_key.get_secret_value() == ""
    assert OLD_PUBLIC_DEFAULT not in Path(embedded_secrets.__file__).read_text()


def test_embedded_start_generates_a_private_key_once_per_data_dir(tmp_path: Path) -> None:
    first = token_key(Settings(data_dir=tmp_path / "a"))
    again = token_key(Settings(data_dir=tmp_path / "a"))
    other = token_key(Settings(data_dir=tmp_path / "b"))
    assert first.created and not again.created
    assert first.value == again.value != other.value
    assert len(first.value.encode()) >= embedded_secrets.MIN_KEY_BYTES
    path = Path(first.source)
    assert path.parent == tmp_path / "a" / "secrets"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_services_starting_together_agree_on_one_key(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    with ThreadPoolExecutor(8) as pool:
        secrets = list(pool.map(lambda _: token_key(settings), range(32)))
    assert len({s.value for s in secrets}) == 1
    assert sum(s.created for s in secrets) == 1
    assert [p.name for p in (tmp_path / "secrets").iterdir()] == ["token-key"]  # no temporary file left


def test_a_configured_key_wins_and_must_be_long_enough(tmp_path: Path) -> None:
    key = "k" * 40
    assert token_key(Settings(data_dir=tmp_path, token_key=SecretStr(key))).value == key
    assert not (tmp_path / "secrets").exists()
    with pytest.raises(MissingSecret, match="at least 32 bytes"):
        token_key(Settings(data_dir=tmp_path, token_key=SecretStr("short")))


@pytest.mark.parametrize(
    "overrides",
    [{"host": "0.0.0.0"}, {"host": "10.1.2.3"}, {"host": "::"}, {"environment": "production"}],
    ids=["any-interface", "private-address", "ipv6-any", "production"],
)
def test_a_non_embedded_start_without_a_key_refuses(tmp_path: Path, overrides: dict[str, str]) -> None:
    with pytest.raises(MissingSecret, match="GAMEHALL_TOKEN_KEY is not set"):
        token_key(Settings(data_dir=tmp_path, **overrides))  # type: ignore[arg-type]
    assert not (tmp_path / "secrets").exists()


def test_operator_password_is_generated_embedded_and_absent_in_production(tmp_path: Path) -> None:
    generated = operator_password(Settings(data_dir=tmp_path))
    assert generated is not None and generated.created and len(generated.value) >= 20
    assert operator_password(Settings(data_dir=tmp_path)).value == generated.value  # type: ignore[union-attr]
    assert operator_password(Settings(data_dir=tmp_path / "p", environment="production")) is None
    configured = operator_password(Settings(data_dir=tmp_path, operator_password=SecretStr("given pass 42")))
    assert configured is not None and (configured.value, configured.source) == ("given pass 42", "environment")


def test_an_emptied_secret_file_is_reported_not_used(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    path = Path(token_key(settings).source)
    path.write_text("\n")
    with pytest.raises(MissingSecret, match="empty"):
        token_key(settings)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.5.0.1", True), ("::1", True), ("[::1]", True), ("localhost", True),
     ("0.0.0.0", False), ("192.168.1.4", False), ("gateway.example", False)],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback
