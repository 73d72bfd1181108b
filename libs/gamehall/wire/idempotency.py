"""AIP-155 request ids for the mutations that have no natural key: what makes a retry recognisable.

A request id is scoped to its caller (`key`: a hash of caller and id, so ids chosen by different callers never
meet), and what it asked is summed up by `digest` (the request's deterministic bytes). A service records the
digest with the effect, atomically with it (a tournament document's compare-and-swap, a resource whose id is
derived from the key), so that a retry finds the record and answers the first result, and the same id sent
with another request is refused with ALREADY_EXISTS (`reused`), as CreateMatch does.
"""

from __future__ import annotations

import hashlib

import grpc
from google.protobuf.message import Message

from gamehall.runtime.errors import ClientError
from gamehall_sdk.v1 import common_pb2


def key(caller: str, request_id: str) -> str:
    """The caller-scoped key of `request_id` (hex; "" when there is no request id)."""
    if not request_id:
        return ""
    return hashlib.sha256(f"{caller}\0{request_id}".encode()).hexdigest()


def digest(request: Message) -> str:
    """A fingerprint of what `request` asks (its deterministic serialisation)."""
    return hashlib.sha256(request.SerializeToString(deterministic=True)).hexdigest()[:32]


def reused(request_id: str) -> ClientError:
    """The same request id with a different request: refused, the first request's effect untouched."""
    return ClientError(
        grpc.StatusCode.ALREADY_EXISTS,
        f"request_id {request_id[:40]!r} was used for another request; use a new id for a new request",
        common_pb2.ERROR_REASON_ALREADY_EXISTS,
        field="request_id",
    )


class Replayed(Exception):
    """Raised inside a document change that finds its request id already recorded: nothing is written; the
    caller answers from the record (`recorded`: what the first request stored)."""

    def __init__(self, recorded: str) -> None:
        super().__init__(recorded)
        self.recorded = recorded
