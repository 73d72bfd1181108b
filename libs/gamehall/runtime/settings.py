"""Typed settings from environment variables (prefix ``GAMEHALL_``), with embedded defaults.

Every service reads the same `Settings`; a value missing from the environment takes the
default that `gamehall run` uses on one machine. Invalid values fail at start with the
variable's name, never later.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# Default ports of the embedded platform: (gRPC, metrics) per service.
DEFAULT_PORTS: dict[str, tuple[int, int]] = {
    "gateway": (50051, 9101),
    "persistence": (50052, 9102),
    "matchmaking": (50053, 9103),
    "ai": (50054, 9104),
    "web": (50055, 9105),
    "rules-grimslingers": (50061, 9111),
    "rules-grimmoir": (50062, 9112),
    "rules-tiny-epic-quest": (50063, 9113),
    "rules-grimm-world": (50064, 9114),
}

DEFAULT_HTTP_PORTS: dict[str, int] = {"web": 8080}
"""HTTP ports of the embedded platform's services that have one (the web pages and their API bridge)."""


class Settings(BaseSettings):
    """Configuration of one service process."""

    model_config = SettingsConfigDict(env_prefix="GAMEHALL_", extra="ignore", frozen=True)

    service: str = Field("service", description="Name of this service, bound into logs and metrics.")
    host: str = Field("127.0.0.1", description="Interface the gRPC server binds (0.0.0.0 in containers).")
    grpc_port: int = Field(0, ge=0, le=65535, description="gRPC port; 0 picks a free one.")
    metrics_port: int = Field(0, ge=0, le=65535, description="Prometheus port; 0 picks a free one.")
    http_port: int = Field(0, ge=0, le=65535, description="web: the HTTP port of the pages and API; 0 picks one.")
    web_allowed_origins: str = Field(
        "",
        description=(
            "web: other origins (scheme://host[:port], comma separated) whose pages may call the API; empty: "
            "only the web service's own pages. Never a wildcard: tokens travel in the Authorization header."
        ),
    )
    log_format: Literal["json", "console", "auto"] = Field("auto", description="auto: console on a TTY, else JSON.")
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    data_dir: Path = Field(Path("var"), description="Where embedded state lives (SQLite file, JetStream store).")
    nats_url: str = Field("nats://127.0.0.1:4222", description="NATS server(s), comma separated.")
    database_url: str = Field("", description="sqlite:///path or postgresql://...; empty: SQLite in data_dir.")
    environment: Literal["embedded", "production"] = Field(
        "embedded",
        description="production: every secret must be configured (nothing is generated into the data dir).",
    )
    token_key: SecretStr = Field(
        SecretStr(""),
        description=(
            "HS256 signing key of bearer tokens, at least 32 bytes. Empty: an embedded start on a loopback "
            "address generates one into <data_dir>/secrets; any other start refuses (embedded_secrets.token_key)."
        ),
    )
    operator_password: SecretStr = Field(
        SecretStr(""),
        description=(
            "Bootstrap password of the 'operator' account. Empty: generated into <data_dir>/secrets for an "
            "embedded start; no bootstrap account otherwise."
        ),
    )
    jetstream_replicas: int = Field(
        1,
        ge=1,
        le=5,
        description="Copies of every JetStream stream: 1 on one server (embedded), 3 on a JetStream cluster.",
    )
    game: str = Field("", description="The game a rules host serves (rules services only).")
    advertise_addr: str = Field(
        "",
        description="rules: the host:port the gateways reach this replica at, as they route by it (the pod's IP "
        "in Kubernetes); announced to the game's other replicas so each arms the clocks of the matches it owns. "
        "Empty: host:port of the gRPC server (host must then not be a wildcard).",
    )
    persistence_addr: str = Field("127.0.0.1:50052", description="host:port of the persistence service.")
    matchmaking_addr: str = Field("127.0.0.1:50053", description="host:port of the matchmaking service.")
    gateway_addr: str = Field("127.0.0.1:50051", description="host:port of the gateway (bots submit through it).")
    rules_addrs: dict[str, str] = Field(
        default_factory=dict, description='JSON map game id -> host:port of its rules host, e.g. {"grimmoir": "h:1"}.'
    )
    ai_ack_wait_seconds: float = Field(
        6.0,
        gt=0,
        description="ai service: how long a turn goes unacknowledged before another ai replica gets it. A worker "
        "thinking longer keeps its turn with in-progress acks every third of this, so it bounds the pause a "
        "crashed ai costs (issue 20, finding 8), not the think time.",
    )
    ai_turns_in_flight: int = Field(
        64,
        ge=1,
        description="ai service: turns of one game a replica holds at once, per consumer (each pulled only when "
        "there is room). A brief turn spends most of its time waiting on the rules replica, so room for many keeps "
        "the ai busy; a long think waits for a think thread while held, so a replica of hard bots can lower it to "
        "share turns out more evenly across replicas.",
    )
    matchmaking_bot_fill_seconds: float = Field(
        10.0, ge=0, description="matchmaking: a ticket that allows bots gets bot seats after waiting this long."
    )
    match_idle_seconds: float = Field(
        72 * 3600.0,
        ge=0,
        description="rules: a running match with no step for this long is abandoned (ends aborted), clock or no "
        "clock; 0 keeps such matches forever (issue 20, finding 8).",
    )
    matchmaking_pass_seconds: float = Field(
        0.5, gt=0, description="matchmaking: how often each queue is matched (tournaments run on their events)."
    )
    ticket_history_days: float = Field(
        30.0, gt=0, description="persistence: matched and cancelled matchmaking tickets are kept this long."
    )
    match_retention: Literal["keep", "compact", "archive"] = Field(
        "keep",
        description=(
            "persistence: what happens to closed matches older than match_retention_days. keep: nothing; "
            "compact: drop all but the final snapshot (replay re-runs from the seed); archive: move them "
            "into a compressed archive table, out of the hot tables (`gamehall archive` reads them back)."
        ),
    )
    match_retention_days: float = Field(
        30.0, gt=0, description="persistence: closed matches are compacted or archived after this many days."
    )
    registration: Literal["open", "invite", "operator-only"] = Field(
        "open",
        description=(
            "gateway: who may Register. open: anyone; invite: only with one of registration_invite_codes; "
            "operator-only: only an operator's authenticated call (the operator creates accounts for people)."
        ),
    )
    registration_invite_codes: SecretStr = Field(
        SecretStr(""), description="gateway, invite registration: accepted invite codes, comma separated."
    )
    auth_login_per_ip: str = Field(
        "30/minute;300/hour", description="gateway: Login attempts per client address (limits notation)."
    )
    auth_login_per_username: str = Field(
        "10/minute;100/hour", description="gateway: Login attempts per username from one client address."
    )
    auth_register_per_ip: str = Field(
        "5/minute;50/hour", description="gateway: Register calls per client address (limits notation)."
    )
    auth_free_failures: int = Field(
        5,
        ge=1,
        le=1000,
        description="gateway: failed logins of one username from one address before each next try must wait.",
    )
    auth_max_backoff_seconds: float = Field(
        300.0, gt=0, description="gateway: longest wait after repeated failed logins (doubling from 1 s)."
    )
    auth_trust_forwarded_for: bool = Field(
        False, description="gateway: take the client address from x-forwarded-for (behind a trusted proxy only)."
    )
    web_client_key: SecretStr = Field(
        SecretStr(""),
        description="gateway and web: the shared key (32+ bytes) with which the web service vouches for each "
        "browser's address (x-gamehall-web-client), so login limits count browsers. Empty: an embedded start "
        "generates one in <data dir>/secrets; elsewhere the header is neither sent nor believed.",
    )
    tls_cert_file: Path | None = Field(
        None, description="This service's certificate (PEM; its name in the SAN/CN is its identity for mTLS)."
    )
    tls_key_file: Path | None = Field(None, description="The private key of tls_cert_file (PEM).")
    tls_ca_file: Path | None = Field(
        None, description="CA bundle that issues the platform's certificates: internal peers and nats-server."
    )
    public_tls_cert_file: Path | None = Field(None, description="gateway: the public port's certificate chain (PEM).")
    public_tls_key_file: Path | None = Field(None, description="gateway: the public certificate's private key.")
    web_tls_cert_file: Path | None = Field(
        None,
        description="web: the HTTPS certificate chain of the pages' port (PEM; `gamehall run` gives it the gateway's "
        "public pair, renewed the same way). None: plain HTTP (loopback, or TLS ended by an Ingress).",
    )
    web_tls_key_file: Path | None = Field(None, description="web: the private key of web_tls_cert_file.")
    tls_reload_seconds: float = Field(
        5.0,
        gt=0,
        description="How often the certificate files are checked for a renewal (stat only; re-read when changed): "
        "new connections and calls use a renewed pair within this time, without a restart.",
    )
    gateway_ca_file: Path | None = Field(
        None,
        description="web: the CA (or self-signed certificate) that verifies the gateway's public TLS port; "
        "none: the bridge reaches the gateway in plaintext.",
    )
    allow_plaintext: bool = Field(
        False,
        description=(
            "Serve without TLS on a non-loopback or production start (only when a service mesh or proxy encrypts "
            "and authenticates every hop). Otherwise such a start without certificates refuses."
        ),
    )
    health_port: int = Field(
        0,
        ge=0,
        le=65535,
        description="A plaintext port serving only gRPC health (kubelet probes cannot speak TLS); 0: none.",
    )
    nats_user: str = Field("", description="This service's NATS user (its own subjects only; see nats_access).")
    nats_password: SecretStr = Field(SecretStr(""), description="The password of nats_user.")
    grace_seconds: float = Field(10.0, gt=0, description="How long SIGTERM waits for in-flight RPCs to finish.")
    event_loop: Literal["asyncio", "uvloop"] = Field(
        "asyncio",
        description=(
            "The asyncio event loop a service runs on: the standard library's, or uvloop (libuv), whose gain "
            "is within this machine's noise so far (see the README)."
        ),
    )
    max_message_bytes: int = Field(4 * 1024 * 1024, gt=1024, description="Largest gRPC message accepted.")
    play_stream_linger_ms: float = Field(
        1.0,
        ge=0,
        le=50,
        description=(
            "gateway, ai and rules: under load (the previous message on a play stream went out less than ten "
            "lingers ago), how long a side waits for more calls or answers to share the next message; a lone "
            "call is never held, 0 never waits (gamehall.runtime.play_stream.Linger)."
        ),
    )
    projection_linger_ms: float = Field(
        250.0,
        ge=0,
        le=5000,
        description=(
            "persistence: after a short batch, how long the projector waits before fetching the next, so the "
            "entries arriving meanwhile share one transaction (the SQL projection runs up to this far behind the "
            "log; moves, and reads of a running match, never wait for it)."
        ),
    )
    gc_young_threshold: int = Field(
        7000,
        ge=0,
        description=(
            "The cyclic collector's first threshold once the service is serving (gamehall.runtime.collector), "
            "which also freezes the start-up heap out of later collections; 0 keeps CPython's 700."
        ),
    )

    @field_validator("service")
    @classmethod
    def _service_name(cls, value: str) -> str:
        if not value or not all(c.isalnum() or c in "-_" for c in value):
            raise ValueError("service must be a non-empty name of letters, digits, '-' and '_'")
        return value

    @field_validator("auth_login_per_ip", "auth_login_per_username", "auth_register_per_ip")
    @classmethod
    def _rate_limits(cls, value: str) -> str:
        from limits import parse_many  # the notation the gateway's auth limits use, e.g. "5/minute;50/hour"

        try:
            parse_many(value)
        except ValueError as exc:
            raise ValueError(f"not a rate limit like '5/minute;50/hour': {value[:40]!r}") from exc
        return value

    def database_dsn(self) -> str:
        """The store DSN, defaulting to a SQLite file in the data dir."""
        return self.database_url or f"sqlite:///{(self.data_dir / 'gamehall.db').resolve()}"

    def play_stream_linger(self) -> float:
        """`play_stream_linger_ms` in seconds, as `gamehall.runtime.play_stream` takes it."""
        return self.play_stream_linger_ms / 1000


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
