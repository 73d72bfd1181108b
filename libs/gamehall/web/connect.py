"""The Connect protocol (connectrpc.com/docs/protocol) as the web bridge speaks it to browsers.

The bridge forwards each Connect call to the gateway as the same gRPC call, so this module only knows
the wire: which public methods exist (from the `gamehall.v1` descriptors, so the protos are the only
list), how a request is framed (a bare message for unary calls, a 5-byte envelope per message for
streams), how a gRPC status becomes a Connect error (code name, HTTP status, details) and how a
stream ends. Both codecs are accepted: `proto` (what the page uses) and `json` (for curl).
"""

from __future__ import annotations

import base64
import importlib
import json
import pkgutil
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf import json_format
from google.protobuf.descriptor import FileDescriptor
from google.protobuf.message import DecodeError, Message
from google.protobuf.message_factory import GetMessageClass

END_STREAM = 0x02
"""Envelope flag of the last frame of a Connect stream (a JSON object with the error and trailers)."""
MAX_TIMEOUT_MS = 10**10
"""Connect-Timeout-Ms has at most 10 digits."""

CODES: dict[grpc.StatusCode, tuple[str, int]] = {
    grpc.StatusCode.CANCELLED: ("canceled", 499),
    grpc.StatusCode.UNKNOWN: ("unknown", 500),
    grpc.StatusCode.INVALID_ARGUMENT: ("invalid_argument", 400),
    grpc.StatusCode.DEADLINE_EXCEEDED: ("deadline_exceeded", 504),
    grpc.StatusCode.NOT_FOUND: ("not_found", 404),
    grpc.StatusCode.ALREADY_EXISTS: ("already_exists", 409),
    grpc.StatusCode.PERMISSION_DENIED: ("permission_denied", 403),
    grpc.StatusCode.RESOURCE_EXHAUSTED: ("resource_exhausted", 429),
    grpc.StatusCode.FAILED_PRECONDITION: ("failed_precondition", 400),
    grpc.StatusCode.ABORTED: ("aborted", 409),
    grpc.StatusCode.OUT_OF_RANGE: ("out_of_range", 400),
    grpc.StatusCode.UNIMPLEMENTED: ("unimplemented", 501),
    grpc.StatusCode.INTERNAL: ("internal", 500),
    grpc.StatusCode.UNAVAILABLE: ("unavailable", 503),
    grpc.StatusCode.DATA_LOSS: ("data_loss", 500),
    grpc.StatusCode.UNAUTHENTICATED: ("unauthenticated", 401),
}
"""gRPC status -> (Connect code, HTTP status of a unary error), as the protocol specifies."""


class ProtocolError(Exception):
    """A request the bridge cannot forward (bad framing, codec or body): refused before the gateway."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Method:
    """One public RPC: its path (`/gamehall.v1.Service/Method`), kind and message classes."""

    path: str
    server_streaming: bool
    request_type: type[Message]
    response_type: type[Message]

    def decode(self, body: bytes, codec: str) -> bytes:
        """The request as protobuf bytes for the gateway (JSON is parsed into the request type first)."""
        if codec == "proto":
            try:
                self.request_type.FromString(body)  # malformed bytes are the caller's mistake, said here
            except DecodeError as exc:
                raise ProtocolError(grpc.StatusCode.INVALID_ARGUMENT, f"not a protobuf message: {exc}") from exc
            return body
        try:
            message = json_format.Parse(body.decode() or "{}", self.request_type())
        except (json_format.ParseError, UnicodeDecodeError) as exc:
            raise ProtocolError(grpc.StatusCode.INVALID_ARGUMENT, f"not a JSON request: {exc}") from exc
        return bytes(message.SerializeToString())

    def encode(self, payload: bytes, codec: str) -> bytes:
        """The gateway's reply in the caller's codec."""
        if codec == "proto":
            return payload
        message = self.response_type.FromString(payload)
        text: str = json_format.MessageToJson(message, indent=None)
        return text.encode()


def public_files() -> list[FileDescriptor]:
    """Every generated file of the public API (proto package `gamehall.v1`, generated into `gamehall_sdk.v1`),
    found by name so a new file or a split of one needs no edit here."""
    import gamehall_sdk.v1 as package

    names = sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.name.endswith("_pb2"))
    return [importlib.import_module(f"{package.__name__}.{name}").DESCRIPTOR for name in names]


def public_methods(files: Iterable[FileDescriptor] | None = None) -> dict[str, Method]:
    """Every RPC of the public API by path; client-streaming RPCs are left out (browsers cannot send them)."""
    methods: dict[str, Method] = {}
    for file in public_files() if files is None else files:
        for service in file.services_by_name.values():
            for rpc in service.methods:
                if rpc.client_streaming:
                    continue
                path = f"/{service.full_name}/{rpc.name}"
                methods[path] = Method(
                    path, rpc.server_streaming, GetMessageClass(rpc.input_type), GetMessageClass(rpc.output_type)
                )
    return methods


def codec_of(content_type: str, streaming: bool) -> str:
    """`proto` or `json` from the request's Content-Type, or UNIMPLEMENTED-as-415 for anything else."""
    base = content_type.split(";", 1)[0].strip().lower()
    prefix = "application/connect+" if streaming else "application/"
    if base.startswith(prefix) and base[len(prefix) :] in ("proto", "json"):
        return base[len(prefix) :]
    raise ProtocolError(grpc.StatusCode.UNIMPLEMENTED, f"unsupported content type {base[:60]!r}")


def content_type(codec: str, streaming: bool) -> str:
    return f"application/connect+{codec}" if streaming else f"application/{codec}"


def timeout_seconds(header: str | None) -> float | None:
    """Connect-Timeout-Ms as seconds (None: no deadline asked)."""
    if header is None or header == "":
        return None
    if not header.isdigit() or len(header) > 10:
        raise ProtocolError(grpc.StatusCode.INVALID_ARGUMENT, "Connect-Timeout-Ms must be at most 10 digits")
    return int(header) / 1000.0


def envelope(payload: bytes, flags: int = 0) -> bytes:
    return struct.pack(">BI", flags, len(payload)) + payload


def envelopes(body: bytes) -> Iterator[tuple[int, bytes]]:
    """The (flags, payload) frames of an enveloped body; a truncated frame is INVALID_ARGUMENT."""
    offset = 0
    while offset < len(body):
        if len(body) - offset < 5:
            raise ProtocolError(grpc.StatusCode.INVALID_ARGUMENT, "truncated envelope header")
        flags, size = struct.unpack_from(">BI", body, offset)
        offset += 5
        if len(body) - offset < size:
            raise ProtocolError(grpc.StatusCode.INVALID_ARGUMENT, "truncated envelope")
        yield flags, body[offset : offset + size]
        offset += size


def single_message(body: bytes) -> bytes:
    """The one request message of a server-streaming call (compressed frames are refused)."""
    frames = list(envelopes(body))
    if len(frames) != 1:
        raise ProtocolError(grpc.StatusCode.INVALID_ARGUMENT, f"expected one request message, got {len(frames)}")
    flags, payload = frames[0]
    if flags & 0x01:
        raise ProtocolError(grpc.StatusCode.UNIMPLEMENTED, "compressed messages are not accepted")
    return payload


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode().rstrip("=")


def error_details(trailers: Iterable[tuple[str, Any]]) -> list[dict[str, str]]:
    """The gateway's error details as Connect details: each `google.protobuf.Any` of the google.rpc.Status in
    `grpc-status-details-bin` (ErrorInfo, RequestInfo, RetryInfo, BadRequest), type named without its URL prefix."""
    details: list[dict[str, str]] = []
    for key, value in trailers:
        if key == "grpc-status-details-bin" and isinstance(value, bytes):
            details.extend({"type": url.rsplit("/", 1)[-1], "value": _b64(raw)} for url, raw in _status_details(value))
    return details


def _status_details(status: bytes) -> list[tuple[str, bytes]]:
    """The (type_url, value) of each detail of a serialized google.rpc.Status (field 3, repeated Any), read
    from the wire format so the bridge needs no googleapis protos."""
    from google.protobuf import any_pb2

    found: list[tuple[str, bytes]] = []
    try:
        for number, raw in _fields(status):
            if number == 3:
                detail = any_pb2.Any.FromString(raw)
                found.append((detail.type_url, bytes(detail.value)))
    except (DecodeError, IndexError, ValueError):
        return found
    return found


def _varint(data: bytes, offset: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[offset]
        offset += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, offset
        shift += 7
        if shift > 63:
            raise ValueError("varint too long")


def _fields(data: bytes) -> Iterator[tuple[int, bytes]]:
    """(field number, bytes) of each length-delimited field; other wire types are skipped."""
    offset = 0
    while offset < len(data):
        key, offset = _varint(data, offset)
        number, wire = key >> 3, key & 7
        if wire == 0:
            _, offset = _varint(data, offset)
        elif wire == 2:
            size, offset = _varint(data, offset)
            yield number, data[offset : offset + size]
            offset += size
        elif wire == 1:
            offset += 8
        elif wire == 5:
            offset += 4
        else:
            raise ValueError(f"unsupported wire type {wire}")


def error_body(code: grpc.StatusCode, message: str, details: list[dict[str, str]] | None = None) -> dict[str, Any]:
    """A Connect error object (the body of a failed unary call, the `error` of a stream's end)."""
    body: dict[str, Any] = {"code": CODES.get(code, ("unknown", 500))[0], "message": message}
    if details:
        body["details"] = details
    return body


def http_status(code: grpc.StatusCode) -> int:
    return CODES.get(code, ("unknown", 500))[1]


def end_of_stream(error: dict[str, Any] | None = None) -> bytes:
    """The last frame of a Connect stream: success (no error) or the error that ended it."""
    return envelope(json.dumps({"error": error} if error else {}).encode(), END_STREAM)


__all__ = [
    "CODES",
    "Method",
    "ProtocolError",
    "codec_of",
    "content_type",
    "end_of_stream",
    "envelope",
    "envelopes",
    "error_body",
    "error_details",
    "http_status",
    "public_files",
    "public_methods",
    "single_message",
    "timeout_seconds",
]
