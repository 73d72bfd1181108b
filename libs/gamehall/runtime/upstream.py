"""A failed call to another platform service, translated for the caller of this one.

A status the client caused upstream (an illegal move found by the rules host, a version conflict
found by persistence) keeps its code, message and error details (reason, metadata, field, retry);
an unreachable service is UNAVAILABLE with a hint to retry; anything else is the platform's fault
and stays an error the interceptor reports as INTERNAL with a trace id. Shared by every service that
calls another (gateway, matchmaking).
A message that carries a database's own words (a foreign-key or unique-constraint text) keeps only the
part before them: the schema is nobody's business outside (issue 20, finding 9).
"""

from __future__ import annotations

import re

import grpc

from gamehall.runtime.errors import ClientError, read_failure
from gamehall_sdk.v1 import common_pb2

PASSED_THROUGH = frozenset(
    {
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.ALREADY_EXISTS,
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.StatusCode.ABORTED,
        grpc.StatusCode.PERMISSION_DENIED,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        grpc.StatusCode.OUT_OF_RANGE,
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DEADLINE_EXCEEDED,
    }
)
"""Upstream codes passed to the caller as they are (anything else is the platform's fault)."""


_DATABASE_WORDS = re.compile(
    r"foreign key|unique constraint|constraint (?:failed|violated)|violates|duplicate key|key \(|table \"",
    re.IGNORECASE,
)


def public_message(message: str) -> str:
    """`message` without the database text a store may have appended in parentheses."""
    found = _DATABASE_WORDS.search(message)
    if found is None:
        return message
    cut = message.rfind(" (", 0, found.start())
    return message[:cut].strip() if cut > 0 else "the request conflicts with stored data"


def translate(exc: grpc.aio.AioRpcError) -> Exception:
    """The error to raise for a failed upstream call (a ClientError, or `exc` itself for INTERNAL)."""
    code = exc.code()
    if code not in PASSED_THROUGH:
        internal: Exception = exc
        return internal  # a bug or a crash upstream: INTERNAL with a trace id
    failure = read_failure(exc)
    message = public_message(exc.details() or code.name.lower())
    if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
        message = f"a platform service is unavailable, retry: {message}"
    if failure is None:
        return ClientError(code, message)
    return ClientError(
        code,
        message,
        failure.reason,
        metadata=failure.metadata,
        field=failure.field,
        retry_after=failure.retry_after,
    )


def translate_store_call(exc: grpc.aio.AioRpcError) -> Exception:
    """`translate` for a call to persistence made while serving a caller: a store that did not answer within the
    budget (`budget.upstream_timeout`) is UNAVAILABLE with a retry hint, an answer the caller can tell from a
    replica that did not answer at all (which is all a deadline running out would tell it)."""
    if exc.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
        return ClientError(
            grpc.StatusCode.UNAVAILABLE,
            "the store did not answer in time (the database is slow or away); retry",
            common_pb2.ERROR_REASON_UNAVAILABLE,
            retry_after=1.0,
        )
    return translate(exc)
