"""`gamehall audit`: the operators' audit log (who did what, to what, when, and how it ended) as a table.

Reads, by default, the public gateway's AuditService as the operator (`--gateway`, with the TLS options every
gateway command shares: `--ca-file`, `--system-trust`). Against `make run` it needs nothing more: the
certificate (`<data dir>/tls/gateway-public.crt`) and the operator's password
(`<data dir>/secrets/operator-password`) are found in the data dir, unless given (`--password`,
GAMEHALL_OPERATOR_PASSWORD). `--persistence-addr` reads persistence's internal AuditService instead (inside
the platform's network, with its mTLS settings), `--database-url` the store directly (a stopped platform, or
a copy). Filters: actor (account id or username), action (exact, or a prefix ending in "."), and a time
range (ISO 8601, or "30m", "2h", "7d" ago).
"""

from __future__ import annotations

import asyncio
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from gamehall.cli import gateway_options
from gamehall.cli.ui import DatabaseUrl, JsonFlag

OPERATOR_PASSWORD_VARIABLE = "GAMEHALL_OPERATOR_PASSWORD"
_AGO = re.compile(r"^(\d+(?:\.\d+)?)([smhd])$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}


def parse_time(text: str, now: datetime | None = None) -> datetime | None:
    """'' -> None; '2h' -> two hours ago; otherwise ISO 8601 (UTC when no offset is given)."""
    if not text:
        return None
    found = _AGO.match(text.strip())
    if found:
        return (now or datetime.now(UTC)) - timedelta(**{_UNITS[found.group(2)]: float(found.group(1))})
    try:
        value = datetime.fromisoformat(text)
    except ValueError as exc:
        raise typer.BadParameter(f"{text!r} is neither ISO 8601 nor an age like 30m, 2h, 7d") from exc
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _ms(value: datetime | None) -> int:
    return 0 if value is None else int(value.timestamp() * 1000)


def _from_ms(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S") if ms else ""


async def _from_service(address: str, query: dict[str, Any], pages: int) -> tuple[list[dict[str, Any]], str]:
    from gamehall.internal.v1 import audit_pb2, audit_pb2_grpc
    from gamehall.runtime.channels import internal_channel

    channel = internal_channel(address)
    try:
        stub = audit_pb2_grpc.AuditServiceStub(channel)
        rows: list[dict[str, Any]] = []
        token = query["cursor"] or ""
        for _ in range(pages):
            response = await stub.ListAuditEvents(
                audit_pb2.ListAuditEventsRequest(
                    actor=query["actor"],
                    action=query["action"],
                    since_unix_ms=_ms(query["since"]),
                    until_unix_ms=_ms(query["until"]),
                    page_size=query["limit"],
                    page_token=token,
                )
            )
            rows += [
                {
                    "id": e.id,
                    "at": _from_ms(e.at_unix_ms),
                    "actor": e.actor,
                    "actor_name": e.actor_name,
                    "role": e.role,
                    "action": e.action,
                    "target": e.target,
                    "detail": json.loads(e.detail_json or "{}"),
                    "outcome": e.outcome,
                    "message": e.message,
                }
                for e in response.events
            ]
            token = response.next_page_token
            if not token:
                break
        return rows, token
    finally:
        await channel.close()


async def _from_gateway(
    target: str, login: tuple[str, str], trust: tuple[Path | None, bool], query: dict[str, Any], pages: int
) -> tuple[list[dict[str, Any]], str]:
    from gamehall.cli import gateway_options
    from gamehall_sdk.v1 import audit_pb2, audit_pb2_grpc, auth_pb2

    ca_file, system_trust = trust
    hall = await gateway_options.connect(target, ca_file=ca_file, system_trust=system_trust)
    try:
        await hall.login(*login)
        stub = audit_pb2_grpc.AuditServiceStub(hall.channel)
        request = audit_pb2.ListAuditEventsRequest(
            actor=query["actor"], action=query["action"], page_size=query["limit"], page_token=query["cursor"] or ""
        )
        if query["since"] is not None:
            request.start_time.FromDatetime(query["since"])
        if query["until"] is not None:
            request.end_time.FromDatetime(query["until"])
        rows: list[dict[str, Any]] = []
        token = request.page_token
        for _ in range(pages):
            response = await hall.transport.unary(
                stub.ListAuditEvents, request, audit_pb2.ListAuditEventsResponse, idempotent=True
            )
            rows += [
                {
                    "id": e.id,
                    "at": e.create_time.ToDatetime().strftime("%Y-%m-%d %H:%M:%S"),
                    "actor": e.actor,
                    "actor_name": e.actor_name,
                    "role": auth_pb2.Role.Name(e.role).removeprefix("ROLE_").lower(),
                    "action": e.action,
                    "target": e.target,
                    "detail": json.loads(e.detail_json or "{}"),
                    "outcome": e.outcome,
                    "message": e.message,
                }
                for e in response.events
            ]
            token = response.next_page_token
            if not token:
                break
            request.page_token = token
        return rows, token
    finally:
        await hall.close()


def _operator_password(given: str, data_dir: Path) -> str:
    """The operator's password: given (option or GAMEHALL_OPERATOR_PASSWORD), else `make run`'s in the data dir."""
    if given:
        return given
    kept = data_dir / "secrets" / "operator-password"
    if kept.is_file():
        return kept.read_text().strip()
    raise typer.BadParameter(
        f"give --password (or GAMEHALL_OPERATOR_PASSWORD): no {kept} to read it from", param_hint="--password"
    )


async def _from_store(dsn: str, query: dict[str, Any], pages: int) -> tuple[list[dict[str, Any]], str]:
    from gamehall.store import open_store

    store = await open_store(dsn, must_exist=True)  # a reader: a typo'd DSN is refused, never created empty
    try:
        rows: list[dict[str, Any]] = []
        cursor = query["cursor"]
        for _ in range(pages):
            page = await store.list_audit_events(**{**query, "cursor": cursor})
            rows += [
                {
                    "id": e.id,
                    "at": e.at.strftime("%Y-%m-%d %H:%M:%S"),
                    "actor": e.actor,
                    "actor_name": e.actor_name,
                    "role": e.role,
                    "action": e.action,
                    "target": e.target,
                    "detail": e.detail,
                    "outcome": e.outcome,
                    "message": e.message,
                }
                for e in page.events
            ]
            cursor = page.next_cursor
            if not cursor:
                break
        return rows, cursor or ""
    finally:
        await store.close()


def audit(
    actor: Annotated[str, typer.Option(help="Only this actor (account id or username).")] = "",
    action: Annotated[str, typer.Option(help="Only this action, or a prefix ending in '.' (TournamentService.).")] = "",
    since: Annotated[str, typer.Option(help="From this time (ISO 8601, or an age: 30m, 2h, 7d).")] = "",
    until: Annotated[str, typer.Option(help="Before this time (ISO 8601, or an age).")] = "",
    limit: Annotated[int, typer.Option(min=1, max=500, help="Events per page.")] = 50,
    pages: Annotated[int, typer.Option(min=1, help="Pages to read (newest first).")] = 1,
    page_token: Annotated[str, typer.Option(help="Continue after a previous listing's next page token.")] = "",
    gateway: gateway_options.Gateway = gateway_options.DEFAULT_GATEWAY,
    ca_file: gateway_options.CaFile = None,
    system_trust: gateway_options.SystemTrust = False,
    username: Annotated[str, typer.Option(help="The operator account to log in as.")] = "operator",
    password: Annotated[
        str,
        typer.Option(help="Its password (default: `make run`'s, in the data dir).", envvar=OPERATOR_PASSWORD_VARIABLE),
    ] = "",
    data_dir: Annotated[
        Path, typer.Option(help="`gamehall run`'s data dir: its gateway certificate and operator password.")
    ] = Path("var"),
    plaintext: Annotated[
        bool, typer.Option("--plaintext", help="Do not use the data dir's certificate (a `--no-tls` gateway).")
    ] = False,
    persistence_addr: Annotated[
        str, typer.Option(help="Read persistence's internal service at host:port instead of the gateway.")
    ] = "",
    database_url: DatabaseUrl = "",
    as_json: JsonFlag = False,
) -> None:
    """List operator actions, newest first: who, what, to what, when, and the outcome."""
    query: dict[str, Any] = {
        "actor": actor,
        "action": action,
        "since": parse_time(since),
        "until": parse_time(until),
        "limit": limit,
        "cursor": page_token or None,
    }
    try:
        if database_url:
            rows, next_token = asyncio.run(_from_store(database_url, query, pages))
        elif persistence_addr:
            rows, next_token = asyncio.run(_from_service(persistence_addr, query, pages))
        else:
            if ca_file is None and not system_trust and not plaintext:
                ca_file = gateway_options.run_certificate(data_dir)
            login = (username, _operator_password(password, data_dir))
            rows, next_token = asyncio.run(_from_gateway(gateway, login, (ca_file, system_trust), query, pages))
    except typer.BadParameter:
        raise
    except Exception as exc:  # the service away, a bad token: say so plainly
        typer.echo(f"error: could not read the audit log: {exc}", err=True)
        raise typer.Exit(2) from exc
    if as_json:
        typer.echo(json.dumps({"events": rows, "next_page_token": next_token}, indent=2))
        return
    table = Table(title="Operator actions (newest first)")
    for column in ("when (UTC)", "actor", "action", "target", "outcome"):
        table.add_column(column)
    for row in rows:
        outcome = row["outcome"]
        shown = {
            "OK": "[green]OK[/green]",
            "pending": "[yellow]outcome unknown[/yellow]",
        }.get(outcome, f"[red]{outcome}[/red] {row['message'][:60]}")
        table.add_row(row["at"], row["actor_name"] or row["actor"], row["action"], row["target"], shown)
    console = Console()
    console.print(table)
    if next_token:
        console.print(f"more: --page-token {next_token}")
