"""Running matches that nobody moves cost the platform nothing per match (ARCHITECTURE rule 7):
the CPU of every platform process with 1,000 clocked running matches is within 1.2x of that with 10."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gamehall.bench.move_path import idle_ratio
from gamehall.launcher.platform import Platform
from tests.e2e.conftest import AUTH_UNLIMITED, TOKEN_KEY
from tests.support.processes import repo_env

WINDOW_SECONDS = 6.0
ATTEMPTS = 3


@pytest.fixture
def quiet_platform(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Platform]:
    """A platform of its own: the shared one carries other tests' bots and tournaments."""
    for key, value in repo_env().items():
        monkeypatch.setenv(key, value)
    env = {
        "GAMEHALL_TOKEN_KEY": TOKEN_KEY,
        "GAMEHALL_LOG_LEVEL": "warning",
        "GAMEHALL_GATEWAY_RATE_PER_SECOND": "100000",
        "GAMEHALL_GATEWAY_RATE_BURST": "100000",
        **AUTH_UNLIMITED,
    }
    platform = Platform(data_dir=tmp_path, games=["high-card"], fixed_ports=False, extra_env=env)
    platform.start()
    try:
        yield platform
    finally:
        platform.stop()


def test_idle_cpu_does_not_grow_with_the_number_of_running_matches(quiet_platform: Platform) -> None:
    # Sequential: a busy machine (the other test worker) shifts a 6 s window by some thousandths of a core,
    # a fifth of the ~0.03 cores measured (1.00x here quiet, 1.21x once in CI). A reading over the limit is
    # measured again and judged on all windows so far: a real growth stays over the limit on every reading.
    few_total = many_total = 0.0
    for attempt in range(1, ATTEMPTS + 1):
        few, many, ratio = idle_ratio(quiet_platform, WINDOW_SECONDS, open_base=attempt == 1)
        few_total, many_total = few_total + few, many_total + many
        print(f"\n[idle {attempt}] 10 matches: {few:.4f} cores, 1,000 matches: {many:.4f} cores ({ratio:.2f}x)")
        if many_total <= 1.2 * few_total:
            break
    pooled = many_total / few_total
    assert pooled <= 1.2, f"idle CPU grew {pooled:.2f}x from 10 to 1,000 running matches over {attempt} readings"
