"""What each service may publish and subscribe to on NATS: one user per service, its own subjects only.

Read from the code: the subjects of gamehall.runtime.bus (streams, views, dead letters), gamehall.runtime.matchlog
(the match log) and the services' consumers (their durable names below). Each user gets the JetStream API
subjects of its own consumers and of the streams it reads, its own reply inbox (`_INBOX.<user>.>`, set by the
bus's connect), and the stream info/create/update calls every service makes at start (Bus.ensure_streams).
The launcher writes these into nats-server's config (gamehall.launcher.nats); a cluster's NATS gets the same
users from `nats_users` (deploy/README.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from gamehall.runtime.bus import DEADLETTER_STREAM, LOG_REPLAY_SUBJECT, REPLAYS_STREAM, STREAMS, SUBJECT_ROOT
from gamehall.runtime.callers import AI, GATEWAY, MATCHMAKING, PERSISTENCE, RULES, role_of
from gamehall.runtime.matchlog import LOG_STREAM, PROJECTOR

MATCHES_STREAM, TURNS_STREAM = "GAMEHALL_MATCHES", "GAMEHALL_TURNS"
MATCHMAKING_FINISHED = "matchmaking-finished"
LOG_REPLAYS = "persistence-log-replays"
"""Persistence's durable consumer of operators' replay requests for dead-lettered match log entries."""
TOOLS = "operator-tools"
"""The NATS user of operators' tools (`gamehall deadletter`): read and clear dead letters, and replay them."""
"""services/matchmaking/app.py's consumer of finished matches."""


def inbox_prefix(user: str) -> str:
    """The reply subjects of `user`'s requests (JetStream acks, API answers, pull fetches)."""
    return f"_INBOX.{user}"


def bot_durable(game: str) -> str:
    """The ai's consumers (services/ai/app.py): one on the turn queue and one on the match log, per game."""
    return f"bots-{game}"


@dataclass
class Permissions:
    """Subjects one NATS user may publish to and subscribe to (NATS wildcards: `*` one token, `>` the rest)."""

    publish: list[str] = field(default_factory=list)
    subscribe: list[str] = field(default_factory=list)

    def consumer(self, stream: str, durable: str) -> None:
        """Own a durable pull consumer: create/inspect/delete it (a policy JetStream cannot update is made anew),
        fetch from it, ack, and dead-letter what it gives up."""
        api = "$JS.API.CONSUMER"
        self.publish += [
            f"{api}.CREATE.{stream}.{durable}",
            f"{api}.CREATE.{stream}.{durable}.>",
            f"{api}.DURABLE.CREATE.{stream}.{durable}",
            f"{api}.INFO.{stream}.{durable}",
            f"{api}.DELETE.{stream}.{durable}",
            f"{api}.MSG.NEXT.{stream}.{durable}",
            f"$JS.ACK.{stream}.{durable}.>",
            f"{SUBJECT_ROOT}.deadletter.{stream}.{durable}",
            f"$JS.API.STREAM.MSG.GET.{stream}",
        ]
        self.subscribe.append(f"$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.{stream}.{durable}")

    def reader(self, stream: str) -> None:
        """Read a stream's messages by subject or sequence (direct gets, the match log's tail)."""
        self.publish += [
            f"$JS.API.DIRECT.GET.{stream}",
            f"$JS.API.DIRECT.GET.{stream}.>",
            f"$JS.API.STREAM.MSG.GET.{stream}",
        ]


def permissions(service: str, games: Iterable[str]) -> Permissions:
    """The permissions of `service`'s NATS user (`games`: the hosted game ids, for the ai's consumers)."""
    role = role_of(service)
    p = Permissions(subscribe=[f"{inbox_prefix(service)}.>"])
    p.publish += ["$JS.API.INFO", "$JS.API.STREAM.NAMES"]
    for spec in STREAMS:  # Bus.ensure_streams at every service's start
        p.publish += [f"$JS.API.STREAM.{verb}.{spec.name}" for verb in ("INFO", "CREATE", "UPDATE")]
    if role == PERSISTENCE:
        # The outbox relay publishes the committed events; the projector consumes and purges the match log, which
        # only the matches' owners append to (ARCHITECTURE rule 6: persistence never writes a match's log).
        p.publish += [f"{SUBJECT_ROOT}.{kind}.>" for kind in ("match", "turn", "matchmaking", "tournament")]
        p.consumer(LOG_STREAM, PROJECTOR)
        p.consumer(REPLAYS_STREAM, LOG_REPLAYS)
        p.publish.append(f"{SUBJECT_ROOT}.deadletter.outbox.outbox-relay")  # an event that can never be published
        p.reader(LOG_STREAM)
        p.publish.append(f"$JS.API.STREAM.PURGE.{LOG_STREAM}")
    elif role == RULES:
        game = service.removeprefix("rules-")
        game = next((g for g in sorted(games, key=len, reverse=True) if game == g or game.startswith(g + "-")), game)
        # The owner of a live match appends to its game's log and pushes views to watchers.
        p.publish += [f"{SUBJECT_ROOT}.log.{game}.>", f"{SUBJECT_ROOT}.view.>"]
        p.subscribe.append(f"{SUBJECT_ROOT}.watching.{game}")  # the gateways' watch leases on its matches
        # The replicas' own leases: who is alive, so a killed owner's match timers fire on its successor.
        p.publish.append(f"{SUBJECT_ROOT}.members.rules.{game}")
        p.subscribe.append(f"{SUBJECT_ROOT}.members.rules.{game}")
        p.reader(LOG_STREAM)
    elif role == GATEWAY:
        p.subscribe.append(f"{SUBJECT_ROOT}.view.>")  # WatchMatch streams
        p.publish.append(f"{SUBJECT_ROOT}.watching.>")  # their leases, so owners push to them
    elif role == AI:
        for game in games:
            p.consumer(TURNS_STREAM, bot_durable(game))
            p.consumer(LOG_STREAM, bot_durable(game))
        p.publish.append(f"$JS.API.STREAM.MSG.DELETE.{TURNS_STREAM}")  # an exhausted turn leaves the work queue
    elif role == MATCHMAKING:
        p.subscribe.append(f"{SUBJECT_ROOT}.matchmaking.>")  # ticket news for WatchTickets
        p.subscribe.append(f"{SUBJECT_ROOT}.tournament.>")  # tournament changes: the driver, WatchStandings
        p.consumer(MATCHES_STREAM, MATCHMAKING_FINISHED)
    elif role == TOOLS:
        # Inspect and clear the dead letters; replay one onto the subject it came from (never the match log: a log
        # entry is replayed by asking persistence to project it again).
        p.reader(DEADLETTER_STREAM)
        p.publish += [f"$JS.API.STREAM.MSG.DELETE.{DEADLETTER_STREAM}", LOG_REPLAY_SUBJECT]
        p.publish += [f"{SUBJECT_ROOT}.{kind}.>" for kind in ("match", "turn", "matchmaking", "tournament")]
    else:
        raise ValueError(f"no NATS permissions for {service!r}")
    p.publish = list(dict.fromkeys(p.publish))
    p.subscribe = list(dict.fromkeys(p.subscribe))
    return p


def nats_users(logins: dict[str, str], games: Iterable[str]) -> str:
    """The `authorization { users = [...] }` block of nats-server's config for `logins` (service -> password)."""
    games = list(games)
    lines = ["authorization {", "  users = ["]
    for service, password in sorted(logins.items()):
        p = permissions(service, games)
        lines += [
            f"    {{user: {_quote(service)}, password: {_quote(password)}, permissions: {{",
            f"      publish: {{allow: [{', '.join(_quote(s) for s in p.publish)}]}},",
            f"      subscribe: {{allow: [{', '.join(_quote(s) for s in p.subscribe)}]}}",
            "    }}",
        ]
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    if any(c in text for c in '"\\\n'):
        raise ValueError(f"not quotable in a nats-server config: {text!r}")
    return f'"{text}"'


def chart_permissions(games: Iterable[str]) -> dict[str, dict[str, list[str]]]:
    """Every service's permissions for a platform hosting `games`, as the Helm chart reads them
    (helm/gamehall/files/nats-permissions.json, written by `python -m gamehall.runtime.nats_access GAME...`)."""
    games = sorted(games)
    services = ["ai", "gateway", "matchmaking", "persistence", *(f"rules-{g}" for g in games)]
    return {s: {"publish": (p := permissions(s, games)).publish, "subscribe": p.subscribe} for s in services}


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(chart_permissions(sys.argv[1:]), indent=1))


__all__ = [
    "DEADLETTER_STREAM",
    "Permissions",
    "bot_durable",
    "chart_permissions",
    "inbox_prefix",
    "nats_users",
    "permissions",
]
