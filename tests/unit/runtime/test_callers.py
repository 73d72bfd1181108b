"""The allowed-callers table (gamehall.runtime.callers) is the call graph of the code: read again from services/<role>
here (the stubs each service opens, the rules methods it calls on a match's owner or on any replica), it must be
equal to the table, so a new internal call fails this test until the table allows it, and a permission nobody
uses fails it too. Plus the identity rules: roles of replica names, names from certificates, open services."""

from __future__ import annotations

import re
from pathlib import Path

import grpc
import pytest

from gamehall.runtime import callers
from gamehall.runtime.callers import ALLOWED_CALLERS, CallerCheck, allowed, edges, peer_identity, role_of
from gamehall.runtime.errors import ClientError
from gamehall.runtime.play_stream import CALL_FIELDS

ROOT = Path(__file__).resolve().parents[3]
STUBS = {
    "PersistenceServiceStub": "gamehall.internal.v1.PersistenceService",
    "MatchmakingStoreServiceStub": "gamehall.internal.v1.MatchmakingStoreService",
    "AuditServiceStub": "gamehall.internal.v1.AuditService",
    "MatchmakingServiceStub": "gamehall.v1.MatchmakingService",
    "TournamentServiceStub": "gamehall.v1.TournamentService",
}
ON_OWNER = re.compile(r"\.on_owner\(\s*[^,()]+(?:\([^()]*\))?[^,()]*,\s*\"(\w+)\"")
ON_ANY = re.compile(r"\.on_any\(\s*\"(\w+)\"")


def derived_call_graph() -> set[tuple[str, str]]:
    """(caller role, service or service/method) for every internal call the services' source makes."""
    found: set[tuple[str, str]] = set()
    for role in sorted(callers.ROLES):
        for path in (ROOT / "services" / role).glob("*.py"):
            text = path.read_text()
            # RulesReplicas.on_owner carries Play and the reads a move needs on the replica's play stream
            found |= {
                (role, f"{callers.LIVE}/{'PlayStream' if m in CALL_FIELDS else m}") for m in ON_OWNER.findall(text)
            }
            found |= {(role, f"{callers.RULES_SERVICE}/{m}") for m in ON_ANY.findall(text)}
            found |= {(role, full) for stub, full in STUBS.items() if re.search(rf"\b{stub}\(", text)}
    return found


def test_the_table_is_the_call_graph_of_the_code() -> None:
    derived = derived_call_graph()
    assert derived, "the scan found no call at all: the patterns no longer match the code"
    assert edges() - derived == set(), "permissions no service uses (least privilege: drop them)"
    assert derived - edges() == set(), "calls the table refuses (add them to ALLOWED_CALLERS)"


def test_the_scan_sees_a_new_call() -> None:
    text = 'await replicas.on_owner(match_id, "Forfeit", request)\nstub = MatchmakingStoreServiceStub(channel)'
    assert ON_OWNER.findall(text) == ["Forfeit"]
    assert re.search(r"\bMatchmakingStoreServiceStub\(", text)


@pytest.mark.parametrize(
    ("name", "role"),
    [("rules-grimmoir", "rules"), ("rules-tiny-epic-quest-2", "rules"), ("gateway", "gateway"), ("ai", "ai")],
)
def test_roles_drop_the_game_and_the_replica(name: str, role: str) -> None:
    assert role_of(name) == role


def test_identity_comes_from_the_spiffe_uri_then_the_common_name() -> None:
    assert peer_identity({"x509_subject_alternative_name": [b"localhost", b"spiffe://gamehall/ai"]}) == "ai"
    assert peer_identity({"peer_spiffe_id": [b"spiffe://gamehall/rules-grimmoir"]}) == "rules-grimmoir"
    assert peer_identity({"x509_common_name": [b"matchmaking"]}) == "matchmaking"
    assert peer_identity({}) is None


@pytest.mark.parametrize(
    ("method", "identity", "expected"),
    [
        ("/gamehall.internal.v1.LiveMatchService/PlayStream", "ai", True),
        ("/gamehall.internal.v1.LiveMatchService/OpenMatch", "ai", False),
        ("/gamehall.internal.v1.LiveMatchService/OpenMatch", "matchmaking", True),
        ("/gamehall.internal.v1.RulesService/Unlisted", "gateway", False),  # a method nobody is named for
        ("/gamehall.internal.v1.MatchmakingStoreService/EnqueueTicket", "gateway", False),
        ("/gamehall.internal.v1.PersistenceService/GetAccount", "rules-grimmoir-3", True),
        ("/grpc.health.v1.Health/Check", "launcher", True),
        ("/gamehall.internal.v1.PersistenceService/GetAccount", "launcher", False),
        ("/grpc.health.v1.Health/Check", None, False),
    ],
)
def test_allowed(method: str, identity: str | None, expected: bool) -> None:
    assert allowed(method, identity) is expected


class _Context:
    def __init__(self, auth: dict[str, list[bytes]]) -> None:
        self.auth = auth

    def auth_context(self) -> dict[str, list[bytes]]:
        return self.auth


def test_the_check_refuses_with_permission_denied_and_says_who() -> None:
    check = CallerCheck("rules-grimmoir")
    check("/gamehall.internal.v1.LiveMatchService/PlayStream", _Context({"x509_common_name": [b"ai"]}))  # type: ignore[arg-type]
    with pytest.raises(ClientError) as refused:
        check("/gamehall.internal.v1.LiveMatchService/JoinMatch", _Context({"x509_common_name": [b"ai"]}))  # type: ignore[arg-type]
    assert refused.value.code == grpc.StatusCode.PERMISSION_DENIED
    assert "ai may not call" in refused.value.message


def test_every_table_key_names_a_known_role() -> None:
    assert {role for roles in ALLOWED_CALLERS.values() for role in roles} <= callers.ROLES
