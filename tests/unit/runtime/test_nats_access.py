"""Per-service NATS permissions (gamehall.runtime.nats_access) follow the code: the consumers the services declare,
the subjects they publish; each user is held to its own. (The real nats-server enforcing them:
tests/integration/test_tls_platform.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from gamehall.runtime.bus import turn_subject, view_subject
from gamehall.runtime.matchlog import PROJECTOR, log_subject
from gamehall.runtime.nats_access import MATCHMAKING_FINISHED, bot_durable, chart_permissions, nats_users, permissions

ROOT = Path(__file__).resolve().parents[3]
GAMES = ["grimmoir", "tiny-epic-quest"]


def _covers(patterns: list[str], subject: str) -> bool:
    """NATS subject matching: `*` is one token, `>` the rest."""
    wanted = subject.split(".")
    for pattern in patterns:
        tokens = pattern.split(".")
        for i, token in enumerate(tokens):
            if token == ">":
                if len(wanted) > i:
                    return True
                break
            if i >= len(wanted) or (token != "*" and token != wanted[i]):
                break
        else:
            if len(tokens) == len(wanted):
                return True
    return False


def test_the_durable_names_are_the_services_own() -> None:
    assert f'CONSUMER = "{MATCHMAKING_FINISHED}"' in (ROOT / "services/matchmaking/app.py").read_text()
    assert 'f"bots-{game.id}"' in (ROOT / "services/ai/app.py").read_text() and bot_durable("x") == "bots-x"
    assert "CONSUMER = PROJECTOR" in (ROOT / "services/persistence/projector.py").read_text()


@pytest.mark.parametrize(
    ("service", "subject", "allowed"),
    [
        ("rules-grimmoir", log_subject("grimmoir", "m1", "move"), True),
        ("rules-grimmoir-2", log_subject("grimmoir", "m1", "move"), True),
        ("rules-grimmoir", log_subject("tiny-epic-quest", "m1", "move"), False),  # another game's log
        ("rules-tiny-epic-quest-3", log_subject("tiny-epic-quest", "m1", "bot"), True),
        ("rules-grimmoir", view_subject("m1", 0), True),
        ("rules-grimmoir", "gamehall.v1.match.m1.finished", False),
        ("persistence", "gamehall.v1.match.m1.finished", True),
        ("persistence", turn_subject("grimmoir"), True),
        ("persistence", log_subject("grimmoir", "m1", "end"), False),  # only owners append (rule 6)
        ("gateway", log_subject("grimmoir", "m1", "end"), False),
        ("matchmaking", log_subject("grimmoir", "m1", "move"), False),
        ("persistence", view_subject("m1", None), False),
        ("gateway", view_subject("m1", 0), False),
        ("gateway", "gamehall.v1.matchmaking.grimmoir.matched", False),
        ("matchmaking", "gamehall.v1.tournament.t1.started", False),  # its events go through persistence's outbox
        ("ai", "gamehall.v1.deadletter.GAMEHALL_TURNS.bots-grimmoir", True),
        ("ai", "gamehall.v1.deadletter.GAMEHALL_MATCHES.matchmaking-finished", False),
        ("ai", "$JS.API.CONSUMER.MSG.NEXT.GAMEHALL_MATCHLOG.bots-grimmoir", True),
        ("ai", f"$JS.API.CONSUMER.MSG.NEXT.GAMEHALL_MATCHLOG.{PROJECTOR}", False),  # persistence's consumer
        ("ai", "$JS.API.STREAM.PURGE.GAMEHALL_MATCHLOG", False),
        ("persistence", "$JS.API.STREAM.PURGE.GAMEHALL_MATCHLOG", True),
        ("gateway", "$JS.API.STREAM.DELETE.GAMEHALL_MATCHLOG", False),
    ],
)
def test_publish(service: str, subject: str, allowed: bool) -> None:
    assert _covers(permissions(service, GAMES).publish, subject) is allowed


@pytest.mark.parametrize(
    ("service", "subject", "allowed"),
    [
        ("gateway", view_subject("m1", 1), True),
        ("gateway", "_INBOX.gateway.abc", True),
        ("gateway", "_INBOX.ai.abc", False),  # another service's replies
        ("rules-grimmoir", view_subject("m1", 1), False),
        ("matchmaking", "gamehall.v1.matchmaking.grimmoir.matched", True),
        ("matchmaking", "gamehall.v1.tournament.t1.result", True),  # steps the driver, pushes WatchStandings
        ("gateway", "gamehall.v1.tournament.t1.result", False),
        ("ai", "gamehall.v1.match.m1.finished", False),
    ],
)
def test_subscribe(service: str, subject: str, allowed: bool) -> None:
    assert _covers(permissions(service, GAMES).subscribe, subject) is allowed


def test_the_server_config_has_one_user_per_service() -> None:
    config = nats_users({"gateway": "pw1", "rules-grimmoir": "pw2"}, GAMES)
    assert config.count("{user: ") == 2 and '"pw2"' in config
    with pytest.raises(ValueError):
        permissions("stranger", GAMES)
    with pytest.raises(ValueError):
        nats_users({"gateway": 'quote"inside'}, GAMES)


def test_the_charts_permissions_file_is_generated_from_this_module() -> None:
    """helm/gamehall/files/nats-permissions.json (the bundled NATS's users) must follow the code; when this fails,
    regenerate it: `python -m gamehall.runtime.nats_access <the chart's rules.games ids> > <that file>`."""
    import json

    import yaml

    games = sorted(yaml.safe_load((ROOT / "helm/gamehall/values.yaml").read_text())["rules"]["games"])
    stored = json.loads((ROOT / "helm/gamehall/files/nats-permissions.json").read_text())
    assert stored == chart_permissions(games)
