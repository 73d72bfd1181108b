"""Listening ports for child processes, chosen so that nothing else takes them before the child binds.

A port the OS hands out for `bind(0)` comes from the ephemeral range, the same range every
outgoing connection on the machine draws its local port from. Between picking such a port
and the child binding it (seconds, while earlier children start), any connection could take
it: CI saw a rules host fail with "Failed to bind to address 127.0.0.1:60669" that way.

So ports are picked below the ephemeral range, where the kernel never assigns one on its own,
and each pick is claimed with an advisory lock file held for the life of this process, so two
launchers on one machine (pytest-xdist workers, two `gamehall run`) never pick the same one.
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import os
import random
import socket
import tempfile
from pathlib import Path

#: Lowest port handed out; below it sit the well-known and commonly configured ports.
LOWEST_PORT = 20000
#: Fewer candidates than this below the ephemeral range and the OS picks instead (a tuned kernel).
MIN_CANDIDATES = 2000
ATTEMPTS = 200
_EPHEMERAL_RANGE_FILE = Path("/proc/sys/net/ipv4/ip_local_port_range")
_DEFAULT_EPHEMERAL_LOW = 32768

#: Claims outlive the bind they protect by far: a claim this many picks old is dropped (bounds open files).
MAX_CLAIMS = 256

#: Every port this process handed out, never handed out twice.
_handed_out: set[int] = set()
#: Lock files held open by this process, oldest first (closing one releases the claim).
_claims: collections.OrderedDict[int, int] = collections.OrderedDict()


def ephemeral_low() -> int:
    """The first port of the kernel's ephemeral range (Linux's default where it cannot be read)."""
    try:
        return int(_EPHEMERAL_RANGE_FILE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return _DEFAULT_EPHEMERAL_LOW


def _lock_dir() -> Path:
    folder = Path(tempfile.gettempdir()) / "gamehall-ports"
    folder.mkdir(mode=0o1777, exist_ok=True)
    return folder


def _claim(port: int) -> bool:
    """Hold port's lock file for the rest of this process; False when another process holds it."""
    path = _lock_dir() / f"{port}.lock"
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return False
    _claims[port] = fd
    while len(_claims) > MAX_CLAIMS:
        _, oldest = _claims.popitem(last=False)
        os.close(oldest)
    return True


def _bindable(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def _os_port(host: str) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free on `host`, outside the ephemeral range and claimed by this process.

    A port is handed out once per process: a stopped child's port is not reused, so a new
    child never meets its predecessor's lingering connections.
    """
    low = ephemeral_low()
    if low - LOWEST_PORT < MIN_CANDIDATES:
        return _os_port(host)
    for _ in range(ATTEMPTS):
        port = random.randrange(LOWEST_PORT, low)
        if port in _handed_out or not _claim(port):
            continue
        _handed_out.add(port)
        if _bindable(host, port):
            return port
        # Something unrelated listens there; it stays in _handed_out, so it is not tried again.
    return _os_port(host)


def release_all() -> None:
    """Drop every claim this process holds (for tests of the allocator itself)."""
    _handed_out.clear()
    for fd in _claims.values():
        with contextlib.suppress(OSError):
            os.close(fd)
    _claims.clear()
