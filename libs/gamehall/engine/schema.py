"""JSON Schema of a game's views, generated from the engine itself.

Views are JSON objects built by each engine's `view`; rather than keep a schema by hand
(which drifts), we derive it from the engine: seeded random matches over every mode and
seat count, every observer's view at every step, merged into one schema (types seen per
key, keys present in every view are required, array items merged). The sampling is
deterministic, so the schema is stable for a given engine version.
"""

from __future__ import annotations

import random
from typing import Any

from gamehall.engine.conformance import default_configs
from gamehall.engine.protocol import Game, JsonDict

_JSON_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string", type(None): "null"}


def _node(value: Any) -> JsonDict:
    if isinstance(value, dict):
        return {
            "type": "object",
            "properties": {k: _node(v) for k, v in value.items()},
            "required": sorted(value),
        }
    if isinstance(value, (list, tuple)):
        items: JsonDict | None = None
        for item in value:
            items = _node(item) if items is None else _merge(items, _node(item))
        return {"type": "array", "items": items or {}}
    return {"type": _JSON_TYPES.get(type(value), "string")}


def _types(node: JsonDict) -> set[str]:
    t = node.get("type", [])
    return set(t) if isinstance(t, list) else {t}


def _required(node: JsonDict) -> list[str]:
    required = node.get("required")
    return list(node.get("properties", {})) if required is None else list(required)


def _merge(a: JsonDict, b: JsonDict) -> JsonDict:
    """The least schema accepting whatever `a` or `b` accepts (as far as this small vocabulary goes)."""
    if not a:
        return b
    if not b:
        return a
    types = _types(a) | _types(b)
    if {"integer", "number"} <= types:
        types.discard("integer")
    out: JsonDict = {"type": sorted(types)[0] if len(types) == 1 else sorted(types)}
    if "object" in types:
        props_a, props_b = a.get("properties", {}), b.get("properties", {})
        props = {k: _merge(props_a.get(k, {}), props_b.get(k, {})) for k in sorted(set(props_a) | set(props_b))}
        req_a = set(_required(a)) if "object" in _types(a) else set(props_b)
        req_b = set(_required(b)) if "object" in _types(b) else set(props_a)
        out["properties"] = props
        out["required"] = sorted(req_a & req_b)
    if "array" in types:
        out["items"] = _merge(a.get("items", {}), b.get("items", {}))
    return out


def _shape(value: Any) -> Any:
    """All that `_node` reads of a value: its keys, the exact type of each leaf, and the set of item shapes
    of each list. `_merge` is idempotent, commutative and associative, so a view whose shape was merged
    already adds nothing: skipping it leaves the schema byte for byte the same, and is much cheaper."""
    if isinstance(value, dict):
        return (dict, tuple([(k, _shape(v)) for k, v in value.items()]))
    if isinstance(value, (list, tuple)):
        return (list, frozenset([_shape(v) for v in value]))
    return type(value)


def infer_view_schema(game: Game[Any], *, matches_per_config: int = 2, seed: int = 0, max_steps: int = 400) -> JsonDict:
    """A JSON Schema (draft 2020-12) every view of `game` seen in sampled random matches satisfies."""
    schema: JsonDict = {}
    merged: set[Any] = set()
    rng = random.Random(seed)
    for config in default_configs(game):
        for m in range(matches_per_config):
            state = game.new_match(config, seed * 7919 + m)
            for _ in range(max_steps):
                for observer in [None, *range(config.seats)]:
                    view = game.view(state, observer)
                    shape = _shape(view)
                    if shape not in merged:
                        merged.add(shape)
                        schema = _merge(schema, _node(view))
                acting = game.to_act(state)
                if not acting:
                    break
                seat = rng.choice(sorted(acting))
                state, _ = game.apply(state, seat, rng.choice(list(game.legal_actions(state, seat))), trusted=True)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{game.name} view",
        "description": "Derived from the engine by sampling random matches over every mode and seat count.",
        **schema,
    }
