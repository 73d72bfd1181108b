"""The web service's Connect bridge against a stand-in gateway (a real gRPC server on loopback): bytes, the
token and the caller's address pass through unchanged; gRPC statuses and the gateway's error details become
Connect errors; a server stream is relayed frame by frame and ends with its status; framing mistakes and
other origins are refused before the gateway; the pages carry a strict Content-Security-Policy."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from aiohttp.test_utils import TestClient, TestServer
from google.protobuf import any_pb2, descriptor_pool
from google.protobuf.message_factory import GetMessageClass

from gamehall.web import client_address as web_client
from gamehall.web import connect
from gamehall_services.web.app import http_app
from gamehall_services.web.bridge import Bridge
from gamehall_services.web.cors import Origins, parse_origins
from gamehall_services.web.pages import Pages

ROOT = Path(__file__).resolve().parents[3]
PUBLIC_PROTOS = ROOT / "protos" / "gamehall" / "v1"
ERROR_INFO = b"\x0a\x11PERMISSION_DENIED\x12\x0cgamehall.dev"  # google.rpc.ErrorInfo{reason, domain}
STATUS = (  # google.rpc.Status{code: 7, message, details: [Any(ErrorInfo)]}, as the gateway's trailer carries it
    b"\x08\x07\x12\x0eoperators only\x1a"
    + bytes(
        [
            len(
                packed := any_pb2.Any(
                    type_url="type.googleapis.com/google.rpc.ErrorInfo", value=ERROR_INFO
                ).SerializeToString()
            )
        ]
    )
    + packed
)


def message(name: str) -> Any:
    """A public message class by its name (whichever generated file of the gamehall.v1 package holds it)."""
    connect.public_files()
    return GetMessageClass(descriptor_pool.Default().FindMessageTypeByName(f"gamehall.v1.{name}"))


CLIENT_KEY = b"web-client-key-for-the-bridge-tests"


class FakeGateway:
    """Answers WhoAmI (echoing what it received), ListGames (refused with details) and WatchMatch (two views,
    then OUT_OF_RANGE), on raw bytes as the gateway's generic handlers would see them."""

    def __init__(self) -> None:
        self.seen: list[tuple[bytes, dict[str, str]]] = []

    async def who(self, request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        metadata = {k: str(v) for k, v in context.invocation_metadata() or ()}
        self.seen.append((request, metadata))
        name = metadata.get("authorization", "") + "|" + metadata.get("x-forwarded-for", "")
        return bytes(message("WhoAmIResponse")(account={"id": "a1", "username": name}).SerializeToString())

    async def games(self, request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        context.set_trailing_metadata((("grpc-status-details-bin", STATUS),))
        await context.abort(grpc.StatusCode.PERMISSION_DENIED, "operators only")
        raise AssertionError("unreachable")

    async def watch(self, request: bytes, context: grpc.aio.ServicerContext) -> AsyncIterator[bytes]:
        asked = message("WatchMatchRequest").FromString(request)
        for version in (1, 2):
            yield message("WatchMatchResponse")(
                version=version, view_json=json.dumps({"m": asked.match_id})
            ).SerializeToString()
        await context.abort(grpc.StatusCode.OUT_OF_RANGE, "no version 3")

    def handlers(self) -> list[grpc.GenericRpcHandler]:
        return [
            grpc.method_handlers_generic_handler(
                "gamehall.v1.AuthService", {"WhoAmI": grpc.unary_unary_rpc_method_handler(self.who)}
            ),
            grpc.method_handlers_generic_handler(
                "gamehall.v1.CatalogService", {"ListGames": grpc.unary_unary_rpc_method_handler(self.games)}
            ),
            grpc.method_handlers_generic_handler(
                "gamehall.v1.MatchService", {"WatchMatch": grpc.unary_stream_rpc_method_handler(self.watch)}
            ),
        ]


@pytest.fixture
async def web(tmp_path: Path) -> AsyncIterator[tuple[TestClient, FakeGateway]]:
    gateway = FakeGateway()
    server = grpc.aio.server()
    server.add_generic_rpc_handlers(gateway.handlers())
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    (tmp_path / "index.html").write_text("<!doctype html><title>t</title>")
    bridge = Bridge(f"127.0.0.1:{port}", client_key=CLIENT_KEY)
    bridge.connect()
    app = http_app(bridge, Pages(tmp_path), Origins(parse_origins("https://friends.example")))
    client = TestClient(TestServer(app))
    await client.start_server()
    try:
        yield client, gateway
    finally:
        await client.close()
        await bridge.close()
        await server.stop(None)


def _unary(token: str = "") -> dict[str, str]:
    headers = {"Content-Type": "application/proto", "Connect-Protocol-Version": "1"}
    return {**headers, "Authorization": f"Bearer {token}"} if token else headers


async def test_a_unary_call_passes_bytes_token_and_address_through(web: tuple[TestClient, FakeGateway]) -> None:
    client, gateway = web
    reply = await client.post(
        "/gamehall.v1.AuthService/WhoAmI", data=b"", headers={**_unary("tok"), "X-Forwarded-For": "6.6.6.6"}
    )
    assert reply.status == 200 and reply.headers["Content-Type"] == "application/proto"
    account = message("WhoAmIResponse").FromString(await reply.read()).account
    assert account.username == "Bearer tok|127.0.0.1"  # the browser's claimed address is replaced by its real one
    assert gateway.seen[0][0] == b""
    # ... and vouched for with the shared key, so the gateway's login limits count this browser (issue 38)
    assert web_client.vouched(CLIENT_KEY, gateway.seen[0][1][web_client.HEADER]) == "127.0.0.1"


async def test_a_browser_cannot_send_its_own_vouched_address(web: tuple[TestClient, FakeGateway]) -> None:
    client, gateway = web
    forged = web_client.vouch(b"a key the browser made up, 32+ bytes", "6.6.6.6")
    await client.post("/gamehall.v1.AuthService/WhoAmI", data=b"", headers={**_unary(), web_client.HEADER: forged})
    assert web_client.vouched(CLIENT_KEY, gateway.seen[0][1][web_client.HEADER]) == "127.0.0.1"


async def test_json_is_accepted_for_curl(web: tuple[TestClient, FakeGateway]) -> None:
    client, _ = web
    reply = await client.post(
        "/gamehall.v1.AuthService/WhoAmI", data=b"{}", headers={"Content-Type": "application/json"}
    )
    assert reply.status == 200
    assert (await reply.json())["account"]["id"] == "a1"


async def test_a_grpc_error_becomes_a_connect_error_with_the_gateways_details(
    web: tuple[TestClient, FakeGateway],
) -> None:
    client, _ = web
    reply = await client.post("/gamehall.v1.CatalogService/ListGames", data=b"", headers=_unary("tok"))
    assert reply.status == 403
    body = await reply.json()
    assert body["code"] == "permission_denied" and body["message"] == "operators only"
    (info,) = body["details"]
    assert info["type"] == "google.rpc.ErrorInfo" and _unb64(info["value"]) == ERROR_INFO


async def test_a_server_stream_is_relayed_and_ends_with_its_status(web: tuple[TestClient, FakeGateway]) -> None:
    client, _ = web
    request = message("WatchMatchRequest")(match_id="m7", delay_actions=2).SerializeToString()
    reply = await client.post(
        "/gamehall.v1.MatchService/WatchMatch",
        data=connect.envelope(request),
        headers={"Content-Type": "application/connect+proto", "Authorization": "Bearer tok"},
    )
    assert reply.status == 200 and reply.headers["Content-Type"] == "application/connect+proto"
    frames = list(connect.envelopes(await reply.read()))
    views = [message("WatchMatchResponse").FromString(p) for f, p in frames if not f & connect.END_STREAM]
    assert [(v.version, json.loads(v.view_json)) for v in views] == [(1, {"m": "m7"}), (2, {"m": "m7"})]
    flags, end = frames[-1]
    assert flags == connect.END_STREAM
    assert json.loads(end)["error"] == {"code": "out_of_range", "message": "no version 3"}


@pytest.mark.parametrize(
    ("path", "headers", "body", "status", "code"),
    [
        ("/gamehall.v1.Nope/Nope", _unary(), b"", 501, "unimplemented"),
        ("/gamehall.internal.v1.PersistenceService/GetAccount", _unary(), b"", 501, "unimplemented"),
        ("/gamehall.v1.AuthService/WhoAmI", {"Content-Type": "text/plain"}, b"", 415, "unimplemented"),
        ("/gamehall.v1.AuthService/Login", _unary(), b"\xff\xff", 400, "invalid_argument"),
        (
            "/gamehall.v1.MatchService/WatchMatch",
            {"Content-Type": "application/connect+proto"},
            b"\x00\x00\x00\x00\x09",
            400,
            "invalid_argument",
        ),
        ("/gamehall.v1.AuthService/WhoAmI", {**_unary(), "Connect-Timeout-Ms": "soon"}, b"", 400, "invalid_argument"),
    ],
)
async def test_framing_mistakes_are_refused_before_the_gateway(
    web: tuple[TestClient, FakeGateway], path: str, headers: dict[str, str], body: bytes, status: int, code: str
) -> None:
    client, gateway = web
    reply = await client.post(path, data=body, headers=headers)
    assert (reply.status, (await reply.json())["code"]) == (status, code)
    assert gateway.seen == []


async def test_other_origins_are_refused_and_listed_ones_get_cors_without_credentials(
    web: tuple[TestClient, FakeGateway],
) -> None:
    client, gateway = web
    evil = await client.post(
        "/gamehall.v1.AuthService/WhoAmI", data=b"", headers={**_unary(), "Origin": "https://evil.example"}
    )
    assert evil.status == 403 and gateway.seen == []
    preflight = await client.options(
        "/gamehall.v1.AuthService/WhoAmI",
        headers={"Origin": "https://friends.example", "Access-Control-Request-Method": "POST"},
    )
    assert preflight.status == 204
    assert preflight.headers["Access-Control-Allow-Origin"] == "https://friends.example"
    assert "Access-Control-Allow-Credentials" not in preflight.headers
    friend = await client.post(
        "/gamehall.v1.AuthService/WhoAmI", data=b"", headers={**_unary(), "Origin": "https://friends.example"}
    )
    assert friend.status == 200 and friend.headers["Vary"] == "Origin"
    same = await client.post(
        "/gamehall.v1.AuthService/WhoAmI",
        data=b"",
        headers={**_unary(), "Origin": f"http://{client.host}:{client.port}"},
    )
    assert same.status == 200 and "Access-Control-Allow-Origin" not in same.headers


def test_a_wildcard_origin_is_refused() -> None:
    for setting in ("*", "https://ok.example,*", "not a url", "https://x.example/path"):
        with pytest.raises(ValueError):
            parse_origins(setting)
    assert parse_origins(" https://A.example:8443/ , ") == frozenset({"https://a.example:8443"})


async def test_pages_carry_a_strict_content_security_policy(web: tuple[TestClient, FakeGateway]) -> None:
    client, _ = web
    page = await client.get("/")
    assert page.status == 200
    csp = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe" not in csp
    assert (await client.get("/assets/../index.html")).status == 404
    assert (await client.get("/assets/missing.js")).status == 404


def test_every_public_rpc_is_bridged_and_the_watches_stream() -> None:
    """Against the proto files' own text: every `rpc` of every public service has its path."""
    declared, streams = set(), set()
    for proto in PUBLIC_PROTOS.glob("*.proto"):
        text = proto.read_text()
        for service, body in re.findall(r"^service (\w+) \{(.*?)^\}", text, re.S | re.M):
            for name, returns in re.findall(r"rpc (\w+)\(\w+\) returns \((stream )?\w+\)", body):
                declared.add(f"/gamehall.v1.{service}/{name}")
                if returns:
                    streams.add(f"/gamehall.v1.{service}/{name}")
    methods = connect.public_methods()
    assert set(methods) == declared and len(declared) > 30
    assert {path for path, m in methods.items() if m.server_streaming} == streams
    assert {"/gamehall.v1.MatchService/WatchMatch", "/gamehall.v1.TournamentService/WatchStandings"} <= streams


def test_status_details_are_read_from_a_google_rpc_status() -> None:
    detail = any_pb2.Any(type_url="type.googleapis.com/google.rpc.ErrorInfo", value=b"\x0a\x03why")
    packed = detail.SerializeToString()
    status = b"\x08\x07" + b"\x12\x02no" + b"\x1a" + bytes([len(packed)]) + packed  # code 7, message, details[0]
    found = connect.error_details([("grpc-status-details-bin", status)])
    assert found == [{"type": "google.rpc.ErrorInfo", "value": base64.b64encode(b"\x0a\x03why").decode().rstrip("=")}]
    assert connect.error_details([("grpc-status-details-bin", b"\x1a\xff")]) == []  # malformed: nothing, no crash


def _unb64(text: str) -> bytes:
    return base64.b64decode(text + "=" * (-len(text) % 4))
