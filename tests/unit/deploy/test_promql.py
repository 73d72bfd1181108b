"""The PromQL reader tells metrics from functions, keywords and labels, and finds unbalanced brackets."""

from __future__ import annotations

from deploycheck.promql import analyze


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
    result = analyze('max_over_time(rate(c_total{ns=~"${namespace:regex}"}[$__rate_interval])[1h:5m]) offset 1d')
    assert result.problems == []
    assert result.metrics == {"c_total"}
    assert result.variables == {"namespace", "__rate_interval"}


def test_name_matcher_and_numbers() -> None:
    result = analyze('{__name__="up", job="x"} == 0 and on(job) histogram_quantile(0.99, d) > 1e3 or vector(Inf)')
    assert result.problems == []
    assert result.metrics == {"up", "d"}


def test_shape_problems() -> None:
    assert analyze("rate(x[5m]").problems == ["unclosed '('"]
    assert analyze("x}").problems == ["unbalanced '}' at 1"]
    assert analyze("x{job}").problems == ["bad label matcher after 'job' at 2"]
    assert analyze("frobnicate(x)").problems == ["unknown function 'frobnicate' at 0"]
    assert analyze("rate(x[5m foo])").problems == ["unexpected 'foo' in a range at 10"]
    assert analyze("  ").problems == ["empty expression"]
