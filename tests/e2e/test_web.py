"""The web pages in a real headless Chromium against the running platform (issue 18): live standings of
a Swiss tournament of 8 bots, a spectator following a match with the broadcast delay and never seeing
hidden information (its DOM and its network payloads against the engine's spectator view), the replay
viewer stepping through a finished match, and the operator console pausing and resuming a tournament
while a non-operator is refused on screen. Each test writes screenshots under var/screenshots/web/."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Page, expect

from gamehall.engine import MatchConfig
from gamehall_sdk.v1 import auth_pb2, catalog_pb2, common_pb2, match_pb2
from gamehall_sdk.v1 import tournament_pb2 as pb
from tests.e2e.client import PASSWORD, Client
from tests.e2e.conftest import OPERATOR_PASSWORD, Running
from tests.e2e.mm_helpers import operator, tournaments, wait_for
from tests.e2e.web_helpers import PHONE, launch, screenshot, signed_in, stream_messages, tap_streams
from tests.fixtures.high_card import GAME as HIGH_CARD

GAME = "high-card"
DELAY = 2


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launch()


@pytest.fixture(scope="module")
def web(platform: Running) -> str:
    url = platform.platform.web_url
    assert url, "the launcher started no web service"
    return url


def _account(client: Client) -> dict[str, str]:
    assert client.account is not None
    role = {auth_pb2.ROLE_OPERATOR: "operator", auth_pb2.ROLE_PLAYER: "player"}.get(client.account.role, "")
    return {"id": client.account.id, "username": client.account.username, "role": role}


def _page(browser: Browser, client: Client, **options: Any) -> Page:
    return signed_in(browser, client.token, _account(client), **options).new_page()


def _tcall(client: Client, method: str, request: Any) -> Any:
    return getattr(tournaments(client), method)(request, metadata=client.metadata, timeout=20)


# ----------------------------------------------------------------------------------------- tournaments


def _rows(page: Page) -> list[list[str]]:
    return page.eval_on_selector_all(
        "table.standings tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))"
    )


def test_swiss_standings_update_live_without_reload(platform: Running, web: str, browser: Browser) -> None:
    boss = operator(platform)
    request = pb.CreateTournamentRequest(name="Web Swiss", game=GAME, format=pb.TOURNAMENT_FORMAT_SWISS, rounds=3)
    tid = _tcall(boss, "CreateTournament", request).tournament.id
    for _ in range(8):
        _tcall(boss, "RegisterPlayer", pb.RegisterPlayerRequest(tournament_id=tid, bot="random"))
    viewer = platform.player()
    page = _page(browser, viewer)
    page.goto(f"{web}#/t/{tid}")
    expect(page.locator("table.standings")).to_be_visible(timeout=15_000)
    page.evaluate("window.__sameDocument = true")
    _tcall(boss, "StartTournament", pb.StartTournamentRequest(tournament_id=tid))

    seen: list[tuple[str, list[list[str]]]] = []
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        revision = page.get_attribute("table.standings", "data-revision") or ""
        if not seen or seen[-1][0] != revision:
            seen.append((revision, _rows(page)))
        if "Final standings" in (page.text_content("#live-status") or ""):
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the standings page never showed the final standings")
    seen.append((page.get_attribute("table.standings", "data-revision") or "", _rows(page)))

    assert page.evaluate("window.__sameDocument") is True, "the page reloaded"
    points = [sum(float(row[2]) for row in rows) for _, rows in seen]
    assert len({r for r, _ in seen}) >= 4, f"too few live updates seen: {[r for r, _ in seen]}"
    assert any(0 < p < points[-1] for p in points), f"no partial standings shown between start and end: {points}"
    final = _tcall(boss, "GetStandings", pb.GetStandingsRequest(tournament_id=tid)).standings
    shown = seen[-1][1]
    assert [int(r[0]) for r in shown] == [row.rank for row in final.rows]
    assert [float(r[2]) for r in shown] == [row.points for row in final.rows]
    headers = page.eval_on_selector_all("table.standings thead th", "ths => ths.map(t => t.textContent.trim())")
    assert headers[3 : 3 + len(final.tiebreak_order)] == [
        {
            "buchholz-cut1": "Buchholz cut 1",
            "buchholz": "Buchholz",
            "sonneborn-berger": "Sonneborn-Berger",
            "head-to-head": "Head to head",
        }[name]
        for name in final.tiebreak_order
    ]
    rounds = page.locator("section.round")
    expect(rounds).to_have_count(3, timeout=15_000)
    expect(page.locator(".tournament-head .badge")).to_have_text("Finished", timeout=15_000)
    expect(page.locator("#tables td", has_text=re.compile("^Playing$"))).to_have_count(0)
    expect(page.get_by_role("link", name=re.compile(r"Replay table 1 of round 1"))).to_be_visible()
    screenshot(page, "tournament")
    page.set_viewport_size(PHONE)
    screenshot(page, "tournament-phone")
    page.context.close()


def test_an_elimination_tournament_is_drawn_as_a_bracket(platform: Running, web: str, browser: Browser) -> None:
    boss = operator(platform)
    request = pb.CreateTournamentRequest(name="Web Knockout", game=GAME, format=pb.TOURNAMENT_FORMAT_SINGLE_ELIMINATION)
    tid = _tcall(boss, "CreateTournament", request).tournament.id
    for _ in range(4):
        _tcall(boss, "RegisterPlayer", pb.RegisterPlayerRequest(tournament_id=tid, bot="random"))
    _tcall(boss, "StartTournament", pb.StartTournamentRequest(tournament_id=tid))
    page = _page(browser, platform.player())
    page.goto(f"{web}#/t/{tid}")
    expect(page.locator("#live-status")).to_contain_text("Final standings", timeout=60_000)
    expect(page.locator(".tournament-head .badge")).to_have_text("Finished", timeout=15_000)
    rounds = page.locator(".bracket .bracket-round")
    expect(rounds).to_have_count(2)
    expect(rounds.nth(0).locator(".bracket-match")).to_have_count(2)
    expect(rounds.nth(1).locator(".bracket-match .winner")).to_have_count(1)  # the final's winner, in bold
    expect(page.locator("section.round")).to_have_count(0)  # no Swiss-style rounds for a bracket
    screenshot(page, "bracket")
    page.context.close()


# ----------------------------------------------------------------------------------------- spectator


def _play_one(client: Client, match_id: str, card: int | None = None) -> match_pb2.SubmitActionResponse:
    legal = client.legal(match_id)
    plays = [a for a in legal.actions if json.loads(a.action_json).get("kind") == "play"]
    chosen = plays[0] if card is None else next(a for a in plays if json.loads(a.action_json)["card"] == card)
    return client.submit(match_id, chosen.id, request_id=f"web-{match_id}-{legal.version}-{chosen.id}")


def _duel(platform: Running) -> tuple[Client, Client, str]:
    first, second = platform.player(), platform.player()
    match = first.create(GAME, "duel", 2, public=True, join_seat=0)
    second.join(match.id, 1)
    return first, second, match.id


def _engine_views(match: match_pb2.Match, replay: match_pb2.GetReplayResponse) -> dict[int, dict[str, Any]]:
    """The engine's spectator view at every version, recomputed here from the revealed seed and the log."""
    config = HIGH_CARD.validate_config(MatchConfig.from_json({"mode": "duel", "seats": 2}))
    state = HIGH_CARD.new_match(config, match.seed)
    views = {0: HIGH_CARD.view(state, None)}
    for step in replay.steps:
        action = HIGH_CARD.parse_action(json.loads(step.action.action_json))
        state, _ = HIGH_CARD.apply(state, step.seat, action)
        views[step.version] = HIGH_CARD.view(state, None)
    return views


def test_spectator_follows_a_match_with_the_delay_and_sees_no_hidden_information(
    platform: Running, web: str, browser: Browser
) -> None:
    first, second, match_id = _duel(platform)
    hand = json.loads(first.view(match_id).view_json)["hand"]
    # seat 0's first card, hidden until seat 1 plays too; not a number the table shows at version 1 anyway
    # (hand sizes 4 and 5, the deck's 2 cards, scores 0): five distinct cards always hold one such
    secret = next(card for card in sorted(hand, reverse=True) if card not in (0, 2, 4, 5))
    page = _page(browser, platform.player())
    streams = tap_streams(page, "/gamehall.v1.MatchService/WatchMatch")
    page.goto(f"{web}#/m/{match_id}?delay={DELAY}")
    table = page.locator("#table")
    expect(table).to_have_attribute("data-version", "0", timeout=15_000)

    texts: dict[int, str] = {}
    live = 0
    for turn in range(10):
        player, card = (first, secret if turn == 0 else None) if turn % 2 == 0 else (second, None)
        live = int(_play_one(player, match_id, card).version)
        if live < 10:
            shown = max(0, live - DELAY)
            expect(table).to_have_attribute("data-version", str(shown), timeout=10_000)
            time.sleep(0.2)  # it must stay there: the delay holds the next versions back
            assert table.get_attribute("data-version") == str(shown), f"ahead of the delay at live version {live}"
            texts[shown] = table.inner_text()
    expect(page.locator("#outcome")).to_contain_text("Result", timeout=15_000)
    expect(table).to_have_attribute("data-version", "10")
    texts[10] = table.inner_text()
    expect(page.locator("#live-status")).to_have_text("Finished at move 10.")
    screenshot(page, "spectator")

    match = first.match(match_id)
    views = _engine_views(match, first.replay(match_id))
    page_text = page.inner_text("main")
    assert "my commitment" not in page_text.lower() and not re.search(r"\bhand\b(?! sizes)", page_text.lower())
    assert not re.search(rf"\b{secret}\b", texts[1]), "seat 0's face-down card was shown before the reveal"
    bodies = streams()
    assert bodies, "no WatchMatch stream was seen"
    received = 0
    for body in bodies:
        messages, end = stream_messages(body, match_pb2.WatchMatchResponse)
        assert json.loads(end or b"{}").get("error") is None
        for message in messages:
            assert not message.HasField("seat")
            assert json.loads(message.view_json) == views[message.version], f"version {message.version} differs"
            assert all(not e.audience for e in message.events), "a seat's private event reached a spectator"
            received += 1
    assert received >= 9
    page.context.close()


# ----------------------------------------------------------------------------------------- replay


def test_replay_viewer_steps_through_a_finished_match(platform: Running, web: str, browser: Browser) -> None:
    first, second, match_id = _duel(platform)
    opening = json.loads(first.view(match_id).view_json)["hand"]
    for turn in range(10):
        _play_one(first if turn % 2 == 0 else second, match_id)
    replay = wait_for(lambda: (r := first.replay(match_id)).complete and r, timeout=15, what="the complete replay")
    page = _page(browser, platform.player())
    page.goto(f"{web}#/r/{match_id}")
    slider = page.locator("#step")
    expect(slider).to_have_attribute("max", "10", timeout=15_000)
    expect(page.locator("#step-label")).to_contain_text("Step 10 of 10")
    expect(page.locator("#outcome-title")).to_be_visible()
    screenshot(page, "replay")

    slider.focus()
    page.keyboard.press("Home")
    expect(page.locator("#step-label")).to_contain_text("Step 0 of 10")
    seat0 = page.locator('#hands [data-seat="0"]')
    expect(seat0).to_be_visible()
    shown_hand = page.evaluate(
        """() => {
            const view = document.querySelector('#hands [data-seat="0"]');
            const term = [...view.querySelectorAll('dt')].find(dt => dt.textContent.trim() === 'hand');
            return term ? [...term.nextElementSibling.querySelectorAll('li')].map(li => Number(li.textContent)) : null;
        }"""
    )
    assert shown_hand is None or shown_hand == opening  # a game's own renderer draws hands its own way
    expect(seat0).to_contain_text(" ".join(str(c) for c in opening) if shown_hand is None else "hand")

    page.keyboard.press("ArrowRight")
    step = replay.steps[0]
    expect(page.locator("#step-label")).to_contain_text(f"Step 1 of 10 · move {step.version}")
    expect(page.locator("#step-label")).to_contain_text(step.action.label)
    page.get_by_role("button", name="Next").click()
    expect(page.locator("#table")).to_have_attribute("data-step", "2")
    page.get_by_role("button", name="Previous").click()
    expect(page.locator("#table")).to_have_attribute("data-step", "1")
    page.get_by_role("button", name="Last").click()
    expect(page.locator("#step-label")).to_contain_text("Step 10 of 10")
    page.context.close()


# ----------------------------------------------------------------------------------------- operator console


def _sign_in(browser: Browser, web: str, username: str, password: str, then: str) -> Page:
    page = signed_in(browser).new_page()
    page.goto(f"{web}#/login?next={quote(then, safe='')}")
    page.locator("#login-username").fill(username)
    page.locator("#login-password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    return page


def _done(page: Page, label: str) -> None:
    expect(page.locator("#console-result")).to_contain_text(re.compile(rf"{label}[^:]*: done"), timeout=15_000)


def test_operator_console_runs_a_tournament_and_a_player_is_refused(
    platform: Running, web: str, browser: Browser
) -> None:
    """Create (registration open now), check in, start, pause, resume, drop, repair and adjudicate, all from
    the console's buttons; a player pressing Pause sees the gateway's PERMISSION_DENIED."""
    page = _sign_in(browser, web, "operator", OPERATOR_PASSWORD, "#/console")
    expect(page.get_by_role("heading", name="Operator console")).to_be_visible(timeout=15_000)
    page.locator("#t-name").fill("Console cup")
    page.locator("#t-game").select_option(GAME)
    page.locator("#t-format").select_option("swiss")
    page.locator("#t-noshow").fill("600")
    page.get_by_role("button", name="Create tournament").click()
    expect(page.locator("#manage-status")).to_have_attribute("data-status", "registration", timeout=15_000)
    tid = page.locator("#manage-pick").input_value()

    players = [platform.player() for _ in range(3)]  # people who never move: the rounds stay open
    boss = operator(platform)
    for player in players:
        _tcall(player, "RegisterPlayer", pb.RegisterPlayerRequest(tournament_id=tid))
    page.reload()
    rows = page.locator("#manage-panel tbody tr")
    expect(rows).to_have_count(3, timeout=15_000)
    rows.nth(0).get_by_role("button", name=re.compile("^Check in")).click()
    _done(page, "Check in")
    expect(rows.nth(0)).to_contain_text("yes")
    for action, status in (("start", "running"), ("pause", "paused"), ("resume", "running")):
        page.locator(f'button[data-action="{action}"]').click()
        expect(page.locator("#manage-status")).to_have_attribute("data-status", status, timeout=15_000)
        expect(page.locator("#console-result")).to_contain_text(f"The tournament is {status}")
        if action == "pause":
            assert _tournament(boss, tid).status == pb.TOURNAMENT_STATUS_PAUSED
            screenshot(page, "console")

    outsider = players[0]
    assert outsider.account is not None
    refused = _sign_in(browser, web, outsider.account.username, PASSWORD, f"#/console/{tid}")
    expect(refused.locator("#manage-status")).to_have_attribute("data-status", "running", timeout=15_000)
    refused.locator('button[data-action="pause"]').click()
    alert = refused.get_by_role("alert")
    expect(alert).to_contain_text("PERMISSION_DENIED", timeout=15_000)
    expect(alert).to_contain_text("Permission denied")
    assert _tournament(boss, tid).status == pb.TOURNAMENT_STATUS_RUNNING
    screenshot(refused, "console-refused")
    refused.context.close()

    leaving = next(p for p in _pairings(boss, tid) if len(p.players) == 2).players[1]
    usernames = {p.account.id: p.account.username for p in players if p.account is not None}
    page.get_by_role("button", name=f"Drop {usernames[leaving]}").click()  # entrants by username
    _done(page, "Drop")
    page.locator('button[data-action="repair-round"]').click()  # the drop's forfeit is not a result: re-pair
    _done(page, "Repair round")
    repaired = _tournament(boss, tid)
    # the current round (round 2 when the drop's forfeit and the bye completed round 1 first) has no bye now
    (table,) = [p for p in _pairings(boss, tid) if p.round == repaired.round and len(p.players) == 2]
    assert leaving not in table.players
    page.locator("#adj-pairing").select_option(table.id)
    page.locator("#adj-ranks").fill("1,2")
    page.locator('button[data-action="adjudicate"]').click()
    _done(page, "Adjudicate")
    state = _tournament(boss, tid)
    adjudicated = next(p for p in _pairings(boss, tid) if p.id == table.id)
    assert adjudicated.adjudicated and list(adjudicated.ranks) == [1, 2]
    assert next(e for e in state.entrants if e.player == leaving).dropped
    assert state.status in (pb.TOURNAMENT_STATUS_RUNNING, pb.TOURNAMENT_STATUS_FINISHED)  # the last result may end it

    page.goto(f"{web}#/")
    expect(page.locator("main")).to_contain_text("Console cup", timeout=15_000)
    screenshot(page, "home")
    page.context.close()


def _tournament(boss: Client, tid: str) -> Any:
    return _tcall(boss, "GetTournament", pb.GetTournamentRequest(tournament_id=tid)).tournament


def _pairings(boss: Client, tid: str) -> list[Any]:
    return list(_tcall(boss, "ListPairings", pb.ListPairingsRequest(tournament_id=tid, page_size=500)).pairings)


# ----------------------------------------------------------------------------------------- seed games


SEED_GAMES = ("grimslingers", "grimmoir", "tiny-epic-quest", "grimm-world")


def test_each_seed_game_is_drawn_by_its_own_renderer_on_the_spectator_page(
    platform: Running, web: str, browser: Browser
) -> None:
    """A bots-only public match of each seed game, watched live: the page draws the game's picture (its own
    renderer, not the generic outline) from the streamed spectator view, without a script error."""
    host = platform.player()
    catalog = {g.id: g for g in host.catalog.ListGames(catalog_pb2.ListGamesRequest(), metadata=host.metadata).games}
    page = _page(browser, platform.player())
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for game in SEED_GAMES:
        mode = catalog[game].modes[0]
        request = match_pb2.CreateMatchRequest(
            game=game,
            config=common_pb2.MatchConfig(mode=mode.id, seats=mode.seats[0]),
            seats=[match_pb2.SeatSpec(bot="easy") for _ in range(mode.seats[0])],
            public=True,
        )
        match = host.call("CreateMatch", request).match
        page.goto(f"{web}#/m/{match.id}?delay=0")
        table = page.locator("#table")
        expect(table).not_to_have_attribute("data-version", "", timeout=15_000)
        expect(table.locator(".table-generic")).to_have_count(0)
        expect(table.locator(":scope > *")).to_have_count(1)
        assert not page.locator("#table .notice").count(), f"{game}: the renderer failed on the live view"
        screenshot(page, f"spectator-{game}", full_page=False)
    assert errors == []
    page.context.close()
