"""The instant evaluator the fault tests use to ask "would this alert fire now?" of a scrape."""

from __future__ import annotations

import pytest
from deploycheck.evaluate import Unsupported, evaluate, samples

SCRAPE = """\
# TYPE gamehall_consumer_waiting gauge
gamehall_consumer_waiting{stream="GAMEHALL_MATCHLOG",consumer="persistence-projector"} 3.0
gamehall_consumer_waiting{stream="outbox",consumer="outbox-relay"} 0.0
# TYPE gamehall_match_log_projection_lag_seconds gauge
gamehall_match_log_projection_lag_seconds 42.5
"""


def _eval(expr: str) -> dict[frozenset[tuple[str, str]], float]:
    return evaluate(expr, samples(SCRAPE, {"namespace": "games"}))


def test_selectors_aggregations_and_comparisons() -> None:
    waiting = 'max by (namespace) (gamehall_consumer_waiting{namespace="games", stream="GAMEHALL_MATCHLOG"}) > 0'
    assert _eval(waiting) == {frozenset({("namespace", "games")}): 3.0}
    assert _eval('gamehall_consumer_waiting{stream!="GAMEHALL_MATCHLOG"} > 0') == {}
    assert _eval('sum(gamehall_consumer_waiting{stream=~"GAME.*|outbox"})') == {frozenset(): 3.0}
    assert _eval("max by (namespace) (gamehall_match_log_projection_lag_seconds) > 30") != {}
    assert _eval("max by (namespace) (gamehall_match_log_projection_lag_seconds) > 60") == {}
    assert list(_eval("gamehall_match_log_projection_lag_seconds > bool 60").values()) == [0.0]
    assert _eval('count without (consumer) (gamehall_consumer_waiting{namespace="other"})') == {}


def test_what_it_cannot_evaluate_is_said_not_guessed() -> None:
    with pytest.raises(Unsupported):
        _eval("increase(gamehall_log_lines_lost_total[10m]) > 0")
    with pytest.raises(Unsupported):
        _eval("gamehall_consumer_waiting > gamehall_match_log_projection_lag_seconds")
