"""Failed-login backoff doubles and caps; client addresses lose their port (issue 20, finding 6)."""

from __future__ import annotations

from typing import Any

import grpc
import pytest

from gamehall.runtime.errors import ClientError
from gamehall_services.gateway.auth_limits import AuthLimits, client_address


class _Context:
    def __init__(self, peer: str, metadata: tuple[tuple[str, str], ...] = ()) -> None:
        self._peer, self._metadata = peer, metadata

    def peer(self) -> str:
        return self._peer

    def invocation_metadata(self) -> Any:
        return self._metadata


class _Clock:
    now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_backoff_doubles_after_the_free_failures_and_caps() -> None:
    clock = _Clock()
    limits = AuthLimits(free_failures=3, max_backoff=8.0, clock=clock)
    waits = []
    for _ in range(8):
        limits.login_failed("eve")
        waits.append(limits.backoff_left("eve"))
    assert waits == [0.0, 0.0, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    with pytest.raises(ClientError) as held:
        limits.check_login("eve", "10.0.0.1")
    assert held.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED and "retry in 8 s" in held.value.message
    clock.now += 8.0
    limits.check_login("eve", "10.0.0.1")
    limits.login_succeeded("eve")
    assert limits.backoff_left("eve") == 0.0


def test_a_username_is_one_whatever_its_case() -> None:
    limits = AuthLimits(free_failures=1, clock=_Clock())
    limits.login_failed("Eve")
    assert limits.backoff_left("eVE") == 1.0


def test_client_address_without_port_and_forwarded_only_when_trusted() -> None:
    assert client_address(_Context("ipv4:203.0.113.9:51234")) == "203.0.113.9"  # type: ignore[arg-type]
    assert client_address(_Context("ipv6:[2001:db8::1]:443")) == "2001:db8::1"  # type: ignore[arg-type]
    proxied = _Context("ipv4:10.0.0.2:1", (("x-forwarded-for", "198.51.100.7, 10.0.0.2"),))
    assert client_address(proxied) == "10.0.0.2"  # type: ignore[arg-type]
    assert client_address(proxied, trust_forwarded_for=True) == "198.51.100.7"  # type: ignore[arg-type]
