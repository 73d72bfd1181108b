"""The launcher's port picks: below the ephemeral range, never twice, never one another process claims."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from gamehall.launcher import ports


@pytest.fixture(autouse=True)
def _fresh_claims() -> None:
    ports.release_all()


def test_ports_come_from_below_the_ephemeral_range_and_are_never_handed_out_twice() -> None:
    low = ports.ephemeral_low()
    if low - ports.LOWEST_PORT < ports.MIN_CANDIDATES:
        pytest.skip(f"this kernel's ephemeral range starts at {low}: the OS picks")
    picked = [ports.free_port() for _ in range(50)]
    assert len(set(picked)) == 50
    assert all(ports.LOWEST_PORT <= p < low for p in picked)


def test_a_port_someone_listens_on_is_not_handed_out(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        candidates = iter([taken, taken + 1 if taken + 1 < 65536 else taken - 1])
        monkeypatch.setattr(ports, "ephemeral_low", lambda: 65535)
        monkeypatch.setattr(ports.random, "randrange", lambda _a, _b: next(candidates))
        assert ports.free_port() != taken


def test_a_port_claimed_by_another_process_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two launchers on one machine (two pytest-xdist workers) never pick the same port."""
    mine = ports.free_port()
    other = subprocess.run(
        [
            sys.executable,
            "-c",
            "import random, sys; from gamehall.launcher import ports\n"
            f"random.randrange = lambda a, b, it=iter([{mine}] * 5 + [{mine + 1}]): next(it)\n"
            "print(ports.free_port())",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert int(other.stdout) == mine + 1
