"""Named errors of the accounts library; the gateway maps them to gRPC statuses via `grpc_status`."""

from __future__ import annotations


class AuthError(Exception):
    """Base of every error the auth library raises on purpose; `str(exc)` is safe to show the user."""

    grpc_status = "UNAUTHENTICATED"


class InvalidUsername(AuthError, ValueError):
    """A username that breaks the username policy (length, characters, reserved names)."""

    grpc_status = "INVALID_ARGUMENT"


class WeakPassword(AuthError, ValueError):
    """A password that breaks the password policy (length, variety, equal to the username)."""

    grpc_status = "INVALID_ARGUMENT"


class InvalidToken(AuthError):
    """A bearer token that is malformed, forged, from another issuer or missing a claim."""

    grpc_status = "UNAUTHENTICATED"


class ExpiredToken(InvalidToken):
    """A well-signed token whose `exp` has passed; the client should log in again."""

    grpc_status = "UNAUTHENTICATED"


class PermissionDenied(AuthError):
    """An authenticated caller whose role does not allow the operation."""

    grpc_status = "PERMISSION_DENIED"
