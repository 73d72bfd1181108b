"""The auth library's named errors in the runtime's error table (imported for its side effect)."""

from __future__ import annotations

import grpc

from gamehall.auth import errors
from gamehall.runtime.errors import register_error
from gamehall_sdk.v1 import common_pb2 as c

S = grpc.StatusCode
register_error(errors.InvalidUsername, S.INVALID_ARGUMENT, c.ERROR_REASON_MALFORMED, "username")
register_error(errors.WeakPassword, S.INVALID_ARGUMENT, c.ERROR_REASON_MALFORMED, "password")
register_error(errors.InvalidToken, S.UNAUTHENTICATED, c.ERROR_REASON_UNAUTHENTICATED)
register_error(errors.PermissionDenied, S.PERMISSION_DENIED, c.ERROR_REASON_PERMISSION_DENIED)
