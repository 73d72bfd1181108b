"""`gamehall deadletter list|show|replay`: what the platform's consumers could never process, and a second try.

A consumer dead-letters only what can never be processed (undecodable, or contradicting the match); everything
else waits for what it needs (gamehall.runtime.patience). Each dead letter keeps its original subject, headers
and the error on `gamehall.v1.deadletter.<stream>.<consumer>` (stream GAMEHALL_DEADLETTER). Once the cause is
fixed, `replay` gives it a second try and removes the dead letter:
- an event (a turn, a finished match, ...) is published again on the subject it came from;
- a match log entry is never written to the log again: persistence is asked to project it again from the log,
  where it stays until projected (`gamehall.v1.replay.matchlog`).

On an embedded platform the command logs in with the tools' NATS login that `gamehall run` writes to
`<data dir>/tls/nats-tools.json`; elsewhere pass `--nats-url` (and `--nats-user`, `--nats-password`, `--ca-file`).
"""

from __future__ import annotations

import asyncio
import json
import ssl
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from gamehall.runtime.bus import DEAD_HEADER, DEADLETTER_STREAM, LOG_REPLAY_SUBJECT, SUBJECT_ROOT
from gamehall.runtime.matchlog import LOG_STREAM

DEAD_SUBJECTS = f"{SUBJECT_ROOT}.deadletter.>"
ORIGINAL = "Gamehall-Orig-"
"""The prefix under which a dead letter keeps the original message's headers."""

app = typer.Typer(help=__doc__.split("\n")[0], no_args_is_help=True)

DataDir = Annotated[Path, typer.Option("--data-dir", help="An embedded platform's data dir (its tools login).")]
NatsUrl = Annotated[str, typer.Option("--nats-url", help="NATS servers (default: the embedded platform's).")]
NatsUser = Annotated[str, typer.Option("--nats-user", help="NATS user with the operator-tools permissions.")]
NatsPassword = Annotated[str, typer.Option("--nats-password", envvar="GAMEHALL_NATS_PASSWORD", show_default=False)]
CaFile = Annotated[Path | None, typer.Option("--ca-file", help="CA that verifies the NATS server (tls://).")]
Json = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]


@dataclass(frozen=True)
class DeadLetter:
    sequence: int
    """Its sequence in GAMEHALL_DEADLETTER (what `show` and `replay` take)."""
    stream: str
    consumer: str
    subject: str
    origin_sequence: int
    reason: str
    deliveries: int
    error: str
    time: str
    headers: dict[str, str]
    data: bytes

    def summary(self) -> dict[str, Any]:
        return {
            "sequence": self.sequence,
            "stream": self.stream,
            "consumer": self.consumer,
            "subject": self.subject,
            "origin_sequence": self.origin_sequence,
            "reason": self.reason,
            "deliveries": self.deliveries,
            "error": self.error,
            "time": self.time,
        }


def _letter(sequence: int, headers: dict[str, str] | None, data: bytes | None, time: str = "") -> DeadLetter:
    h = headers or {}

    def field(name: str) -> str:
        return h.get(f"{DEAD_HEADER}{name}", "")

    return DeadLetter(
        sequence=sequence,
        stream=field("Stream"),
        consumer=field("Consumer"),
        subject=field("Subject"),
        origin_sequence=int(field("Sequence") or 0),
        reason=field("Reason"),
        deliveries=int(field("Deliveries") or 0),
        error=field("Error"),
        time=time,
        headers=h,
        data=data or b"",
    )


def _login(data_dir: Path, nats_url: str, user: str, password: str, ca_file: Path | None) -> dict[str, Any]:
    """nats.connect options: the flags, else the embedded platform's tools login, else a plain local server."""
    saved = data_dir / "tls" / "nats-tools.json"
    found: dict[str, Any] = json.loads(saved.read_text()) if saved.is_file() else {}
    url = nats_url or found.get("url") or "nats://127.0.0.1:4222"
    options: dict[str, Any] = {"servers": [u.strip() for u in url.split(",")], "connect_timeout": 3}
    options["allow_reconnect"] = False
    user, password = user or found.get("user", ""), password or found.get("password", "")
    if user:
        options.update(user=user, password=password, inbox_prefix=f"_INBOX.{user}")
    ca = ca_file or (Path(found["ca_file"]) if found.get("ca_file") else None)
    if ca is not None or url.startswith("tls://"):
        options["tls"] = ssl.create_default_context(cafile=str(ca) if ca else None)
    return options


async def _with_js(options: dict[str, Any], work: Callable[[Any], Awaitable[Any]]) -> Any:
    import nats

    async def quiet(_: Exception) -> None:
        return None

    try:
        nc = await asyncio.wait_for(nats.connect(error_cb=quiet, **options), timeout=10)
    except Exception as exc:
        raise typer.BadParameter(f"cannot reach NATS at {options['servers']}: {exc or type(exc).__name__}") from exc
    try:
        return await work(nc.jetstream())
    finally:
        await nc.close()


async def _all_letters(js: Any, limit: int) -> list[DeadLetter]:
    from nats.js.errors import NotFoundError

    info = await js.stream_info(DEADLETTER_STREAM)
    letters: list[DeadLetter] = []
    sequence = int(info.state.first_seq or 0)
    last = int(info.state.last_seq or 0)
    while sequence and sequence <= last and len(letters) < limit:
        try:
            stored = await js.get_msg(DEADLETTER_STREAM, seq=sequence, next=True, subject=DEAD_SUBJECTS)
        except NotFoundError:
            break
        letters.append(_letter(int(stored.seq), stored.headers, stored.data, str(getattr(stored, "time", "") or "")))
        sequence = int(stored.seq) + 1
    return letters


async def _one(js: Any, sequence: int) -> DeadLetter:
    from nats.js.errors import NotFoundError

    try:
        stored = await js.get_msg(DEADLETTER_STREAM, seq=sequence)
    except NotFoundError as exc:
        raise typer.BadParameter(f"no dead letter {sequence} (see `gamehall deadletter list`)") from exc
    return _letter(sequence, stored.headers, stored.data, str(getattr(stored, "time", "") or ""))


def _decoded(letter: DeadLetter) -> str:
    """The payload in a readable form: a match log entry decoded, JSON as it is, else its size."""
    if letter.stream == LOG_STREAM:
        from google.protobuf import json_format
        from google.protobuf.message import DecodeError

        from gamehall.events.v1.log_pb2 import LogEntry

        try:
            entry = LogEntry.FromString(letter.data)
            shown = json_format.MessageToDict(entry, preserving_proto_field_name=True)
            shown.pop("snapshot", None)  # a whole encoded state: its size says enough
            return json.dumps(shown, indent=1)
        except DecodeError:
            pass
    try:
        return json.dumps(json.loads(letter.data), indent=1)
    except (ValueError, UnicodeDecodeError):
        return f"<{len(letter.data)} bytes>"


@app.command("list")
def list_letters(
    data_dir: DataDir = Path("var"),
    nats_url: NatsUrl = "",
    nats_user: NatsUser = "",
    nats_password: NatsPassword = "",
    ca_file: CaFile = None,
    limit: Annotated[int, typer.Option(min=1, help="At most this many, oldest first.")] = 200,
    as_json: Json = False,
) -> None:
    """The dead letters waiting, oldest first: where each came from and why it was given up."""
    options = _login(data_dir, nats_url, nats_user, nats_password, ca_file)
    letters: list[DeadLetter] = asyncio.run(_with_js(options, lambda js: _all_letters(js, limit)))
    if as_json:
        typer.echo(json.dumps([letter.summary() for letter in letters], indent=1))
        return
    table = Table(title=f"{len(letters)} dead letters")
    for column in ("seq", "stream / consumer", "origin seq", "reason", "deliveries", "error"):
        table.add_column(column)
    for letter in letters:
        table.add_row(
            str(letter.sequence),
            f"{letter.stream} / {letter.consumer}",
            str(letter.origin_sequence),
            letter.reason,
            str(letter.deliveries),
            letter.error[:120],
        )
    Console(width=None if Console().is_terminal else 200).print(table)


@app.command("show")
def show(
    sequence: Annotated[int, typer.Argument(help="The dead letter's sequence (from `list`).")],
    data_dir: DataDir = Path("var"),
    nats_url: NatsUrl = "",
    nats_user: NatsUser = "",
    nats_password: NatsPassword = "",
    ca_file: CaFile = None,
) -> None:
    """One dead letter: its origin, error, original headers and payload (a match log entry decoded)."""
    options = _login(data_dir, nats_url, nats_user, nats_password, ca_file)
    letter: DeadLetter = asyncio.run(_with_js(options, lambda js: _one(js, sequence)))
    typer.echo(json.dumps(letter.summary(), indent=1))
    typer.echo(_decoded(letter))


@app.command("replay")
def replay(
    sequence: Annotated[int, typer.Argument(help="The dead letter's sequence (from `list`).")],
    data_dir: DataDir = Path("var"),
    nats_url: NatsUrl = "",
    nats_user: NatsUser = "",
    nats_password: NatsPassword = "",
    ca_file: CaFile = None,
) -> None:
    """Give a dead letter a second try (once its cause is fixed), then remove it from the dead letters."""
    options = _login(data_dir, nats_url, nats_user, nats_password, ca_file)
    said: str = asyncio.run(_with_js(options, lambda js: _replay(js, sequence)))
    typer.echo(said)


async def _replay(js: Any, sequence: int) -> str:
    letter = await _one(js, sequence)
    if letter.stream == LOG_STREAM:
        request = json.dumps({"sequence": letter.origin_sequence}).encode()
        await js.publish(
            LOG_REPLAY_SUBJECT, request, timeout=5, headers={"Nats-Msg-Id": f"replay:{letter.origin_sequence}"}
        )
        what = f"persistence asked to project match log entry {letter.origin_sequence} again"
    else:
        if not letter.subject:
            raise typer.BadParameter(f"dead letter {sequence} does not say where it came from")
        headers = {k.removeprefix(ORIGINAL): v for k, v in letter.headers.items() if k.startswith(ORIGINAL)}
        headers["Nats-Msg-Id"] = f"replay:{letter.stream}:{letter.consumer}:{letter.origin_sequence}"
        await js.publish(letter.subject, letter.data, timeout=5, headers=headers)
        what = f"republished on {letter.subject} for {letter.consumer}"
    await js.delete_msg(DEADLETTER_STREAM, sequence)
    return f"dead letter {sequence}: {what}; removed from the dead letters"
