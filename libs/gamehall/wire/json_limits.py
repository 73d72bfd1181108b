"""Size and nesting limits of client JSON, checked on the text before anything parses it.

A 5,000-level array makes Python's json parser recurse until RecursionError (issue 20, finding 4);
the gateway's edge and the rules host both refuse such text with a clear status instead: too deep
is INVALID_ARGUMENT (MALFORMED), too large INVALID_ARGUMENT (TOO_LARGE, naming the limit; never a rate limit,
since sending it again cannot help). The depth scan is linear and never recurses.
"""

from __future__ import annotations

import re
from itertools import accumulate

import grpc

from gamehall.runtime.errors import ClientError, too_large
from gamehall_sdk.v1 import common_pb2

MAX_JSON_DEPTH = 32
"""Nesting of objects and arrays; a game's actions and options need a handful of levels."""
MAX_JSON_BYTES = 64 * 1024
"""The rules host's own ceiling (the gateway's per-field bounds are smaller)."""

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in `text` (brackets inside strings do not count)."""
    brackets = _BRACKETS.findall(_STRINGS.sub("", text))
    return max(accumulate(_STEP[b] for b in brackets), default=0)


def preview(value: str, chars: int = 24) -> str:
    """A short, safe prefix of a client's value for an error message: never the whole of a large input."""
    if len(value) <= chars:
        return repr(value)
    return f"{value[:chars]!r}… ({len(value)} characters)"


def check_json_text(text: str, what: str, *, max_bytes: int = MAX_JSON_BYTES, max_depth: int = MAX_JSON_DEPTH) -> None:
    """Refuse JSON text nested deeper than `max_depth` or over `max_bytes` (both INVALID_ARGUMENT; TOO_LARGE).

    Depth is judged first, on at most `max_bytes` characters (so the scan is bounded), which is
    enough to see that a 5,000-level array is too deep whatever its size.
    """
    depth = json_depth(text[: max_bytes + 1])
    if depth > max_depth:
        raise ClientError(
            grpc.StatusCode.INVALID_ARGUMENT,
            f"{what} nests {depth if len(text) <= max_bytes else f'over {depth}'} levels deep; "
            f"at most {max_depth} are accepted",
            common_pb2.ERROR_REASON_MALFORMED,
        )
    size = len(text.encode())
    if size > max_bytes:
        raise too_large(what, size, max_bytes)
