"""PromQL of alerts and dashboard panels, read by a real parser (`promql-parser`) and checked against the metrics.

The only thing done by hand is Grafana's templating: variables ($service, ${game:regex},
$__rate_interval, [[x]]) are replaced by a value of the kind their place needs (a duration
inside a range, a word inside a quoted label value, a number elsewhere) before parsing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import promql_parser

_VARIABLE = re.compile(r"\$\{([A-Za-z_]\w*)(?:[:.][^}]*)?\}|\$([A-Za-z_]\w*)|\[\[([A-Za-z_]\w*)(?::[^\]]*)?\]\]")
IN_RANGE, IN_STRING, ELSEWHERE = "5m", "grafana_variable", "1"
"""What a variable becomes where it stands: a duration, a word, a number."""


@dataclass
class Selector:
    """A vector selector: its metric name (None for a selector with no name) and the label names it matches on."""

    metric: str | None
    labels: list[str] = field(default_factory=list)


@dataclass
class Analysis:
    """What one expression names, and why it does not parse (if it does not)."""

    selectors: list[Selector] = field(default_factory=list)
    grouping_labels: set[str] = field(default_factory=set)
    functions: set[str] = field(default_factory=set)
    variables: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    @property
    def metrics(self) -> set[str]:
        return {s.metric for s in self.selectors if s.metric}


def substitute(expr: str) -> tuple[str, set[str]]:
    """`expr` with every Grafana variable replaced by a value of the kind its place needs, and their names."""
    out: list[str] = []
    names: set[str] = set()
    quote: str | None = None
    depth = 0  # inside [...]: a range or a subquery's resolution
    i = 0
    while i < len(expr):
        ch = expr[i]
        match = _VARIABLE.match(expr, i) if ch in "$[" else None
        if match is not None:
            names.add(next(g for g in match.groups() if g))
            out.append(IN_STRING if quote else IN_RANGE if depth else ELSEWHERE)
            i = match.end()
            continue
        if quote is not None:
            if ch == "\\" and quote != "`":
                out.append(expr[i : i + 2])
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "\"'`":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        out.append(ch)
        i += 1
    return "".join(out), names


def analyze(expr: str) -> Analysis:
    """Parse `expr` (variables substituted): the selectors, grouping labels, functions and variables it uses."""
    text, variables = substitute(expr)
    result = Analysis(variables=variables)
    try:
        tree = promql_parser.parse(text)
    except ValueError as exc:
        result.problems.append(f"does not parse: {exc}")
        return result

    def visit(node: object) -> None:
        if isinstance(node, promql_parser.VectorSelector):
            matchers = [*node.matchers.matchers, *(m for group in node.matchers.or_matchers for m in group)]
            name = node.name or next((m.value for m in matchers if m.name == "__name__"), None)
            result.selectors.append(Selector(name, [m.name for m in matchers if m.name != "__name__"]))
        elif isinstance(node, promql_parser.Call):
            result.functions.add(node.func.name)
        elif isinstance(node, promql_parser.AggregateExpr):
            result.functions.add(str(node.op))
            if node.modifier is not None:
                result.grouping_labels.update(node.modifier.labels)
        elif isinstance(node, promql_parser.BinaryExpr) and node.modifier is not None:
            if node.modifier.matching is not None:
                result.grouping_labels.update(node.modifier.matching.labels)
            result.grouping_labels.update(node.modifier.group_labels or ())

    promql_parser.walk(tree, pre_visit=visit)
    return result


def check_query(expr: str, known: Mapping[str, frozenset[str]]) -> tuple[list[str], set[str]]:
    """Problems of `expr` against the `known` series (name -> labels), and the series it names."""
    analysis = analyze(expr)
    problems = list(analysis.problems)
    for selector in analysis.selectors:
        if selector.metric is None:
            problems.append("a selector without a metric name")
        elif selector.metric not in known:
            problems.append(f"series {selector.metric!r} is not exported")
        else:
            unknown = sorted(set(selector.labels) - known[selector.metric] - {"__name__"})
            if unknown:
                problems.append(f"{selector.metric} has no label {', '.join(unknown)}")
    available = set().union(*(known.get(m, frozenset()) for m in analysis.metrics)) if analysis.metrics else set()
    stray = sorted(analysis.grouping_labels - available) if available else []
    if stray:
        problems.append(f"grouping by labels no series here has: {', '.join(stray)}")
    return problems, analysis.metrics
