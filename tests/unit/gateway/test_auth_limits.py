"""Failed-login backoff doubles and caps; client addresses lose their port (issue 20, finding 6); limits are per
(username, client address) and the web service vouches for browsers' addresses (issue 38)."""

from __future__ import annotations

from typing import Any

import grpc
import pytest

from gamehall.runtime.errors import ClientError
from gamehall.web import client_address as web_client
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
        limits.login_failed("eve", "10.0.0.1")
        waits.append(limits.backoff_left("eve", "10.0.0.1"))
    assert waits == [0.0, 0.0, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    with pytest.raises(ClientError) as held:
        limits.check_login("eve", "10.0.0.1")
    assert held.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED and "retry in 8 s" in held.value.message
    clock.now += 8.0
    limits.check_login("eve", "10.0.0.1")
    limits.login_succeeded("eve", "10.0.0.1")
    assert limits.backoff_left("eve", "10.0.0.1") == 0.0


def test_a_username_is_one_whatever_its_case() -> None:
    limits = AuthLimits(free_failures=1, clock=_Clock())
    limits.login_failed("Eve", "10.0.0.1")
    assert limits.backoff_left("eVE", "10.0.0.1") == 1.0


def test_client_address_without_port_and_forwarded_only_when_trusted() -> None:
    assert client_address(_Context("ipv4:203.0.113.9:51234")) == "203.0.113.9"  # type: ignore[arg-type]
    assert client_address(_Context("ipv6:[2001:db8::1]:443")) == "2001:db8::1"  # type: ignore[arg-type]
    proxied = _Context("ipv4:10.0.0.2:1", (("x-forwarded-for", "198.51.100.7, 10.0.0.2"),))
    assert client_address(proxied) == "10.0.0.2"  # type: ignore[arg-type]
    assert client_address(proxied, trust_forwarded_for=True) == "198.51.100.7"  # type: ignore[arg-type]


def test_a_stranger_failing_logins_does_not_lock_the_owner_out() -> None:
    """30 bad logins for `operator` from one browser: that browser backs off, the operator's own browser and any
    other browser are not held back at all (per-username windows and the backoff are per client address)."""
    clock = _Clock()
    limits = AuthLimits(clock=clock)
    refused = 0
    for _ in range(30):
        try:
            limits.check_login("operator", "web:198.51.100.66")
            limits.login_failed("operator", "web:198.51.100.66")
        except ClientError:
            refused += 1
        clock.now += 0.5
    assert refused > 0 and limits.backoff_left("operator", "web:198.51.100.66") > 0
    assert limits.backoff_left("operator", "web:203.0.113.5") == 0.0
    limits.check_login("operator", "web:203.0.113.5")  # the operator's browser: no wait, no refusal
    limits.check_login("someone", "web:192.0.2.44")  # another browser


def test_the_gateway_believes_only_the_web_services_vouched_address() -> None:
    key = b"k" * 32
    bridge = "ipv4:127.0.0.1:40000"
    vouched = _Context(bridge, ((web_client.HEADER, web_client.vouch(key, "198.51.100.7")),))
    assert client_address(vouched, web_key=key) == "web:198.51.100.7"  # type: ignore[arg-type]
    assert client_address(vouched) == "127.0.0.1"  # type: ignore[arg-type]  # no key: not believed
    forged = _Context(bridge, ((web_client.HEADER, "198.51.100.8;" + "0" * 64),))
    assert client_address(forged, web_key=key) == "127.0.0.1"  # type: ignore[arg-type]
    other_key = _Context(bridge, ((web_client.HEADER, web_client.vouch(b"x" * 32, "198.51.100.9")),))
    assert client_address(other_key, web_key=key) == "127.0.0.1"  # type: ignore[arg-type]
    assert web_client.vouched(key, web_client.vouch(key, "2001:db8::1")) == "2001:db8::1"
