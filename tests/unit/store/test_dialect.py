"""The dialect layer: one query text, two placeholder styles, portable migrations, time encoding."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from gamehall.store.dialect import POSTGRES, SQLITE
from gamehall.store.migrations import MIGRATIONS, latest_version


def test_placeholders() -> None:
    query = "SELECT a FROM t WHERE b = ? AND c IN (?, ?)"
    assert SQLITE.sql(query) == query
    assert POSTGRES.sql(query) == "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)"


def test_migrations_render_for_both_backends() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, latest_version() + 1))
    for migration in MIGRATIONS:
        for statement in migration.statements:
            for dialect in (SQLITE, POSTGRES):
                rendered = dialect.render(statement)
                assert "{" not in rendered and "}" not in rendered
    create_matches = next(s for s in MIGRATIONS[0].statements if "CREATE TABLE matches" in s)
    assert "JSONB" in POSTGRES.render(create_matches) and "TIMESTAMPTZ" in POSTGRES.render(create_matches)
    assert "JSONB" not in SQLITE.render(create_matches)


def test_sqlite_times_round_trip_and_sort_as_text() -> None:
    moments = [
        datetime(2030, 1, 1, tzinfo=UTC),
        datetime(2030, 1, 1, 0, 0, 0, 1, tzinfo=UTC),
        datetime(2030, 1, 1, 0, 0, 1, tzinfo=UTC),
        datetime(2030, 1, 1, 2, 0, 0, tzinfo=timezone(timedelta(hours=3))),  # 23:00 UTC the day before
    ]
    texts = [SQLITE.param(m) for m in moments]
    assert all(isinstance(t, str) for t in texts)
    assert [SQLITE.load_time(t) for t in texts] == moments
    assert sorted(texts) == [texts[3], texts[0], texts[1], texts[2]]


def test_naive_times_are_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        SQLITE.param(datetime(2030, 1, 1))


def test_postgres_binds_values_as_they_are() -> None:
    moment = datetime(2030, 1, 1, tzinfo=UTC)
    assert POSTGRES.params((moment, True, b"x")) == (moment, True, b"x")
    assert SQLITE.params((moment, True, b"x"))[1:] == (True, b"x")
