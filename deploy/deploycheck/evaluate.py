"""Evaluate an alert rule's expression against one scrape of `/metrics`, as Prometheus would at one instant.

The fault tests ask "would the chart's alert fire now?" of a running platform without a Prometheus server: the
expression is parsed by the real PromQL parser (promql-parser) and evaluated over the scraped samples. What is
covered is what instant alerts on gauges use: vector selectors with label matchers, `sum`/`max`/`min`/`count`
with `by`/`without`, comparisons with a number (filtering, or `bool`), `and`/`or`/`unless` without matching
modifiers, and parentheses. Anything else raises `Unsupported` rather than answering wrongly. Range functions
(`rate`, `increase`) need two scrapes: they are not evaluated here. A rule's `for:` is the caller's business.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable

import promql_parser
from prometheus_client.parser import text_string_to_metric_families

Labels = frozenset[tuple[str, str]]
Vector = dict[Labels, float]


class Unsupported(ValueError):
    """The expression uses something this evaluator does not implement."""


def samples(exposition: str, extra: dict[str, str] | None = None) -> list[tuple[str, Labels, float]]:
    """(series name, labels, value) of every sample in a Prometheus text exposition, `extra` labels added (the
    `namespace`, `job` ... a scrape config would attach)."""
    found = []
    for family in text_string_to_metric_families(exposition):
        for sample in family.samples:
            found.append((sample.name, frozenset({**(extra or {}), **sample.labels}.items()), float(sample.value)))
    return found


def evaluate(expr: str, scraped: Iterable[tuple[str, Labels, float]]) -> Vector:
    """The instant vector `expr` yields over `scraped` (empty: the alert would not fire)."""
    data = list(scraped)
    result = _eval(promql_parser.parse(expr), data)
    if isinstance(result, float):
        return {frozenset(): result}
    return result


_COMPARE: dict[str, Callable[[float, float], bool]] = {
    ">": operator.gt,
    "<": operator.lt,
    ">=": operator.ge,
    "<=": operator.le,
    "==": operator.eq,
    "!=": operator.ne,
}
_AGGREGATE: dict[str, Callable[[list[float]], float]] = {
    "sum": sum,
    "max": max,
    "min": min,
    "count": lambda values: float(len(values)),
}


def _eval(node: object, data: list[tuple[str, Labels, float]]) -> Vector | float:
    if isinstance(node, promql_parser.NumberLiteral):
        return float(node.val)
    if isinstance(node, promql_parser.ParenExpr):
        return _eval(node.expr, data)
    if isinstance(node, promql_parser.VectorSelector):
        return _select(node, data)
    if isinstance(node, promql_parser.AggregateExpr):
        return _aggregate(node, data)
    if isinstance(node, promql_parser.BinaryExpr):
        return _binary(node, data)
    raise Unsupported(f"cannot evaluate {type(node).__name__} at an instant: {node}")


def _select(node: promql_parser.VectorSelector, data: list[tuple[str, Labels, float]]) -> Vector:
    if node.matchers.or_matchers:
        raise Unsupported("`or` inside a selector")
    checks = [(m.name, str(m.op), m.value) for m in node.matchers.matchers]
    picked: Vector = {}
    for name, labels, value in data:
        if node.name and name != node.name:
            continue
        with_name = dict(labels) | {"__name__": name}
        if all(_matches(op, with_name.get(label, ""), wanted) for label, op, wanted in checks):
            picked[labels] = value
    return picked


def _matches(op: str, actual: str, wanted: str) -> bool:
    if op.endswith("NotEqual"):
        return actual != wanted
    if op.endswith("NotRe"):
        return re.fullmatch(wanted, actual) is None
    if op.endswith("Re"):
        return re.fullmatch(wanted, actual) is not None
    if op.endswith("Equal"):
        return actual == wanted
    raise Unsupported(f"label matcher {op}")


def _aggregate(node: promql_parser.AggregateExpr, data: list[tuple[str, Labels, float]]) -> Vector:
    op = str(node.op)
    if op not in _AGGREGATE:
        raise Unsupported(f"aggregation {op}")
    inner = _eval(node.expr, data)
    if isinstance(inner, float):
        raise Unsupported("aggregating a number")
    keep: Callable[[str], bool]
    if node.modifier is None:
        keep = lambda _: False  # noqa: E731 - no grouping: one series
    elif "Without" in str(node.modifier.type):
        dropped = set(node.modifier.labels)
        keep = lambda label: label not in dropped and label != "__name__"  # noqa: E731
    else:
        kept = set(node.modifier.labels)
        keep = kept.__contains__
    groups: dict[Labels, list[float]] = {}
    for labels, value in inner.items():
        groups.setdefault(frozenset((k, v) for k, v in labels if keep(k)), []).append(value)
    return {labels: _AGGREGATE[op](values) for labels, values in groups.items()}


def _binary(node: promql_parser.BinaryExpr, data: list[tuple[str, Labels, float]]) -> Vector | float:
    op = str(node.op)
    left, right = _eval(node.lhs, data), _eval(node.rhs, data)
    if op in ("and", "or", "unless"):
        if isinstance(left, float) or isinstance(right, float) or (node.modifier and node.modifier.matching):
            raise Unsupported(f"`{op}` with numbers or matching modifiers")
        if op == "and":
            return {k: v for k, v in left.items() if k in right}
        if op == "unless":
            return {k: v for k, v in left.items() if k not in right}
        return {**right, **left}
    if op not in _COMPARE:
        raise Unsupported(f"operator {op}")
    compare = _COMPARE[op]
    as_bool = bool(node.modifier is not None and node.modifier.return_bool)
    if isinstance(left, float) and isinstance(right, float):
        return float(compare(left, right))
    if isinstance(left, dict) and isinstance(right, float):
        return {k: float(compare(v, right)) if as_bool else v for k, v in left.items() if as_bool or compare(v, right)}
    if isinstance(left, float) and isinstance(right, dict):
        return {k: float(compare(left, v)) if as_bool else v for k, v in right.items() if as_bool or compare(left, v)}
    raise Unsupported("comparing two vectors")
