"""Third-party clients against a platform started as `make run` starts it (TLS on the gateway), issue 39:
the SDK's quick-starts (the README's, sdk/README.md's and the module docstring's) run as written, with only the
address, the certificate path and the username put in; the SDK line of the `gamehall run` banner works as
printed; `gamehall audit` reads the audit log over TLS with what it finds in the data dir; and `gamehall play`
without a CA names TLS as the likely cause."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gamehall_sdk
from gamehall.cli.main import app
from gamehall.launcher.platform import Platform
from gamehall.launcher.security import trust_instructions
from gamehall_sdk import Gamehall
from tests.support.processes import repo_env

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
PRINTED_ADDRESS = "127.0.0.1:50051"
PRINTED_CERTIFICATE = "var/tls/gateway-public.crt"


@pytest.fixture(scope="module")
def secure(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    saved = dict(os.environ)
    os.environ.update(repo_env())
    for name in ("GAMEHALL_OPERATOR_PASSWORD", "GAMEHALL_TOKEN_KEY"):
        os.environ.pop(name, None)
    # The module's clients all register from one address: more than the default 5 a minute (limits have their tests)
    unlimited = {"GAMEHALL_AUTH_REGISTER_PER_IP": "100000/minute", "GAMEHALL_AUTH_LOGIN_PER_IP": "100000/minute"}
    platform = Platform(
        data_dir=tmp_path_factory.mktemp("tls"), games=["grimmoir"], fixed_ports=False, secure=True, extra_env=unlimited
    )
    try:
        platform.start()
        yield platform
    finally:
        platform.stop()
        os.environ.clear()
        os.environ.update(saved)


def _certificate(platform: Platform) -> Path:
    assert platform.security is not None and platform.security.public is not None
    return platform.security.public.cert


def _python_blocks(markdown: str, after: str) -> list[str]:
    """The ```python blocks of `markdown` in the section that starts with the heading line `after`."""
    section = markdown.split(after, 1)[1]
    section = re.split(r"\n#{1,3} ", section, maxsplit=1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)


def _docstring_block(doc: str) -> str:
    lines = [line for line in doc.splitlines() if line.startswith("    ") or not line.strip()]
    start = next(k for k, line in enumerate(lines) if line.strip().startswith("import asyncio"))
    end = next(k for k, line in enumerate(lines) if line.strip().startswith("asyncio.run("))
    return "\n".join(line[4:] for line in lines[start : end + 1]) + "\n"


def quickstarts() -> dict[str, str]:
    readme = (ROOT / "README.md").read_text()
    sdk_readme = (ROOT / "sdk" / "README.md").read_text()
    found = {
        "README.md, The Python SDK": _python_blocks(readme, "### The Python SDK\n"),
        "sdk/README.md": _python_blocks(sdk_readme, "# gamehall-sdk\n"),
    }
    blocks = {name: codes[0] for name, codes in found.items() if codes}
    assert set(blocks) == set(found), "every quick-start section keeps its python block"
    blocks["gamehall_sdk's docstring"] = _docstring_block(gamehall_sdk.__doc__ or "")
    return blocks


def test_the_quick_starts_are_written_for_the_tls_platform_and_a_hosted_game() -> None:
    for name, code in quickstarts().items():
        assert f'ca_file="{PRINTED_CERTIFICATE}"' in code and PRINTED_ADDRESS in code, name
        assert '"grimmoir"' in code and "high-card" not in code, name


def test_the_sdk_quick_starts_run_as_written(secure: Platform, tmp_path: Path) -> None:
    address, certificate = secure.service("gateway").address, _certificate(secure)
    for name, code in quickstarts().items():
        runnable = (
            code.replace(PRINTED_ADDRESS, address)
            .replace(PRINTED_CERTIFICATE, str(certificate))
            .replace('"carol"', f'"qs-{uuid.uuid4().hex[:10]}"')
        )
        done = subprocess.run(
            [sys.executable, "-c", runnable], cwd=tmp_path, capture_output=True, text=True, timeout=240
        )
        assert done.returncode == 0, f"{name}:\n{done.stdout}\n{done.stderr}"
        ranks = json.loads(done.stdout.strip().splitlines()[-1].split("]")[0] + "]")
        assert sorted(ranks) in ([1, 2], [1, 1]), (name, done.stdout)


def test_the_banner_gives_sdk_users_a_line_that_works_as_printed(secure: Platform) -> None:
    assert secure.security is not None
    address = secure.service("gateway").address
    banner = trust_instructions(secure.security, address)
    assert "pass --ca-file" not in banner.split("Python SDK")[-1].splitlines()[0]
    printed = re.search(r"Python SDK:\s+(Gamehall\.connect\(.*?\))\n", banner)
    assert printed is not None, banner
    expression = printed.group(1)
    assert expression == f"Gamehall.connect('{address}', ca_file='{_certificate(secure)}')"

    async def scenario() -> None:
        async with eval(expression, {"Gamehall": Gamehall}) as hall:
            await hall.register(f"banner-{uuid.uuid4().hex[:10]}", "a long passphrase 42")
            assert (await hall.whoami()).username.startswith("banner-")

    asyncio.run(scenario())


def test_gamehall_audit_reads_the_log_over_tls_from_the_data_dir(secure: Platform) -> None:
    """As the README shows it (`gamehall audit --since 24h`), with the platform's data dir and port in place of
    `make run`'s defaults: the certificate and the operator's password come from the data dir."""
    address = secure.service("gateway").address
    runner = CliRunner()
    args = ["audit", "--since", "24h", "--gateway", address, "--data-dir", str(secure.data_dir)]
    done = runner.invoke(app, [*args, "--json"])
    assert done.exit_code == 0, done.output
    assert "events" in json.loads(done.output)
    table = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert table.exit_code == 0 and "Operator actions" in table.output, table.output
    plaintext = runner.invoke(app, [*args, "--plaintext"])
    assert plaintext.exit_code == 2 and "--ca-file" in plaintext.output, plaintext.output


def test_gamehall_play_without_a_ca_names_tls(secure: Platform) -> None:
    address = secure.service("gateway").address
    args = ["play", "--game", "grimmoir", "--gateway", address, "--register", "--connect-timeout", "2"]
    done = CliRunner().invoke(app, args, env={"COLUMNS": "300"})
    assert done.exit_code == 1, done.output
    assert "cannot reach the gateway" in done.output and "TLS" in done.output and "--ca-file" in done.output


def test_the_sdk_pins_the_printed_fingerprint(secure: Platform) -> None:
    """`Gamehall.connect(address, fingerprint=...)` with the fingerprint `gamehall run` prints; a wrong one is
    refused before any call."""
    assert secure.security is not None
    address = secure.service("gateway").address
    printed = re.search(r"SHA-256 fingerprint ([0-9A-F:]+)", trust_instructions(secure.security, address))
    assert printed is not None

    async def scenario() -> None:
        async with Gamehall.connect(address, fingerprint=printed.group(1)) as hall:
            await hall.register(f"pin-{uuid.uuid4().hex[:10]}", "a long passphrase 42")
        with pytest.raises(ValueError, match="fingerprint"):
            Gamehall.connect(address, fingerprint="00" * 32)

    asyncio.run(scenario())


def test_the_readme_api_blocks_run_against_the_tls_platform(secure: Platform, tmp_path: Path) -> None:
    """The README's raw-gRPC blocks ("Playing through the API": a match played to its end with the stubs, then
    the AIP-193 error details and the AIP-158 pages), run one after the other as written, with the address, the
    certificate path and the usernames put in."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Playing through the API\n", 1)[1].split("### The Python SDK\n", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)
    assert len(blocks) == 3, "play, error details, pages"
    suffix = uuid.uuid4().hex[:8]
    code = (
        "\n".join(blocks)
        .replace(PRINTED_ADDRESS, secure.service("gateway").address)
        .replace(PRINTED_CERTIFICATE, str(_certificate(secure)))
        .replace('register("alice")', f'register("alice-{suffix}")')
        .replace('register("bob")', f'register("bob-{suffix}")')
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert "FAILED_PRECONDITION gamehall.dev" in done.stdout, "the error block read the standard details"
