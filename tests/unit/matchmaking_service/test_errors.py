"""Every named error of the matchmaking and tournament libraries maps to the status it declares."""

from __future__ import annotations

import grpc

from gamehall.matchmaking import errors as mm
from gamehall.runtime.errors import lookup
from gamehall.tournaments import errors as tn
from gamehall_services.matchmaking.errors import REGISTERED
from gamehall_services.matchmaking.store_client import Stale


def test_each_library_error_gets_its_declared_status() -> None:
    expected = {
        mm.InvalidTicket: grpc.StatusCode.INVALID_ARGUMENT,
        mm.AlreadyQueued: grpc.StatusCode.ALREADY_EXISTS,
        mm.UnknownTicket: grpc.StatusCode.NOT_FOUND,
        tn.RegistrationClosed: grpc.StatusCode.FAILED_PRECONDITION,
        tn.AlreadyRegistered: grpc.StatusCode.ALREADY_EXISTS,
        tn.NotRegistered: grpc.StatusCode.NOT_FOUND,
        tn.InvalidResult: grpc.StatusCode.INVALID_ARGUMENT,
        tn.TooFewPlayers: grpc.StatusCode.FAILED_PRECONDITION,
    }
    assert set(expected) <= set(REGISTERED)
    for klass in REGISTERED:
        found = lookup(klass.__new__(klass))
        assert found is not None and found.code == grpc.StatusCode[klass.grpc_status]  # type: ignore[attr-defined]
    for klass, code in expected.items():
        assert lookup(klass.__new__(klass)).code == code  # type: ignore[union-attr]


def test_a_compare_and_swap_that_kept_losing_is_aborted_for_the_caller_to_retry() -> None:
    found = lookup(Stale("tournament tn-1: too many concurrent writers"))
    assert found is not None and found.code == grpc.StatusCode.ABORTED
