"""Every `gamehall.v1.ErrorReason` is in the README's error table (issue 39), with the status code it comes with
in the proto's comment, and a too large value is never a rate limit (no RetryInfo)."""

from __future__ import annotations

import re
from pathlib import Path

import grpc

from gamehall.runtime.errors import Failure, too_large
from gamehall_sdk.v1 import common_pb2

README = Path(__file__).resolve().parents[3] / "README.md"


def _errors_paragraph() -> str:
    text = README.read_text()
    start = text.index("**Errors (AIP-193).**")
    return text[start : text.index("\n\n", start)]


def test_every_reason_is_in_the_readme() -> None:
    listed = set(re.findall(r"`([A-Z_]+)`", _errors_paragraph()))
    names = common_pb2.ErrorReason.keys()
    reasons = {name.removeprefix("ERROR_REASON_") for name in names} - {"UNSPECIFIED"}
    assert reasons <= listed, f"missing from the README's error table: {sorted(reasons - listed)}"


def test_too_large_is_invalid_argument_without_retry_info() -> None:
    error = too_large("action_json", 20_480, 16_384)
    status = Failure(error.code, error.message, error.reason, error.metadata, field=error.field).status()
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert [d.TypeName() for d in status.details] == ["google.rpc.ErrorInfo", "google.rpc.BadRequest"]
