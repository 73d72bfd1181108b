"""The one engine protocol every game implements (ARCHITECTURE.md, rule 2).

A game is metadata (modes, options, rule flags, action types) plus pure functions over
an opaque state: who acts, what is legal, what applying an action gives, what each seat
may see, how the match ended. Engines do no I/O, read no clock and use no global random:
all chance comes from the seeded generator kept in the state (`gamehall.engine.rng`).

Games subclass `Game` and implement the abstract methods; the generic rules service, the
bots, the replayer, the CLI and the conformance kit are written once against this class.

Typed views (issue 17): a view's JSON Schema comes from the engine's own types, exact by construction.

- `Game.view_type` is a msgspec Struct type (or a tagged Union of Struct types, msgspec's
  `tag_field`/`tag`) describing exactly what `view()` returns for any seat or the spectator, in any mode.
- The game's view code builds instances of those Structs and `view()` returns
  `msgspec.to_builtins(instance)`: still a JSON-safe dict, so every caller is unchanged.
- `Game.view_schema()` is `msgspec.json.schema(view_type)` (computed once per type, cached); the rules
  service publishes it in DescribeGame. A game whose `view_type` is None is refused by the registry
  and by the conformance kit.
- The conformance kit converts every view it sees back with `msgspec.convert(view, view_type)`
  (strict), so a view that strays from its type fails conformance.
- The Structs live in `games/<game>/view_types.py`, one docstring each (the schema's `description`),
  `Annotated[..., msgspec.Meta(description=...)]` on fields whose meaning is not obvious, and
  `forbid_unknown_fields=True` (the schema's `additionalProperties: false`).

A worked example (High Card, `gamehall.testing.high_card`)::

    class HighCardView(msgspec.Struct, forbid_unknown_fields=True):
        '''What one observer of a High Card match sees.'''
        scores: list[int]
        seat: Annotated[int | None, msgspec.Meta(description="The observer's seat; null for a spectator.")]
        hand: Annotated[list[int] | msgspec.UnsetType, msgspec.Meta(description="Your cards (seats only).")] = (
            msgspec.UNSET
        )

    class HighCard(StructGame[State]):
        view_type = HighCardView

        def view(self, state, seat):
            hand = msgspec.UNSET if seat is None else list(state.hands[seat])
            return msgspec.to_builtins(HighCardView(scores=list(state.scores), seat=seat, hand=hand))

A key only some observers get is a field defaulting to `msgspec.UNSET` (left out of the JSON, not
required by the schema); views that differ by mode are Structs sharing a `tag_field` in a Union.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import struct
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar, Union

import msgspec

from gamehall.engine.errors import (
    ConfigError,
    DecodeError,
    IllegalAction,
    MalformedAction,
    MatchOver,
    MissingViewType,
    NotYourTurn,
    UnknownSeat,
)

JsonScalar = str | int | float | bool | None
JsonDict = dict[str, Any]
S = TypeVar("S")

SPECTATOR: None = None
"""The seat value meaning "someone who holds no seat" in `view` and `resample_hidden`."""


class Action(msgspec.Struct, frozen=True, tag_field="kind", forbid_unknown_fields=True):
    """Base of every action type. A game declares one subclass per kind, e.g.

    ``class Cast(Action, tag="cast"): card: str; target: int``

    Actions are immutable, hashable and encode to JSON as ``{"kind": "cast", ...}``; decoding
    refuses fields the kind does not declare (a client's typo is an error, not silently dropped).
    """


def action_id(action: Action) -> str:
    """A stable, human-readable id: ``kind`` or ``kind(field=value,...)`` in field order."""
    kind = action.__struct_config__.tag
    fields = action.__struct_fields__
    if not fields:
        return str(kind)
    parts = ",".join(f"{name}={_id_value(getattr(action, name))}" for name in fields)
    return f"{kind}({parts})"


def _id_value(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return "[" + ",".join(_id_value(v) for v in value) + "]"
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


NUMBER_LIMIT = 1_000_000
"""The range of a number option that declares none (issue 20, finding 5: every number has a bound)."""
TEXT_LIMIT = 256


@dataclass(frozen=True)
class Option:
    """A match option (a module, a variant) or a rule flag (a reading of an ambiguous rule)."""

    name: str
    default: JsonScalar
    description: str
    choices: tuple[JsonScalar, ...] | None = None
    modes: tuple[str, ...] | None = None
    """Modes the option applies to; None means every mode."""
    minimum: int | float | None = None
    maximum: int | float | None = None
    """The accepted range of a number option (a number option without choices must declare both)."""

    def applies_to(self, mode: str) -> bool:
        return self.modes is None or mode in self.modes

    def check(self, value: Any) -> JsonScalar:
        if self.choices is not None:
            if value not in self.choices:
                raise ConfigError(f"{self.name} must be one of {list(self.choices)}, not {value!r}")
            return value  # type: ignore[no-any-return]
        if type(value) is not type(self.default) and not (
            isinstance(self.default, float) and isinstance(value, int) and not isinstance(value, bool)
        ):
            raise ConfigError(f"{self.name} must be of type {type(self.default).__name__}, not {type(value).__name__}")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            low = self.minimum if self.minimum is not None else -NUMBER_LIMIT
            high = self.maximum if self.maximum is not None else NUMBER_LIMIT
            if not low <= value <= high:
                raise ConfigError(f"{self.name} must be between {low} and {high}, not {str(value)[:24]}")
        if isinstance(value, str) and len(value) > TEXT_LIMIT:
            raise ConfigError(f"{self.name} must have at most {TEXT_LIMIT} characters")
        return value


@dataclass(frozen=True)
class Mode:
    """A way to play the game, with the seat counts it accepts."""

    id: str
    name: str
    seats: tuple[int, ...]
    description: str = ""
    team_size: int | None = None
    """Seats per team for team modes (None: every seat plays for itself)."""


@dataclass(frozen=True)
class MatchConfig:
    """Everything that fixes a match before its seed: mode, seat count, options, rule flags."""

    mode: str
    seats: int
    options: Mapping[str, JsonScalar] = field(default_factory=dict)
    flags: Mapping[str, JsonScalar] = field(default_factory=dict)

    def to_json(self) -> JsonDict:
        return {"mode": self.mode, "seats": self.seats, "options": dict(self.options), "flags": dict(self.flags)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchConfig:
        return cls(
            mode=str(data["mode"]),
            seats=int(data["seats"]),
            options=dict(data.get("options", {})),
            flags=dict(data.get("flags", {})),
        )


@dataclass(frozen=True)
class Event:
    """Something that happened during `apply`, for logs, animations and event streams.

    `audience` None means public; otherwise only those seats may receive it.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    audience: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.audience is None or (seat is not None and seat in self.audience)


@dataclass(frozen=True)
class Outcome:
    """How a match ended: a rank per seat (1 is best, equal ranks tie) and optional scores.

    A one-seat (solo) match ranks 1 for a win and 2 for a loss against the game itself; so does every
    seat of a co-operative match (they all rank 1 when they win together, all 2 when the game beats them).
    """

    ranks: tuple[int, ...]
    scores: tuple[float, ...] | None = None
    reason: str = ""

    def returns(self) -> tuple[float, ...]:
        """Per-seat return in [0, 1]: the share of other seats beaten, ties counting half.

        When no seat ranks 1, the game itself took first place (a solo or co-operative defeat) and counts as
        one more participant that beat every seat: a co-op defeat (2, 2) returns 0.25 each, below the 0.5 of
        a co-op win (1, 1), so a bot searching a co-op mode tells winning from losing (with the seats alone
        both were ties, 0.5). Matches where some seat ranks 1 (every versus outcome) are unchanged.
        """
        n = len(self.ranks)
        if n == 1:
            return (1.0 if self.ranks[0] == 1 else 0.0,)
        game_won = 1 not in self.ranks
        others = n - 1 + (1 if game_won else 0)
        out = []
        for mine in self.ranks:
            beaten = sum(1 for r in self.ranks if r > mine)
            tied = sum(1 for r in self.ranks if r == mine) - 1
            out.append((beaten + 0.5 * tied) / others)
        return tuple(out)

    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)

    def to_json(self) -> JsonDict:
        return {
            "ranks": list(self.ranks),
            "scores": None if self.scores is None else list(self.scores),
            "reason": self.reason,
        }


_HEADER = struct.Struct(">2sH")
_MAGIC = b"GH"


def _checked_view(view: Callable[[Any, Any, int | None], JsonDict]) -> Callable[[Any, Any, int | None], JsonDict]:
    """`view` behind the protocol's seat check, so no game can answer for a seat that does not exist."""

    @functools.wraps(view)
    def checked(self: Game[Any], state: Any, seat: int | None) -> JsonDict:
        if seat is not None:
            self.check_seat(state, seat)
        return view(self, state, seat)

    checked.__seat_checked__ = True  # type: ignore[attr-defined]
    return checked


def _checked_apply(apply: Callable[..., tuple[Any, list[Event]]]) -> Callable[..., tuple[Any, list[Event]]]:
    """A game's own `apply` (one that overrides the protocol's) behind the protocol's seat check, so it cannot
    forget it: an untrusted call with a seat that is not to act and not a seat of the match raises UnknownSeat."""

    @functools.wraps(apply)
    def checked(self: Game[Any], state: Any, seat: int, action: Action, *, trusted: bool = False) -> Any:
        if not trusted and (isinstance(seat, bool) or not isinstance(seat, int) or seat not in self.to_act(state)):
            self.check_seat(state, seat)
        return apply(self, state, seat, action, trusted=trusted)

    checked.__seat_checked__ = True  # type: ignore[attr-defined]
    return checked


class Game(ABC, Generic[S]):
    """Metadata plus the pure functions of one game. Subclasses fill the class attributes.

    The protocol checks what no game should have to: `apply` refuses actions of a foreign kind
    or with fields of the wrong type (MalformedAction), and every game's `apply` and `view` refuse a
    seat the match does not have (UnknownSeat: negative, too high, a bool or a float), whatever the
    game's own code does.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("view")
        if own is not None and not getattr(own, "__isabstractmethod__", False) and not hasattr(own, "__seat_checked__"):
            cls.view = _checked_view(own)  # type: ignore[method-assign, assignment]
        own_apply = cls.__dict__.get("apply")
        if own_apply is not None and not hasattr(own_apply, "__seat_checked__"):
            cls.apply = _checked_apply(own_apply)  # type: ignore[method-assign]

    id: ClassVar[str]
    name: ClassVar[str]
    description: ClassVar[str] = ""
    state_version: ClassVar[int] = 1
    """Bumped whenever the encoded state layout changes; `decode` refuses other versions."""
    modes: ClassVar[tuple[Mode, ...]]
    options: ClassVar[tuple[Option, ...]] = ()
    flags: ClassVar[tuple[Option, ...]] = ()
    action_types: ClassVar[tuple[type[Action], ...]]
    has_hidden_information: ClassVar[bool] = True
    max_steps: ClassVar[int] = 100_000
    """An upper bound on actions in one match; the conformance kit fails a match that exceeds it."""
    view_type: ClassVar[Any] = None
    """The msgspec Struct type (or tagged Union of Structs) of what `view` returns; see the module docstring."""

    # ----------------------------------------------------------------- configuration
    def mode(self, mode_id: str) -> Mode:
        for mode in self.modes:
            if mode.id == mode_id:
                return mode
        raise ConfigError(f"unknown mode {mode_id!r} for {self.id}; modes: {[m.id for m in self.modes]}")

    def configure(
        self,
        mode: str | None = None,
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        flags: Mapping[str, Any] | None = None,
    ) -> MatchConfig:
        """A validated config with every default filled in; raises ConfigError."""
        m = self.mode(mode) if mode is not None else self.modes[0]
        n = seats if seats is not None else m.seats[0]
        if n not in m.seats:
            raise ConfigError(f"mode {m.id} takes {list(m.seats)} seats, not {n}")
        return MatchConfig(
            mode=m.id,
            seats=n,
            options=self._fill(self.options, options or {}, m.id, "option"),
            flags=self._fill(self.flags, flags or {}, m.id, "rule flag"),
        )

    def validate_config(self, config: MatchConfig) -> MatchConfig:
        return self.configure(config.mode, config.seats, config.options, config.flags)

    @staticmethod
    def _fill(known: Sequence[Option], given: Mapping[str, Any], mode: str, what: str) -> dict[str, JsonScalar]:
        by_name = {o.name: o for o in known if o.applies_to(mode)}
        unknown = sorted(set(given) - set(by_name))
        if unknown:
            raise ConfigError(f"unknown {what}(s) {unknown} for mode {mode}; known: {sorted(by_name)}")
        return {name: o.check(given[name]) if name in given else o.default for name, o in by_name.items()}

    def teams(self, config: MatchConfig) -> tuple[tuple[int, ...], ...]:
        """Seats grouped by team; by default every seat is its own team."""
        return tuple((seat,) for seat in range(config.seats))

    # ----------------------------------------------------------------- the state API
    @abstractmethod
    def new_match(self, config: MatchConfig, seed: int) -> S:
        """The initial state. Implementations call `validate_config` first."""

    @abstractmethod
    def config_of(self, state: S) -> MatchConfig:
        """The config the state was created with."""

    @abstractmethod
    def to_act(self, state: S) -> frozenset[int]:
        """Seats that must choose now; several for simultaneous secret choices; empty at the end."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> Sequence[Action]:
        """Every legal action of `seat` (empty when it need not act)."""

    def apply(self, state: S, seat: int, action: Action, *, trusted: bool = False) -> tuple[S, list[Event]]:
        """The next state and its events. Never mutates `state`.

        Raises UnknownSeat (a seat the match does not have: negative, too high, a bool or a float, checked
        as `view` checks it, here once for every game), MatchOver, NotYourTurn or IllegalAction (with the
        reason). `trusted=True` skips validation for callers that picked `seat` from `to_act` and `action`
        from `legal_actions`.
        """
        if not trusted:
            if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
                self.check_seat(state, seat)  # raises UnknownSeat
            self.check_action(action)
            # A seat among `to_act` is a seat of the match, so the seat count (`config_of`, which some games
            # rebuild) is only asked on the way to an error: the seat a move names costs nothing more.
            if self.outcome(state) is not None:
                self.check_seat(state, seat)
                raise MatchOver("the match is over")
            if seat not in self.to_act(state):
                self.check_seat(state, seat)
                raise NotYourTurn(f"seat {seat} is not to act now")
            self.validate_action(state, seat, action)
        return self._apply(state, seat, action)

    def check_action(self, action: Action) -> None:
        """Raise MalformedAction unless `action` is one of this game's kinds with fields of the declared types.

        Python does not check a Struct's field types at construction (``Move(row="1")`` builds),
        so the protocol re-validates through the type, once for every game, before any rule runs.
        """
        kind = type(action)
        if kind not in self.action_types:
            raise MalformedAction(f"{kind.__name__} is not an action of {self.id}")
        try:
            msgspec.convert(msgspec.to_builtins(action), kind)
        except (msgspec.ValidationError, TypeError) as exc:
            raise MalformedAction(f"malformed {action.__struct_config__.tag} action: {exc}") from exc

    def seat_count(self, state: S) -> int:
        """How many seats the match has; games with a cheaper answer than `config_of` may override it."""
        return self.config_of(state).seats

    def check_seat(self, state: S, seat: int) -> None:
        """Raise UnknownSeat unless `seat` is a seat of this match (0 <= seat < seat count)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seat_count(state):
            raise UnknownSeat(f"{seat!r} is not a seat of this {self.id} match")

    def validate_action(self, state: S, seat: int, action: Action) -> None:
        """Raise IllegalAction with a reason if `action` is not legal. Games may specialise."""
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(f"{action_id(action)} is not legal for seat {seat} now")

    @abstractmethod
    def _apply(self, state: S, seat: int, action: Action) -> tuple[S, list[Event]]:
        """Apply a validated action to a copy of `state`."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> JsonDict:
        """What `seat` (None: a spectator) may see, as a JSON-safe dict. Never secrets of others.

        The protocol wraps every game's `view` so a seat the match does not have raises UnknownSeat.
        """

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result once the match is over, else None."""

    def default_action(self, state: S, seat: int) -> Action | None:
        """What a turn clock plays for `seat` on timeout; None means the seat forfeits."""
        return None

    @abstractmethod
    def determinize(self, view: JsonDict, seat: int, rng: random.Random) -> S:
        """A full state consistent with `view` (what `seat` sees), hidden parts sampled from `rng`.

        The state's own generator is reseeded from `rng`, so bots never learn the match seed.
        """

    @abstractmethod
    def resample_hidden(self, state: S, seat: int | None, rng: random.Random) -> S:
        """A state `seat` cannot tell from `state`: everything hidden from it redrawn.

        This is the game's declaration of what is secret: the conformance kit checks that
        `view(state, seat) == view(resample_hidden(state, seat), seat)`, so a view that
        leaks a secret fails.
        """

    # ----------------------------------------------------------------- serialisation
    def encode(self, state: S) -> bytes:
        """Stable, versioned bytes: a header (magic, state version) and the game's payload."""
        return _HEADER.pack(_MAGIC, self.state_version) + self._encode(state)

    def decode(self, data: bytes) -> S:
        if len(data) < _HEADER.size:
            raise DecodeError("state bytes too short")
        magic, version = _HEADER.unpack_from(data)
        if magic != _MAGIC:
            raise DecodeError("not a gamehall state")
        if version != self.state_version:
            raise DecodeError(f"{self.id} state version {version} is not supported (this engine: {self.state_version})")
        try:
            return self._decode(data[_HEADER.size :])
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError, KeyError, TypeError) as exc:
            raise DecodeError(f"corrupt {self.id} state: {exc}") from exc

    @abstractmethod
    def _encode(self, state: S) -> bytes: ...

    @abstractmethod
    def _decode(self, payload: bytes) -> S: ...

    # ----------------------------------------------------------------- actions
    def describe(self, state: S, action: Action) -> str:
        """A human label for an action (clients show it); games may say more."""
        return action_id(action)

    def parse_action(self, data: Mapping[str, Any]) -> Action:
        """An action from its JSON form ``{"kind": ..., ...}``; raises MalformedAction if it is none."""
        try:
            action: Action = msgspec.convert(data, Union[self.action_types])  # noqa: UP007 - a runtime tuple
            return action
        except msgspec.ValidationError as exc:
            raise MalformedAction(f"malformed action: {exc}") from exc

    def action_to_json(self, action: Action) -> JsonDict:
        return msgspec.to_builtins(action)  # type: ignore[no-any-return]

    def action_schema(self) -> JsonDict:
        """JSON Schema of every action of this game, generated from the action types."""
        schema: JsonDict = msgspec.json.schema(Union[self.action_types])  # noqa: UP007 - a runtime tuple
        return schema

    def view_schema(self) -> JsonDict:
        """JSON Schema (draft 2020-12) of every view of this game, generated from `view_type`.

        Computed once per type and cached, so serving it costs nothing; each call returns a fresh copy.
        Raises MissingViewType for a game that declares no `view_type`.
        """
        if self.view_type is None:
            raise MissingViewType(f"{self.id} declares no view_type: its views have no schema")
        return copy.deepcopy(_view_schema_of(self.view_type, self.name))


@functools.cache
def _view_schema_of(view_type: Any, title: str) -> JsonDict:
    """msgspec's schema, with a single Struct's definition lifted to the top (its `properties` first), and
    a union of Structs (each an object) saying `"type": "object"` at the top too."""
    schema: JsonDict = msgspec.json.schema(view_type)
    ref = schema.pop("$ref", None)
    if ref is not None:
        defs = schema.pop("$defs")
        top = defs[ref.rsplit("/", 1)[1]]
        if ref not in json.dumps(defs):
            del defs[ref.rsplit("/", 1)[1]]
        schema = {**top, **({"$defs": defs} if defs else {})}
    elif "anyOf" in schema:
        branches = [schema["$defs"][b["$ref"].rsplit("/", 1)[1]] if "$ref" in b else b for b in schema["anyOf"]]
        if all(b.get("type") == "object" for b in branches):
            schema = {"type": "object", **schema}
    full = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema, "title": f"{title} view"}
    plain: JsonDict = msgspec.json.decode(msgspec.json.encode(full))  # plain JSON (tuple defaults become lists)
    return plain


class StructGame(Game[S]):
    """A Game whose state is a msgspec Struct: encode/decode and deep copy come for free.

    Subclasses set `state_type`. `copy` is a msgpack round trip, a C-speed deep copy.
    """

    state_type: ClassVar[type]
    _encoder: ClassVar[msgspec.msgpack.Encoder]
    _decoder: ClassVar[msgspec.msgpack.Decoder[Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "state_type" in cls.__dict__:
            cls._encoder = msgspec.msgpack.Encoder()
            cls._decoder = msgspec.msgpack.Decoder(cls.state_type)

    def _encode(self, state: S) -> bytes:
        return self._encoder.encode(state)

    def _decode(self, payload: bytes) -> S:
        return self._decoder.decode(payload)  # type: ignore[no-any-return]

    def copy(self, state: S) -> S:
        return self._decoder.decode(self._encoder.encode(state))  # type: ignore[no-any-return]
