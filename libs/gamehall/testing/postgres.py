"""A throwaway PostgreSQL server for tests and benchmarks.

Where a Docker engine answers a ping, testcontainers runs the official image; otherwise the local
PostgreSQL binaries (`initdb`, `pg_ctl`) start a server in a temporary folder on a free loopback port
(through `runuser -u postgres --` when running as root), which is stopped and deleted at the end.
`GAMEHALL_TEST_POSTGRES_DSN` points the tests at an existing server instead.

    with throwaway_postgres() as server:          # plain code
        dsn = server.dsn

The pytest session fixture over it is `tests.support.postgres.postgres_server`.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

from gamehall.launcher.ports import free_port

ENSURE_SCRIPT = "deploy/local/ensure-postgres.sh"
IMAGE = "postgres:16-alpine"
DSN_ENV = "GAMEHALL_TEST_POSTGRES_DSN"
BIN_ENV = "GAMEHALL_PG_BIN"


class PostgresUnavailable(RuntimeError):
    """No way to run PostgreSQL here; the message says what to install."""


@dataclass(frozen=True)
class PostgresServer:
    """A running server: `dsn` names a database created for the tests; `backend` says how it runs."""

    dsn: str
    backend: str
    """`docker` (testcontainers), `local` (initdb/pg_ctl in a temp dir) or `external` (from the env)."""
    restart: Callable[[float], None] | None = field(default=None, compare=False, repr=False)
    """`local` only: an immediate (crash-like: no checkpoint, recovery at start) stop, `down` seconds away,
    and a start on the same port and data; the soak's PostgreSQL fault."""
    stop: Callable[[], None] | None = field(default=None, compare=False, repr=False)
    """`local` only: the crash-like stop alone (an outage until `start`)."""
    start: Callable[[], None] | None = field(default=None, compare=False, repr=False)
    """`local` only: start a stopped server again on the same port and data."""


# ----------------------------------------------------------------- detection
def docker_available() -> bool:
    """True if a Docker engine answers a ping (having the client installed is not enough)."""
    try:
        import docker

        client = docker.from_env(timeout=3)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:
        return False


def find_pg_bindir() -> Path | None:
    """The folder holding initdb and pg_ctl: $GAMEHALL_PG_BIN, the newest /usr/lib/postgresql/*/bin, or PATH."""
    candidates: list[Path] = []
    if os.environ.get(BIN_ENV):
        candidates.append(Path(os.environ[BIN_ENV]))

    def version_key(path: str) -> tuple[int, ...]:
        return tuple(int(p) for p in Path(path).parent.name.split(".") if p.isdigit())

    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version_key, reverse=True)]
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).parent)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


# ----------------------------------------------------------------- backends
@contextlib.contextmanager
def docker_postgres(image: str = IMAGE) -> Iterator[PostgresServer]:
    """The official image through testcontainers."""
    try:
        from testcontainers.community.postgres import PostgresContainer
    except ImportError:  # older testcontainers
        from testcontainers.postgres import PostgresContainer

    with PostgresContainer(image, driver=None) as container:
        yield PostgresServer(dsn=container.get_connection_url(), backend="docker")


@contextlib.contextmanager
def local_postgres(
    bindir: Path | None = None, database: str = "gamehall_test", *, crash_safe: bool = False
) -> Iterator[PostgresServer]:
    """initdb + pg_ctl in a temp dir on a free loopback port; stopped and deleted on exit.

    By default commits return before their WAL is written (fast tests; a server crash loses the last
    fraction of a second). `crash_safe` writes the WAL before a commit returns, so a killed server loses
    nothing acknowledged (fsync stays off: only a machine crash could); the soak restarts it so."""
    bindir = bindir or find_pg_bindir()
    if bindir is None:
        raise PostgresUnavailable(
            "PostgreSQL server binaries (initdb, pg_ctl) were not found and no Docker engine answers: "
            f"run `sudo {ENSURE_SCRIPT}` (the Makefile does) or set {BIN_ENV} to their folder"
        )
    as_user = _server_user()
    # As root the server user must reach the folder: /tmp is world-traversable, $TMPDIR may not be.
    root = Path(tempfile.mkdtemp(prefix="gamehall-pg-", dir="/tmp" if as_user is not None else None))
    data, sockets, log = root / "data", root / "sockets", root / "server.log"
    sockets.mkdir()
    if as_user is not None:
        uid, gid = as_user.pw_uid, as_user.pw_gid
        for path in (root, sockets):
            os.chown(path, uid, gid)
    run = _runner(as_user)
    started = False
    try:
        run(
            [str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"],
            what="initdb",
        )
        port, options = 0, ""
        for attempt in range(3):  # the free port may be taken between the probe and the start
            port = free_port()
            options = (
                f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off "
                f"-c synchronous_commit={'on' if crash_safe else 'off'} -c full_page_writes=off -c max_connections=200"
            )
            try:
                run(
                    [str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60", "-o", options, "start"],
                    what="pg_ctl start",
                )
                started = True
                break
            except PostgresUnavailable:
                if attempt == 2:
                    raise
        run(
            [str(bindir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", database],
            what="createdb",
        )
        pg_ctl = str(bindir / "pg_ctl")

        def stop() -> None:
            run([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"], what="pg_ctl stop")

        def start() -> None:
            run(
                [pg_ctl, "-D", str(data), "-l", str(log), "-w", "-t", "60", "-o", options, "start"], what="pg_ctl start"
            )

        def restart(down: float = 0.0) -> None:
            stop()
            time.sleep(down)
            start()

        dsn = f"postgresql://postgres@127.0.0.1:{port}/{database}"
        yield PostgresServer(dsn=dsn, backend="local", restart=restart, stop=stop, start=start)
    finally:
        if started:
            with contextlib.suppress(PostgresUnavailable):
                run([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"], what="pg_ctl stop")
        shutil.rmtree(root, ignore_errors=True)


def _server_user() -> pwd.struct_passwd | None:
    """PostgreSQL refuses to run as root: as root, run it as the `postgres` user."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError as exc:
        raise PostgresUnavailable(
            f"running as root but there is no 'postgres' user to run the server: run `{ENSURE_SCRIPT}`"
        ) from exc


def _runner(as_user: pwd.struct_passwd | None) -> Callable[..., None]:
    def run(argv: list[str], *, what: str) -> None:
        if as_user is not None:
            argv = ["runuser", "-u", as_user.pw_name, "--", *argv]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False, cwd="/")
        if done.returncode != 0:
            output = done.stderr.strip() or done.stdout.strip()
            raise PostgresUnavailable(f"{what} failed ({done.returncode}): {output}")

    return run


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[PostgresServer]:
    """An external server from the env, else Docker when an engine answers, else local binaries."""
    if os.environ.get(DSN_ENV):
        yield PostgresServer(dsn=os.environ[DSN_ENV], backend="external")
    elif docker_available():
        with docker_postgres() as server:
            yield server
    else:
        with local_postgres() as server:
            yield server


@contextlib.asynccontextmanager
async def fresh_schema(server: PostgresServer) -> AsyncIterator[str]:
    """A new empty schema on `server` for one test (dropped afterwards); yields a DSN whose
    connections use it (`search_path`). Creating a schema takes milliseconds; a database, a third of a second."""
    name = f"t_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(server.dsn)
    try:
        await admin.execute(f'CREATE SCHEMA "{name}"')
    finally:
        await admin.close()
    separator = "&" if "?" in server.dsn else "?"
    try:
        yield f"{server.dsn}{separator}search_path={name}"
    finally:
        admin = await asyncpg.connect(server.dsn)
        try:
            await admin.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        finally:
            await admin.close()
