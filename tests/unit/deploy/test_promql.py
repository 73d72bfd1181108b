"""PromQL read by the real parser once Grafana's variables are substituted: metrics, labels, functions, errors."""

from __future__ import annotations

from deploycheck.promql import analyze, check_query, substitute


def test_reads_an_aggregation_with_grouping_before_and_after() -> None:
    result = analyze(
        'sum by (service, le) (rate(a_bucket{code=~"X|Y", service!=""}[5m])) / ignoring(code) sum(b) without (x)'
    )
    assert result.problems == []
    assert result.metrics == {"a_bucket", "b"}
    assert result.grouping_labels == {"service", "le", "code", "x"}
    assert result.selectors[0].labels == ["code", "service"]
    assert result.functions == {"sum", "rate"}


def test_grafana_variables_and_subqueries() -> None:
    result = analyze('max_over_time(rate(c_total{ns=~"${namespace:regex}"}[$__rate_interval])[1h:5m] offset 1d)')
    assert result.problems == []
    assert result.metrics == {"c_total"}
    assert result.variables == {"namespace", "__rate_interval"}


def test_each_variable_becomes_what_its_place_needs() -> None:
    text, names = substitute('topk($k, x{a="$v", b=~"[[w]]"}[$__rate_interval]) > $limit')
    assert text == 'topk(1, x{a="grafana_variable", b=~"grafana_variable"}[5m]) > 1'
    assert names == {"k", "v", "w", "__rate_interval", "limit"}


def test_name_matcher_and_numbers() -> None:
    result = analyze('{__name__="up", job="x"} == 0 and on(job) histogram_quantile(0.99, d) > 1e3 or vector(Inf)')
    assert result.problems == []
    assert result.metrics == {"up", "d"}
    assert result.grouping_labels == {"job"}


def test_what_does_not_parse_is_a_problem() -> None:
    for expr in ("rate(x[5m]", "x}", "x{job}", "frobnicate(x)", "rate(x[5m foo])", "  ", "max(x) offset 1d"):
        problems = analyze(expr).problems
        assert len(problems) == 1 and problems[0].startswith("does not parse"), (expr, problems)


def test_an_unknown_metric_or_label_is_named() -> None:
    known = {"gamehall_rpc_total": frozenset({"service", "code"})}
    assert check_query('sum by (code) (rate(gamehall_rpc_total{service="x"}[5m]))', known) == (
        [],
        {"gamehall_rpc_total"},
    )
    problems, _ = check_query("rate(gamehall_rpc_totl[5m]) + on(pod) gamehall_rpc_total{game='g'}", known)
    assert problems == [
        "series 'gamehall_rpc_totl' is not exported",
        "gamehall_rpc_total has no label game",
        "grouping by labels no series here has: pod",
    ]
