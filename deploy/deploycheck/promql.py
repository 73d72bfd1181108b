"""A small PromQL reader: enough to prove an expression is balanced and to list the series and labels it names.

It is not a full parser (no promtool offline); it tokenises the query, tracks brackets, and tells metric names from
functions, keywords and label names, so alerts and dashboard panels can be checked against the exported metrics.
Grafana variables ($service, ${game}, $__rate_interval) are accepted where a value or a range may stand.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

FUNCTIONS = frozenset(
    {
        "abs", "absent", "absent_over_time", "acos", "acosh", "asin", "asinh", "atan", "atanh", "avg_over_time",
        "ceil", "changes", "clamp", "clamp_max", "clamp_min", "cos", "cosh", "count_over_time", "day_of_month",
        "day_of_week", "day_of_year", "days_in_month", "deg", "delta", "deriv", "double_exponential_smoothing", "end",
        "exp", "floor", "histogram_avg", "histogram_count", "histogram_fraction", "histogram_quantile",
        "histogram_stddev", "histogram_stdvar", "histogram_sum", "holt_winters", "hour", "idelta", "increase", "info",
        "irate", "label_join", "label_replace", "last_over_time", "ln", "log10", "log2", "mad_over_time",
        "max_over_time", "min_over_time", "minute", "month", "pi", "predict_linear", "present_over_time",
        "quantile_over_time", "rad", "rate", "resets", "round", "scalar", "sgn", "sin", "sinh", "sort",
        "sort_by_label", "sort_by_label_desc", "sort_desc", "sqrt", "start", "stddev_over_time", "stdvar_over_time",
        "sum_over_time", "tan", "tanh", "time", "timestamp", "vector", "year",
    }
)
AGGREGATIONS = frozenset(
    {
        "avg", "bottomk", "count", "count_values", "group", "limit_ratio", "limitk", "max", "min", "quantile",
        "stddev", "stdvar", "sum", "topk",
    }
)
GROUPING = frozenset({"by", "without", "on", "ignoring", "group_left", "group_right"})
KEYWORDS = GROUPING | {"and", "or", "unless", "bool", "offset", "atan2"}
NUMBER_WORDS = frozenset({"inf", "nan"})
MATCH_OPS = frozenset({"=", "!=", "=~", "!~"})
PAIRS = {")": "(", "]": "[", "}": "{"}

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<string>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`[^`]*`)
  | (?P<var>\$\{[A-Za-z_]\w*(?:[:.][^}]*)?\}|\$[A-Za-z_]\w*)
  | (?P<duration>(?:\d+(?:ms|[smhdwy]))+(?![\w.]))
  | (?P<number>0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<ident>[A-Za-z_][\w:]*)
  | (?P<op>=~|!~|!=|==|>=|<=|[-+*/%^<>=,@:])
  | (?P<bracket>[(){}\[\]])
    """,
    re.VERBOSE,
)
_VARIABLE = re.compile(r"\$\{([A-Za-z_]\w*)(?:[:.][^}]*)?\}|\$([A-Za-z_]\w*)")


@dataclass
class Selector:
    """A vector selector: its metric name (None for `{__name__=...}`) and the label names it matches on."""

    metric: str | None
    labels: list[str] = field(default_factory=list)


@dataclass
class Analysis:
    """What one expression names, and what is wrong with its shape."""

    selectors: list[Selector] = field(default_factory=list)
    grouping_labels: set[str] = field(default_factory=set)
    functions: set[str] = field(default_factory=set)
    variables: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    @property
    def metrics(self) -> set[str]:
        return {s.metric for s in self.selectors if s.metric}


@dataclass(frozen=True)
class _Token:
    kind: str
    text: str
    pos: int


def tokenize(expr: str) -> tuple[list[_Token], list[str]]:
    """Tokens without whitespace, and a problem for every character that starts no token."""
    tokens: list[_Token] = []
    problems: list[str] = []
    pos = 0
    while pos < len(expr):
        match = _TOKEN.match(expr, pos)
        if match is None:
            problems.append(f"unexpected {expr[pos]!r} at {pos}")
            pos += 1
            continue
        kind = match.lastgroup or ""
        if kind != "ws":
            tokens.append(_Token(kind, match.group(), pos))
        pos = match.end()
    return tokens, problems


def analyze(expr: str) -> Analysis:
    """Read `expr`: selectors, grouping labels, functions and variables it uses, and any shape problem."""
    tokens, problems = tokenize(expr)
    result = Analysis(problems=problems)
    if not tokens:
        result.problems.append("empty expression")
        return result
    for token in tokens:
        if token.kind in ("var", "string"):
            result.variables.update(a or b for a, b in _VARIABLE.findall(token.text))
    # Each open bracket remembers what it is: "call", "group" (a label list), "paren", "range" or the Selector.
    stack: list[tuple[str, object]] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        prev = tokens[index - 1] if index else None
        nxt = tokens[index + 1] if index + 1 < len(tokens) else None
        inside = stack[-1] if stack else None
        if inside is not None and isinstance(inside[1], Selector) and token.text != "}":
            index = _read_matcher(tokens, index, inside[1], result)
            continue
        in_range = inside is not None and inside[1] == "range"
        if in_range and token.kind not in ("duration", "number", "var") and token.text not in (":", "]"):
            result.problems.append(f"unexpected {token.text!r} in a range at {token.pos}")
        if token.kind == "ident" and not in_range:
            _read_identifier(token, nxt, inside, result)
        elif token.kind == "bracket" and token.text in "({[":
            stack.append((token.text, _opened(token, prev, result)))
        elif token.kind == "bracket":
            if not stack or stack[-1][0] != PAIRS[token.text]:
                result.problems.append(f"unbalanced {token.text!r} at {token.pos}")
            else:
                stack.pop()
        index += 1
    for bracket, _ in stack:
        result.problems.append(f"unclosed {bracket!r}")
    return result


def _opened(token: _Token, prev: _Token | None, result: Analysis) -> object:
    """What the bracket `token` opens, judged by the token before it."""
    if token.text == "[":
        return "range"
    if token.text == "{":
        if prev is not None and prev.kind == "ident" and result.selectors and result.selectors[-1].metric == prev.text:
            return result.selectors[-1]
        selector = Selector(None)
        result.selectors.append(selector)
        return selector
    if prev is not None and prev.kind == "ident" and prev.text in GROUPING:
        return "group"
    if prev is not None and prev.kind == "ident" and prev.text not in KEYWORDS:
        return "call"
    return "paren"


def _read_identifier(token: _Token, nxt: _Token | None, inside: tuple[str, object] | None, result: Analysis) -> None:
    name = token.text
    if inside is not None and inside[1] == "group":
        result.grouping_labels.add(name)
    elif name in KEYWORDS or name.lower() in NUMBER_WORDS:
        return
    elif nxt is not None and (nxt.text == "(" or (name in AGGREGATIONS and nxt.text in ("by", "without"))):
        if name not in FUNCTIONS and name not in AGGREGATIONS:
            result.problems.append(f"unknown function {name!r} at {token.pos}")
        result.functions.add(name)
    else:
        result.selectors.append(Selector(name))


def _read_matcher(tokens: list[_Token], index: int, selector: Selector, result: Analysis) -> int:
    """Inside `{...}`: read one `label op "value"` (or a comma, or the closing brace); returns the next index."""
    token = tokens[index]
    if token.text == ",":
        return index + 1
    if token.kind == "string" and selector.metric is None and not selector.labels:
        selector.metric = token.text[1:-1]  # PromQL 3 {"quoted.metric.name"}
        return index + 1
    if token.kind not in ("ident", "string"):
        result.problems.append(f"expected a label name, got {token.text!r} at {token.pos}")
        return index + 1
    op = tokens[index + 1] if index + 1 < len(tokens) else None
    value = tokens[index + 2] if index + 2 < len(tokens) else None
    if op is None or op.text not in MATCH_OPS or value is None or value.kind not in ("string", "var"):
        result.problems.append(f"bad label matcher after {token.text!r} at {token.pos}")
        return index + 1
    label = token.text.strip("\"'`")
    if label == "__name__" and op.text == "=" and value.kind == "string" and selector.metric is None:
        selector.metric = value.text[1:-1]
    else:
        selector.labels.append(label)
    return index + 3


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
