"""Hypothesis strategies for any protobuf message, built from its descriptor (issue 20, fuzzing).

`messages(descriptor)` draws messages of that type: every scalar type, enums (declared values and
unknown numbers), nested and repeated messages, maps, oneofs, proto3 `optional`, and the well-known
Timestamp and Duration. Values lean on boundaries: empty, at, just over and far over a string's limit,
the extremes of each integer type, NaN and infinities, deep, huge and malformed JSON in `*_json`
fields, and unicode oddities. Limits come from a bounds table shaped like the gateway's edge table
(`bounds[message name][field name]` with duck-typed `max_chars`, `low`/`high`, `max_bytes`/`max_depth`,
`max_items`/`each`, `max_seconds`); `seeds[field name]` mixes in values that exist (a real match id, a
game id) so calls get past "not found" into the handlers. Nothing here knows any RPC by name.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from google.protobuf import message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from hypothesis import strategies as st

MAX_NESTING = 4
"""Nested message levels drawn before a message field is left unset (guards recursive types)."""
HUGE_TEXT = 100_000
"""The 'far over any limit' string length: big enough to hurt an echo, far below gRPC's 4 MB."""
DEEP_JSON = 5_000
"""Nesting levels of the deepest JSON text drawn (the depth that once gave INTERNAL, issue 20 #4)."""

ODD_TEXT = (
    "",
    " ",
    "\x00",
    "a\x00b",
    "\t\r\n",
    "\u202eevil\u202c",  # right-to-left override
    "\u200b\u200d\ufeff",  # zero-width characters, BOM
    "e\u0301\u0301\u0301",  # stacked combining marks
    "\U0001f600\U0001f3f3\ufe0f\u200d\U0001f308",  # emoji and a ZWJ sequence
    "\U0001d54f\U0010ffff\uffff",  # astral and non-characters
    "İı",  # case folding that changes length
    "%s%n%x{0}",
    "../../../../etc/passwd",
    "' OR '1'='1' --",
    "null",
    "NaN",
    "-0",
    "\\u0000",
    "<script>alert(1)</script>",
)
ODD_JSON = (
    "",
    "{",
    "}",
    "[",
    '{"a":}',
    "{'a': 1}",
    "NaN",
    "Infinity",
    "-Infinity",
    "1e999999",
    "-0",
    "null",
    "true",
    "0",
    '""',
    '"\\ud800"',
    '{"a": 1, "a": 2}',
    '{"kind": null}',
    '{"kind": {"kind": []}}',
    "\x00",
    "[1,]",
    '{"a": 1} trailing',
    "\ufeff{}",
)

_INT_RANGES = {
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SINT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_FIXED32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SINT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
    FieldDescriptor.TYPE_FIXED64: (0, 2**64 - 1),
}
_FLOATS = (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT)
_TIME_TYPES = ("google.protobuf.Duration", "google.protobuf.Timestamp")


@dataclass(frozen=True)
class Seeds:
    """Values to mix into fields by name (ids captured from a running platform, game ids, legal
    actions); `json_keys`: object keys worth trying in JSON text (option names, action fields)."""

    by_field: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    json_keys: Sequence[str] = ()


def weighted(*branches: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """One of `branches`, each drawn in proportion to its weight."""
    return st.one_of([strategy for weight, strategy in branches for _ in range(weight)])


PLAIN = "abcdefghijklmnopqrstuvwxyz0123456789-_.:"
"""Characters every id and name pattern of the API accepts: plain values get past the edge into handlers."""


def texts(max_chars: int | None = None, pattern: re.Pattern[str] | None = None) -> st.SearchStrategy[str]:
    """Strings around a limit of `max_chars` (64 when unknown): mostly plain ones within it (most calls
    should get past the edge into the handlers), else odd ones, exactly at, one over and far over the
    limit, in multi-byte characters too; and, when the field has a pattern, strings that match it."""
    n = max_chars if max_chars is not None else 64
    around = st.sampled_from(sorted({0, 1, max(n - 1, 0), n, n + 1, 2 * n + 1, HUGE_TEXT}))
    filler = st.sampled_from(["x", "é", "\U0001f600", "\x7f", " "])
    branches: list[tuple[int, st.SearchStrategy[str]]] = [
        (4, st.text(st.sampled_from(PLAIN), min_size=1, max_size=min(n, 40))),
        (1, st.sampled_from(ODD_TEXT)),
        (1, st.builds(lambda k, c: c * k, around, filler)),
        (1, st.text(st.characters(exclude_categories=["Cs"]), max_size=min(n + 2, 300))),
    ]
    if pattern is not None:
        branches.append((1, st.from_regex(pattern, fullmatch=True).map(lambda s: s[:n])))
    return weighted(*branches)


def integers(low: int, high: int, bound: tuple[int, int] | None = None) -> st.SearchStrategy[int]:
    """Integers of a type's range [low, high]: its extremes, 0 and ±1, and a field's bounds and their
    neighbours, plus any value in between (mostly inside the field's bounds, when it has some)."""
    edges = {low, high, 0, 1, -1, 2**31 - 1, 2**31, 2**32 - 1, 2**53 + 1, 10**12}
    if bound is not None:
        for b in bound:
            edges |= {b - 1, b, b + 1}
    inside = sorted(v for v in edges if low <= v <= high)
    branches = [(1, st.sampled_from(inside)), (1, st.integers(low, high))]
    if bound is not None:
        small = st.integers(max(low, bound[0]), min(high, bound[1], bound[0] + 8))
        within = st.integers(max(low, bound[0]), min(high, bound[1]))
        near = st.integers(max(low, bound[0] - 2), min(high, bound[1] + 2))
        branches += [(3, small), (2, within), (1, near)]
    return weighted(*branches)


def floats() -> st.SearchStrategy[float]:
    return st.one_of(st.sampled_from([0.0, -0.0, math.nan, math.inf, -math.inf, 1e308, -1e-308]), st.floats())


def json_texts(max_bytes: int = 16 * 1024, max_depth: int = 32, keys: Sequence[str] = ()) -> st.SearchStrategy[str]:
    """JSON text: valid objects (with `keys` worth trying) and values, nesting at, just over and far
    over `max_depth`, text over `max_bytes`, and malformed text."""
    scalars = st.one_of(st.none(), st.booleans(), integers(-(2**70), 2**70), st.floats(allow_nan=False), texts(20))
    key = st.one_of(st.sampled_from(list(keys)), st.text(max_size=12)) if keys else st.text(max_size=12)
    values = st.recursive(
        scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(key, inner, max_size=4), max_leaves=10
    )
    objects = st.dictionaries(key, values, max_size=6)

    def nested(depth: int, opener: str) -> str:
        close = {"[": "]", '{"a":': "}"}[opener]
        return opener * depth + ("0" if opener != "[" else "") + close * depth

    deep = st.builds(
        nested,
        st.sampled_from(sorted({max(max_depth - 1, 1), max_depth, max_depth + 1, DEEP_JSON})),
        st.sampled_from(["[", '{"a":']),
    )
    big = st.sampled_from([max_bytes, max_bytes + 1]).map(lambda n: json.dumps({"pad": "p" * max(n - 11, 0)}))
    return weighted(
        (3, objects.map(json.dumps)),
        (1, values.map(json.dumps)),
        (1, st.sampled_from(ODD_JSON)),
        (1, deep),
        (1, big),
    )


def _limit(bound: Any, name: str) -> Any:
    return getattr(bound, name, None)


def _is_json(fd: FieldDescriptor, bound: Any) -> bool:
    return _limit(bound, "max_bytes") is not None or fd.name.endswith("_json")


Mode = str
"""How wild a drawn message is: "tame" (every field within its bounds, built to get past the edge into
the handlers), "mixed" (tame with some boundary fields) or "wild" (any field anything)."""
MODES: tuple[tuple[int, Mode], ...] = ((1, "tame"), (2, "mixed"), (1, "wild"))


class MessageStrategies:
    """Strategies per message type, built once from descriptors, the bounds table and the seeds."""

    def __init__(self, bounds: Mapping[str, Mapping[str, Any]] | None = None, seeds: Seeds | None = None) -> None:
        self.bounds = bounds or {}
        self.seeds = seeds or Seeds()

    def messages(self, descriptor: Descriptor) -> st.SearchStrategy[Message]:
        """Messages of `descriptor`'s type: tame, mixed and wild ones (see `Mode`)."""
        return weighted(*((weight, self._message(descriptor, 0, mode)) for weight, mode in MODES))

    def _message(self, descriptor: Descriptor, depth: int, mode: Mode) -> st.SearchStrategy[Message]:
        """At depth MAX_NESTING, only the empty message."""
        cls = message_factory.GetMessageClass(descriptor)
        if descriptor.full_name in _TIME_TYPES:
            return self._time(cls, None, mode)
        if depth >= MAX_NESTING:
            return st.just(cls())
        table = self.bounds.get(descriptor.name, {})
        parts: list[st.SearchStrategy[dict[str, Any]]] = []
        for oneof in descriptor.oneofs:
            members = [(self._presence(fd), self._field(fd, table, depth, mode)) for fd in oneof.fields]
            parts.append(weighted(*members, (1, st.just({}))))
        for fd in descriptor.fields:
            if fd.containing_oneof is None:
                parts.append(weighted((self._presence(fd), self._field(fd, table, depth, mode)), (1, st.just({}))))
        return st.tuples(*parts).map(lambda dicts: cls(**{k: v for d in dicts for k, v in d.items()}))

    def _presence(self, fd: FieldDescriptor) -> int:
        """How much likelier a field is set than unset: seeded fields (ids that exist) nearly always."""
        return 4 if self.seeds.by_field.get(fd.name) else 1

    def _field(
        self, fd: FieldDescriptor, table: Mapping[str, Any], depth: int, mode: Mode
    ) -> st.SearchStrategy[dict[str, Any]]:
        return self._value(fd, table.get(fd.name), depth, mode).map(lambda v: {fd.name: v})

    def _value(self, fd: FieldDescriptor, bound: Any, depth: int, mode: Mode) -> st.SearchStrategy[Any]:
        if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
            key_fd, value_fd = fd.message_type.fields_by_name["key"], fd.message_type.fields_by_name["value"]
            return st.dictionaries(
                self._single(key_fd, None, depth + 1, mode), self._single(value_fd, None, depth + 1, mode), max_size=4
            )
        if fd.is_repeated:
            limit = _limit(bound, "max_items") or 4
            each = self._single(fd, _limit(bound, "each"), depth + 1, mode)
            if mode == "tame":
                return st.lists(each, max_size=min(limit, 3))
            sizes = st.sampled_from(sorted({0, 1, 2, limit, limit + 1, 3 * limit}))
            return sizes.flatmap(lambda n: st.lists(each, min_size=min(n, 2), max_size=n))
        return self._single(fd, bound, depth + 1, mode)

    def _single(self, fd: FieldDescriptor, bound: Any, depth: int, mode: Mode) -> st.SearchStrategy[Any]:
        if mode == "tame":
            drawn = self._tame(fd, bound, depth)
        elif mode == "wild":
            drawn = self._wild(fd, bound, depth)
        else:
            drawn = weighted((6, self._tame(fd, bound, depth, "mixed")), (1, self._wild(fd, bound, depth, "mixed")))
        seeded = self.seeds.by_field.get(fd.name)
        if seeded:
            return weighted((3, st.sampled_from(list(seeded))), (1, drawn))
        return drawn

    def _nested(
        self, fd: FieldDescriptor, bound: Any, depth: int, mode: Mode, times: Mode
    ) -> st.SearchStrategy[Message]:
        """A message field's value: a Timestamp or Duration drawn `times` (tame or wild), else a message in `mode`."""
        if fd.message_type.full_name in _TIME_TYPES:
            cls = message_factory.GetMessageClass(fd.message_type)
            return self._time(cls, _limit(bound, "max_seconds"), times)
        return self._message(fd.message_type, depth, mode)

    def _tame(self, fd: FieldDescriptor, bound: Any, depth: int, mode: Mode = "tame") -> st.SearchStrategy[Any]:
        """A value within the field's bounds (an empty message at the nesting limit)."""
        t = fd.type
        if t == FieldDescriptor.TYPE_MESSAGE:
            return self._nested(fd, bound, depth, mode, "tame")
        if t == FieldDescriptor.TYPE_STRING:
            if _is_json(fd, bound):
                keys = self.seeds.json_keys
                key = st.sampled_from(list(keys)) if keys else st.text(st.sampled_from(PLAIN), max_size=8)
                small = st.one_of(
                    st.none(), st.booleans(), st.integers(-3, 12), st.text(st.sampled_from(PLAIN), max_size=8)
                )
                return st.dictionaries(key, small, max_size=3).map(json.dumps)
            n = min(_limit(bound, "max_chars") or 64, 24)
            return st.text(st.sampled_from(PLAIN), min_size=1, max_size=n)
        if t == FieldDescriptor.TYPE_BYTES:
            return st.binary(max_size=16)
        if t == FieldDescriptor.TYPE_BOOL:
            return st.booleans()
        if t == FieldDescriptor.TYPE_ENUM:
            return st.sampled_from(sorted(v.number for v in fd.enum_type.values))
        if t in _FLOATS:
            return st.floats(-1e6, 1e6)
        low, high = _INT_RANGES[t]
        b_low, b_high = (bound.low, bound.high) if _limit(bound, "low") is not None else (max(low, 0), 10)
        small = st.integers(max(low, b_low), min(high, b_high, b_low + 8))
        return weighted((3, small), (1, st.integers(max(low, b_low), min(high, b_high))))

    def _wild(self, fd: FieldDescriptor, bound: Any, depth: int, mode: Mode = "wild") -> st.SearchStrategy[Any]:
        """Any value of the field's type, leaning on boundaries."""
        t = fd.type
        if t == FieldDescriptor.TYPE_MESSAGE:
            return self._nested(fd, bound, depth, mode, "wild")
        if t == FieldDescriptor.TYPE_STRING:
            if _is_json(fd, bound):
                return json_texts(
                    _limit(bound, "max_bytes") or 16 * 1024, _limit(bound, "max_depth") or 32, self.seeds.json_keys
                )
            return texts(_limit(bound, "max_chars"), _limit(bound, "pattern"))
        if t == FieldDescriptor.TYPE_BYTES:
            return st.one_of(st.binary(max_size=64), st.just(b"\x00" * HUGE_TEXT))
        if t == FieldDescriptor.TYPE_BOOL:
            return st.booleans()
        if t == FieldDescriptor.TYPE_ENUM:
            known = sorted(v.number for v in fd.enum_type.values)
            unknown = [max(known) + 1, -1, 2**31 - 1, -(2**31)]
            return weighted((3, st.sampled_from(known)), (1, st.sampled_from(unknown)))
        if t in _FLOATS:
            return floats()
        low, high = _INT_RANGES[t]
        if _limit(bound, "low") is not None:
            return integers(low, high, (bound.low, bound.high))
        return integers(low, high)

    def _time(self, cls: Any, max_seconds: int | None, mode: Mode) -> st.SearchStrategy[Message]:
        """A Duration or Timestamp within the field's range (tame), or also at and past it, and invalid
        ones (nanos out of range, mixed signs)."""
        top = max_seconds or 2**33
        if mode == "tame":
            return st.builds(lambda s: cls(seconds=s), st.integers(0, top))
        seconds = integers(-(2**63), 2**63 - 1, (0, top))
        nanos = weighted(
            (3, st.just(0)),
            (1, st.sampled_from([1, 999_999_999, 1_000_000_000, -1])),
            (1, st.integers(-(2**31), 2**31 - 1)),
        )
        return st.builds(lambda s, n: cls(seconds=s, nanos=n), seconds, nanos)


class Drawn:
    """A drawn message whose repr (in Hypothesis's reports) cuts long strings: `messages(...).map(Drawn)`."""

    def __init__(self, message: Message) -> None:
        self.message = message

    def __repr__(self) -> str:
        return short_repr(self.message)


def short_repr(message: Message, limit: int = 160) -> str:
    """A message in text format with long strings cut, for failure reports (a drawn value may be 100 KB)."""
    parts = []
    for fd, value in message.ListFields():
        if isinstance(value, Message):
            text = "{" + short_repr(value, limit) + "}"
        elif isinstance(value, str | bytes) and len(value) > limit:
            text = f"{value[:limit]!r}...(+{len(value) - limit} chars)"
        elif fd.is_repeated and not isinstance(value, str | bytes):
            items = [short_repr(v, limit) if isinstance(v, Message) else repr(v) for v in list(value)[:8]]
            text = "[" + ", ".join(items) + (", ..." if len(value) > 8 else "") + "]"
        else:
            text = repr(value)
        parts.append(f"{fd.name}={text}")
    return f"{message.DESCRIPTOR.name}(" + ", ".join(parts) + ")"
