"""A store call's failure becomes the match domain's error the owner acts on, and still answers the caller with
the status, reason and message persistence gave (`gamehall.runtime.store_errors`)."""

from __future__ import annotations

import grpc

from gamehall.matches.errors import AlreadyUsed, NoSuchMatch, StoreRefused, Unavailable
from gamehall.runtime.errors import ClientError, failure_of
from gamehall.runtime.store_errors import as_domain
from gamehall_sdk.v1 import common_pb2


def test_a_refused_write_is_store_refused_with_persistences_status_and_reason() -> None:
    refused = ClientError(grpc.StatusCode.FAILED_PRECONDITION, "seat 1 is taken", common_pb2.ERROR_REASON_SEAT_TAKEN)
    found = as_domain(refused)
    assert isinstance(found, StoreRefused) and isinstance(found, ClientError)
    failure = failure_of(found, str(found))
    assert failure is not None
    assert (failure.code, failure.reason, failure.message) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        common_pb2.ERROR_REASON_SEAT_TAKEN,
        "seat 1 is taken",
    )


def test_each_code_the_flow_acts_on_has_its_domain_error_and_the_others_pass_as_they_are() -> None:
    kinds = {
        grpc.StatusCode.NOT_FOUND: NoSuchMatch,
        grpc.StatusCode.ALREADY_EXISTS: AlreadyUsed,
        grpc.StatusCode.UNAVAILABLE: Unavailable,
    }
    for code, kind in kinds.items():
        found = as_domain(ClientError(code, "x"))
        assert isinstance(found, kind) and isinstance(found, ClientError) and found.code is code
    aborted = ClientError(grpc.StatusCode.ABORTED, "x")
    assert as_domain(aborted) is aborted
    other = RuntimeError("a bug")
    assert as_domain(other) is other
