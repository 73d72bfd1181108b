"""The per-game table renderers in a real headless Chromium: every view fixture (real engine views of every seed
game and mode, spectator and seat, early/mid/final and telling positions; web/test/fixtures/views) is drawn by
its game's renderer.

Checked per fixture: no exception, the game's own renderer (not the generic fallback) drew it, no raw JSON in the
picture, the key facts of the view are on it (each seat's HP/score, the board's pieces), every card face shown
comes from the view, and a spectator picture never names a card of a hand the spectator view does not hold.
On a 380 px phone (340 px left to the table) nothing overflows sideways. PNGs go to var/screenshots/renderers/.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api

from gamehall_services.web.pages import SECURITY_HEADERS

ROOT = Path(__file__).resolve().parents[3]
WEB = ROOT / "web"
FIXTURES = WEB / "test" / "fixtures" / "views"
SHOTS = ROOT / "var" / "screenshots" / "renderers"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ESBUILD = WEB / "node_modules" / ".bin" / "esbuild"
GAMES = ("grimslingers", "grimmoir", "tiny-epic-quest", "grimm-world")
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
TABLE_AT_PHONE = 340
"""The width the match page leaves its table box on a 380 px phone (its main and box paddings)."""



def _fixtures() -> list[dict[str, Any]]:
    docs = [json.loads(p.read_text()) | {"file": p.name} for p in sorted(FIXTURES.glob("*.json"))]
    return docs


def _strings(value: Any) -> set[str]:
    """Every string and number anywhere in a view (the ids a card face may legitimately show)."""
    out: set[str] = set()
    if isinstance(value, dict):
        for v in value.values():
            out |= _strings(v)
    elif isinstance(value, list):
        for v in value:
            out |= _strings(v)
    elif isinstance(value, str | int | float) and not isinstance(value, bool):
        out.add(str(value))
    return out


HARNESS = "https://harness.test/"


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The harness page served as the web service serves its pages: one script and one stylesheet from its own
    origin under the service's own Content-Security-Policy (no inline style or script). Every console error,
    page error and CSP violation is collected in `page.errors`; each test fails on any (`_no_errors`)."""
    # `make test` installs both (make chromium, make web): a missing one is a failure, never a skip
    assert Path(CHROMIUM).exists(), "Debian's chromium is not installed (make chromium installs it)"
    assert ESBUILD.exists(), "web/node_modules is missing (make web installs the toolchain)"
    out = tmp_path_factory.mktemp("renderers")
    subprocess.run(
        [str(ESBUILD), str(WEB / "test" / "renderers" / "harness.ts"), "--bundle", "--format=iife",
         f"--outfile={out / 'harness.js'}", "--log-level=warning"],
        check=True, cwd=WEB,
    )
    css = "body{margin:0;background:#f6f3ea}\n" + (WEB / "src" / "renderers" / "renderers.css").read_text()
    html = ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            "<link rel='stylesheet' href='/harness.css'><script src='/harness.js'></script></head>"
            "<body><main id='table'></main></body></html>")
    files = {"": (html, "text/html"), "harness.css": (css, "text/css"),
             "harness.js": ((out / "harness.js").read_text(), "text/javascript")}

    def serve(route: Any) -> None:
        name = route.request.url.removeprefix(HARNESS).split("?")[0]
        if name not in files:
            route.fulfill(status=404, body="")
            return
        body, kind = files[name]
        route.fulfill(status=200, body=body, content_type=kind, headers=SECURITY_HEADERS)

    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        pg = browser.new_page(viewport={"width": 960, "height": 800})
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        pg.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        pg.route(f"{HARNESS}**", serve)
        pg.goto(HARNESS)
        pg.wait_for_function("() => typeof window.drawAll === 'function'")
        pg.errors = errors
        yield pg
        browser.close()


@pytest.fixture(autouse=True)
def _no_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """Any console error, page error or CSP violation during a test fails it."""
    yield
    if "page" not in request.fixturenames:
        return
    pg = request.getfixturevalue("page")
    violations = pg.evaluate("() => window.violations.splice(0)")
    errors = [*pg.errors, *violations]
    pg.errors.clear()
    assert not errors, f"{len(errors)} console errors or CSP violations: {errors[:5]}"


def test_content_module_is_fresh() -> None:
    """content.generated.ts matches the content packs it is generated from."""
    result = subprocess.run([sys.executable, str(WEB / "test" / "renderers" / "make_content.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_fixtures_cover_every_game_and_viewer() -> None:
    docs = _fixtures()
    assert {d["game"] for d in docs} == set(GAMES)
    for game in GAMES:
        viewers = {d["viewer"] for d in docs if d["game"] == game}
        assert viewers == {"spectator", "seat0"}, game
    assert {d["mode"] for d in docs if d["game"] == "grimslingers"} >= {"versus-1v1", "creature-duel", "tall-tale"}
    assert {d["mode"] for d in docs if d["game"] == "grimm-world"} == {"skirmish", "campaign"}


def _shape(value: Any) -> Any:
    """A view's field names, nested (lists by their first element): what a renderer reads."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(value[0])] if value and isinstance(value[0], dict | list) else []
    return None


def _same_names(fixture: Any, fresh: Any, path: str = "view") -> None:
    if isinstance(fixture, dict) and isinstance(fresh, dict):
        assert set(fixture) == set(fresh), f"{path}: fields {sorted(set(fixture) ^ set(fresh))} changed"
        for k in fixture:
            _same_names(fixture[k], fresh[k], f"{path}.{k}")
    elif isinstance(fixture, list) and isinstance(fresh, list) and fixture and fresh:
        _same_names(fixture[0], fresh[0], f"{path}[]")


def test_fixtures_have_the_engines_current_view_fields() -> None:
    """The fixtures' field names are those the engines' views have now (replaying each early position): a renamed
    field fails here (regenerate with web/test/renderers/make_fixtures.py, fix the renderer) instead of passing on
    stale fixtures."""
    spec = importlib.util.spec_from_file_location("make_fixtures", WEB / "test" / "renderers" / "make_fixtures.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    from gamehall.engine.registry import get_game

    for doc in _fixtures():
        if doc["when"] != "early":
            continue
        game = get_game(doc["game"])
        states = tool.play(
            doc["game"], doc["mode"], doc["seats"], doc["options"], tool.SEED, limit=tool.EARLY + 1, flags=doc["flags"]
        )
        seat = None if doc["viewer"] == "spectator" else 0
        _same_names(_shape(doc["view"]), _shape(game.view(states[-1], seat)), doc["file"])


def _draw(page: Any, doc: dict[str, Any]) -> dict[str, Any]:
    report = page.evaluate("doc => window.draw(doc)", {k: doc[k] for k in ("game", "mode", "seats", "view")})
    assert report["error"] is None, f"{doc['file']}: {report['error']}"
    assert not page.errors, f"{doc['file']}: {page.errors}"
    return report


def _check_common(doc: dict[str, Any], report: dict[str, Any]) -> None:
    name = doc["file"]
    assert report["renderer"] == doc["game"], f"{name}: drawn by {report['renderer']}, not its own renderer"
    text = report["text"]
    assert text.strip(), f"{name}: an empty picture"
    assert '{"' not in text and '":' not in text and "[[" not in text, f"{name}: raw JSON in the picture"
    assert "undefined" not in text and "NaN" not in text and "[object" not in text, f"{name}: a value went missing"
    known = _strings(doc["view"])
    for card in report["cards"]:
        ident = card.split(":", 1)[1] if ":" in card else card
        assert ident in known, f"{name}: card {card} is not in the view"


def _check_grimslingers(doc: dict[str, Any], report: dict[str, Any], spectator_secrets: set[str]) -> None:
    view, labels = doc["view"], report["labels"]
    for p in view["players"]:
        assert f"HP {p['hp']} of {p['max_hp']}" in labels, f"{doc['file']}: HP {p['hp']}/{p['max_hp']} missing"
        assert f"EP {p['ep']} of {p['max_ep']}" in labels
    for i, p in enumerate(view["players"]):
        if view["seat"] == i:
            for key in view["hand"]:
                assert key in report["cards"], f"{doc['file']}: own hand card {key} not shown"
        elif p["hand_size"]:
            assert any(lab.startswith(f"{p['hand_size']} face-down") for lab in labels), f"{doc['file']}: backs"
    if view["seat"] is None:
        for secret in spectator_secrets:
            assert secret not in report["cards"], f"{doc['file']}: hidden card {secret} shown to a spectator"
    if view.get("tale"):
        assert "Objective" in report["text"]
    if view["outcome"]:
        ranks = view["outcome"]["ranks"]
        draw = not (view["creature"] or view.get("tale")) and len(ranks) > 1 and set(ranks) == {1}
        winners = {f"Grimslinger {i + 1}" for i, r in enumerate(ranks) if r == 1 and not draw}
        marked = {lab.split(" · ")[0].split(" (")[0].split(",")[0] for lab in labels if lab.endswith(", winner")}
        assert marked == winners, f"{doc['file']}: winners marked {marked}, ranked {winners}"


def _check_grimmoir(doc: dict[str, Any], report: dict[str, Any]) -> None:
    view = doc["view"]
    for side in view["board"]:
        for unit in side:
            if unit is not None:
                assert unit["character"] in report["cards"], f"{doc['file']}: {unit['character']} not on the field"
    for seat, coins in enumerate(view["coins"]):
        assert f"Player {seat + 1}" in report["text"] and f"Coins {coins}" in report["text"].replace("\n", " ")
    for seat, hand in enumerate(view["hands"]):
        if hand is None and view["hand_sizes"][seat]:
            assert f"{view['hand_sizes'][seat]} face-down unplaced characters" in report["labels"]


def _check_teq(doc: dict[str, Any], report: dict[str, Any]) -> None:
    view, text = doc["view"], report["text"].replace("\n", " ")
    for seat in range(view["seats"]):
        assert f"VP {view['victory_points'][seat]}" in text, f"{doc['file']}: VP of seat {seat}"
        assert f"Health {view['health'][seat]} of {view['max_health'][seat]}" in report["labels"]
    heroes = [lab for lab in report["labels"] if re.match(r"(Red|Blue|Green|Yellow) hero [123]\b", lab)]
    assert len(heroes) == 3 * view["seats"], f"{doc['file']}: {len(heroes)} hero tokens"
    for q in view["row"]:
        assert f"quest:{q}" in report["cards"]


def _check_grimm_world(doc: dict[str, Any], report: dict[str, Any]) -> None:
    view = doc["view"]
    for key in view["sheet"]["hand"]:
        assert key in report["cards"], f"{doc['file']}: action card {key} in hand not shown"
    if view.get("fight"):
        assert "Martha" in report["labels"], f"{doc['file']}: Martha not on the grid"
        for enemy, foe in zip(view["enemies"], view["fight"]["foes"], strict=True):
            assert f"HP {foe[3]} of {enemy['card']['constitution']}" in report["labels"]
        cells = [lab for lab in report["labels"] if lab.startswith("space ")]
        assert len(cells) == view["board"]["width"] * view["board"]["height"]
    if view.get("journey"):
        assert view["here"]["name"] in report["text"]
        assert f"{view['here']['name']} ({view['here']['number']}), Martha is here" in report["labels"]


def _check_drawing(doc: dict[str, Any], report: dict[str, Any]) -> None:
    """What is drawn matches the view, not just the text: each bar's fill is its value's share of the bar, Tiny Epic
    Quest's map cards sit on their rows and columns, Grimm World's battlefield is a grid of its width and height."""
    name = doc["file"]
    for m in report["meters"]:
        want = m["value"] / m["max"] if m["max"] else 0
        assert abs(m["drawn"] - want) < 0.02, f"{name}: bar {m['label']!r} drawn {m['drawn']:.2f} of its width"
    cards = report["mapCards"]
    if cards:
        for a in cards:
            for b in cards:
                if a["row"] < b["row"]:
                    assert a["y"] + a["h"] <= b["y"] + 1, f"{name}: map card row {a['row']} not above row {b['row']}"
                if a["col"] < b["col"]:
                    assert a["x"] + a["w"] <= b["x"] + 1, f"{name}: map card column {a['col']} not left of {b['col']}"
                if a["row"] == b["row"]:
                    assert abs(a["y"] - b["y"]) <= 1, f"{name}: map cards of row {a['row']} at different heights"
                if a["col"] == b["col"]:
                    assert abs(a["x"] - b["x"]) <= 1, f"{name}: map cards of column {a['col']} at different x"
    grid = report["grid"]
    if grid is not None:
        cols, rows, cells = grid["cols"], grid["rows"], grid["cells"]
        assert len(cells) == cols * rows, f"{name}: {len(cells)} cells for {cols}x{rows}"
        for i, c in enumerate(cells):
            x, y = i % cols, i // cols
            first_of_row, first_of_col = cells[y * cols], cells[x]
            assert abs(c["y"] - first_of_row["y"]) <= 1, f"{name}: cell {i} not on row {y}"
            assert abs(c["x"] - first_of_col["x"]) <= 1, f"{name}: cell {i} not in column {x}"
            assert abs(c["w"] - c["h"]) <= 2, f"{name}: cell {i} not square ({c['w']}x{c['h']})"
        assert grid["height"] <= grid["width"] * rows / cols + 8, f"{name}: battlefield {grid['height']} px tall"


def test_every_fixture_renders_as_a_table(page: Any) -> None:
    """Every fixture drawn at the width a phone leaves the table: the checks above, and nothing overflows sideways."""
    docs = _fixtures()
    seat_views = {d["file"]: d for d in docs if d["viewer"] == "seat0"}
    page.set_viewport_size({"width": TABLE_AT_PHONE, "height": 800})
    sent = json.dumps([{k: d[k] for k in ("game", "mode", "seats", "view")} for d in docs])
    # JSON text both ways: Playwright's own serialization of large objects is slow.
    reports = json.loads(page.evaluate("docs => JSON.stringify(window.drawAll(JSON.parse(docs)))", sent))
    assert not page.errors, page.errors
    hidden_checked = 0
    for doc, report in zip(docs, reports, strict=True):
        assert report["error"] is None, f"{doc['file']}: {report['error']}"
        assert report["scrollWidth"] <= TABLE_AT_PHONE, f"{doc['file']}: {report['scrollWidth']} px wide on a phone"
        _check_common(doc, report)
        _check_drawing(doc, report)
        game = doc["game"]
        if game == "grimslingers":
            secrets: set[str] = set()
            mine = seat_views.get(doc["file"].replace("--spectator.json", "--seat0.json"))
            if doc["viewer"] == "spectator" and mine is not None:
                public = _strings(doc["view"])
                secrets = {k for k in mine["view"]["hand"] if k not in public}
                hidden_checked += len(secrets)
            _check_grimslingers(doc, report, secrets)
        elif game == "grimmoir":
            _check_grimmoir(doc, report)
        elif game == "tiny-epic-quest":
            _check_teq(doc, report)
        else:
            _check_grimm_world(doc, report)
    assert hidden_checked > 0, "no fixture has a hand card the spectator must not see: the hidden-card check is idle"
    # the drawing checks are not idle: partial bars, map cards and battlefields were all measured
    partial = [m for r in reports for m in r["meters"] if 0 < m["value"] < m["max"]]
    assert partial, "no bar below full: the bar-width check is idle"
    assert sum(len(r["mapCards"]) for r in reports) and sum(r["grid"] is not None for r in reports)
    tallest = max(r["height"] for r in reports)
    assert tallest < 6000, f"a picture {tallest} px tall at phone width"


SHOWN = {
    ("grimslingers", "versus-ffa"), ("grimslingers", "creature-duel"), ("grimslingers", "tall-tale"),
    ("grimmoir", "duel"), ("tiny-epic-quest", "standard"), ("grimm-world", "skirmish"), ("grimm-world", "campaign"),
}
"""The modes photographed: every game, and each mode whose picture differs (creature, trail, campaign)."""


def test_screenshots(page: Any) -> None:
    """Every text of the pictures photographed meets WCAG AA contrast. PNGs under var/screenshots/renderers/: the
    spectator on a 1366x768 laptop and a seat view on a 390x844 phone, at the most telling position (cards in play,
    hands, dice or a fight when the match had one, else mid-game)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    picks: dict[tuple[str, str, str], dict[str, Any]] = {}
    for doc in _fixtures():
        key = (doc["game"], doc["mode"] + (f"+{doc['variant']}" if doc["variant"] else ""), doc["viewer"])
        if key[:2] not in SHOWN:
            continue
        if doc["when"] == "feature" or (doc["when"] == "mid" and key not in picks):
            picks[key] = doc
    phones = {"grimslingers": "versus-ffa", "grimmoir": "duel", "tiny-epic-quest": "standard",
              "grimm-world": "skirmish"}
    for size, viewer, suffix in ((LAPTOP, "spectator", ""), (PHONE, "seat0", "--phone")):
        page.set_viewport_size(size)
        width = size["width"]
        for (game, mode, who), doc in sorted(picks.items()):
            if who == viewer and (viewer == "spectator" or phones[game] == mode):
                _draw(page, doc)
                issues = page.evaluate("() => window.contrastIssues()")
                assert not issues, f"{doc['file']} at {width} px: text below WCAG AA contrast: {issues[:5]}"
                page.screenshot(path=str(SHOTS / f"{game}--{mode}{suffix}.png"), full_page=True)
    assert {p.name.split("--")[0] for p in SHOTS.glob("*.png")} >= set(GAMES)


def test_a_view_it_cannot_read_gives_a_note_not_an_exception(page: Any) -> None:
    """A view without the game's core part (null, empty, the wrong game's) draws a note, never throws."""
    other = {"grimslingers": {"board": []}, "grimmoir": {"players": []}, "tiny-epic-quest": {"sheet": {}},
             "grimm-world": {"cards": []}}
    for game in GAMES:
        for view in (None, {}, "text", [1, 2], other[game]):
            report = _draw(page, {"file": f"{game} with {view!r}", "game": game, "mode": "", "seats": 1, "view": view})
            assert report["renderer"] == game
            assert "cannot be drawn" in report["text"]
