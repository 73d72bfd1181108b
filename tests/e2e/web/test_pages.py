"""The web pages as served by the web service (its Content-Security-Policy in force), in a real headless Chromium
against the running platform: every seed game's table live and finished (replay), at a laptop's 1366x768 and a
phone's 390x844. Any console error, page error or CSP violation fails a test, and what is drawn is measured: each
bar's fill is its value's share, Tiny Epic Quest's map cards sit on their rows and columns, Grimm World's
battlefield is a grid, no page overflows sideways on the phone. Screenshots go to var/screenshots/web/."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any, NamedTuple

import grpc
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from gamehall_sdk.v1 import auth_pb2, catalog_pb2, common_pb2, match_pb2
from gamehall_sdk.v1 import matchmaking_pb2 as mm_pb2
from gamehall_sdk.v1 import matchmaking_pb2_grpc as mm_pb2_grpc
from gamehall_sdk.v1 import tournament_pb2 as tpb
from tests.e2e.client import PASSWORD, Client
from tests.e2e.conftest import Running
from tests.e2e.mm_helpers import operator, tournaments, wait_for
from tests.e2e.test_web import _duel, _engine_views, _play_one
from tests.e2e.web_helpers import PHONE, launch, screenshot, signed_in, stream_messages, tap_streams

LAPTOP = {"width": 1366, "height": 768}
SEED_GAMES = ("grimslingers", "grimmoir", "tiny-epic-quest", "grimm-world")
FINISH_SECONDS = 240

CSP_PROBE = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"}`);
});
"""

MEASURE = """
(root) => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; };
  const meters = [...root.querySelectorAll('.gh-meter')].map((m) => {
    const bar = m.querySelector('.gh-meter-bar').getBoundingClientRect();
    const fill = m.querySelector('.gh-meter-fill').getBoundingClientRect();
    return {label: m.getAttribute('aria-label'), value: Number(m.getAttribute('aria-valuenow')),
            max: Number(m.getAttribute('aria-valuemax')), drawn: bar.width ? fill.width / bar.width : -1};
  });
  const cards = [...root.querySelectorAll('.teq-card')].map((c) =>
    ({row: Number(c.dataset.row), col: Number(c.dataset.col), ...box(c)}));
  const grid = root.querySelector('.gw-grid');
  const m = grid && /(\\d+) by (\\d+)/.exec(grid.getAttribute('aria-label'));
  return {
    meters, cards,
    grid: grid ? {cols: Number(m[1]), rows: Number(m[2]), ...box(grid),
                  cells: [...grid.querySelectorAll('.gw-cell')].map(box)} : null,
    pageWidth: document.documentElement.scrollWidth,
    pageHeight: document.documentElement.scrollHeight,
  };
}
"""


class Console:
    """Every console error, page error and CSP violation of a browser context's pages."""

    def __init__(self, context: BrowserContext) -> None:
        self.errors: list[str] = []
        context.add_init_script(CSP_PROBE)
        context.on("page", self.attach)

    def attach(self, page: Page) -> None:
        page.on("console", lambda m: self.note(page, m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.note(page, f"page error {e}"))

    def note(self, page: Page, text: str) -> None:
        if page.url != "about:blank":  # the test's own init script (sessionStorage) on the blank first page
            self.errors.append(f"{page.url}: {text}")

    def assert_clean(self) -> None:
        assert not self.errors, f"{len(self.errors)} console errors: {self.errors[:5]}"


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


def check_drawing(page: Page, what: str, width: int) -> dict[str, Any]:
    """The table as drawn matches the view's numbers and layout; nothing overflows the viewport sideways."""
    got: dict[str, Any] = page.locator("#table").evaluate(MEASURE)
    assert got["pageWidth"] <= width, f"{what}: the page is {got['pageWidth']} px wide in a {width} px viewport"
    for m in got["meters"]:
        want = m["value"] / m["max"] if m["max"] else 0
        assert abs(m["drawn"] - want) < 0.02, f"{what}: bar {m['label']!r} drawn {m['drawn']:.2f} of its width"
    for a in got["cards"]:
        for b in got["cards"]:
            if a["row"] < b["row"]:
                assert a["y"] + a["h"] <= b["y"] + 1, f"{what}: map card row {a['row']} not above row {b['row']}"
            if a["col"] < b["col"]:
                assert a["x"] + a["w"] <= b["x"] + 1, f"{what}: map card column {a['col']} not left of {b['col']}"
    grid = got["grid"]
    if grid is not None:
        cols, cells = grid["cols"], grid["cells"]
        assert len(cells) == cols * grid["rows"]
        for i, c in enumerate(cells):
            assert abs(c["y"] - cells[(i // cols) * cols]["y"]) <= 1, f"{what}: cell {i} off its row"
            assert abs(c["x"] - cells[i % cols]["x"]) <= 1, f"{what}: cell {i} off its column"
        assert grid["h"] <= grid["w"] * grid["rows"] / cols + 8, f"{what}: battlefield {grid['h']} px tall"
    assert got["pageHeight"] < 8000, f"{what}: the page is {got['pageHeight']} px tall"
    return got


def _bots_match(platform: Running, host: Client, game: str) -> str:
    catalog = {g.id: g for g in host.catalog.ListGames(catalog_pb2.ListGamesRequest(), metadata=host.metadata).games}
    mode = catalog[game].modes[0]
    request = match_pb2.CreateMatchRequest(
        game=game,
        config=common_pb2.MatchConfig(mode=mode.id, seats=mode.seats[0]),
        seats=[match_pb2.SeatSpec(bot="easy") for _ in range(mode.seats[0])],
        public=True,
    )
    return str(host.call("CreateMatch", request).match.id)


@pytest.mark.parametrize("game", SEED_GAMES)
def test_a_game_live_and_finished_is_drawn_right_without_console_errors(
    platform: Running, web: str, browser: Browser, game: str
) -> None:
    """A bots-only public match, watched live then replayed once over, at laptop and phone sizes."""
    host = platform.player()
    match_id = _bots_match(platform, host, game)
    viewer = platform.player()
    context = signed_in(browser, viewer.token, _account(viewer))
    console = Console(context)
    page = context.new_page()
    page.set_viewport_size(LAPTOP)
    page.goto(f"{web}#/m/{match_id}?delay=0")
    table = page.locator("#table")
    expect(table).not_to_have_attribute("data-version", "", timeout=15_000)
    expect(table.locator(f'[data-renderer="{game}"]')).to_have_count(1)
    check_drawing(page, f"{game} live", LAPTOP["width"])
    screenshot(page, f"live-{game}", full_page=False)
    page.set_viewport_size(PHONE)
    check_drawing(page, f"{game} live on a phone", PHONE["width"])
    screenshot(page, f"live-{game}-phone", full_page=False)
    console.assert_clean()

    deadline = time.monotonic() + FINISH_SECONDS
    while host.match(match_id).status != match_pb2.MATCH_STATUS_FINISHED:
        if time.monotonic() > deadline:
            pytest.fail(f"{game}: the bots' match did not finish in {FINISH_SECONDS} s")
        time.sleep(1)
    expect(page.locator("#outcome-title")).to_be_visible(timeout=30_000)
    page.set_viewport_size(LAPTOP)
    page.goto(f"{web}#/r/{match_id}")
    expect(page.locator("#step-label")).to_be_visible(timeout=15_000)
    expect(table.locator(f'[data-renderer="{game}"]')).to_have_count(1)
    check_drawing(page, f"{game} replay", LAPTOP["width"])
    screenshot(page, f"replay-{game}", full_page=False)
    page.set_viewport_size(PHONE)
    check_drawing(page, f"{game} replay on a phone", PHONE["width"])
    screenshot(page, f"replay-{game}-phone", full_page=False)
    console.assert_clean()
    context.close()


def test_people_are_shown_by_name_and_seats_count_from_one(platform: Running, web: str, browser: Browser) -> None:
    """A person's seat shows their username in the page's header and in the table picture (not "Seat 1" or
    "Player 1"); the event list numbers seats from 1 with the player's name, as the header does."""
    host = platform.player()
    assert host.account is not None
    request = match_pb2.CreateMatchRequest(
        game="grimmoir",
        config=common_pb2.MatchConfig(mode="duel", seats=2),
        seats=[match_pb2.SeatSpec(open=True), match_pb2.SeatSpec(bot="easy")],
        public=True,
        join_seat=0,
    )
    match_id = host.call("CreateMatch", request).match.id
    got = host.match(match_id)
    assert got.seats[0].username == host.account.username, "the gateway does not name the seated person"
    viewer = platform.player()
    context = signed_in(browser, viewer.token, _account(viewer))
    console = Console(context)
    page = context.new_page()
    page.set_viewport_size(LAPTOP)
    page.goto(f"{web}#/m/{match_id}?delay=0")
    table = page.locator("#table")
    expect(table).not_to_have_attribute("data-version", "", timeout=15_000)
    expect(page.locator("ul.seats")).to_contain_text(f"Seat 1 {host.account.username}")
    expect(table).to_contain_text(host.account.username)
    for text in page.locator("#events li").all_text_contents():
        assert not re.search(r"\bSeat: \d", text), f"a raw 0-based seat in the event list: {text}"
    screenshot(page, "names-grimmoir", full_page=False)
    console.assert_clean()
    context.close()


class FinishedTournament(NamedTuple):
    boss: Any
    tid: str
    context: BrowserContext
    console: Console
    page: Page


def _finished_bot_tournament(
    platform: Running, web: str, browser: Browser, name: str, format: int
) -> FinishedTournament:
    """Four random bots play a high-card tournament of `format` to its end, followed on its page by a signed-in
    player at laptop width: its operator and id, the player's context, console and page once it says "Final
    standings"."""
    boss = operator(platform)

    def call(method: str, request: Any) -> Any:
        return getattr(tournaments(boss), method)(request, metadata=boss.metadata, timeout=20)

    request = tpb.CreateTournamentRequest(name=name, game="high-card", format=format)
    tid = call("CreateTournament", request).tournament.id
    for _ in range(4):
        call("RegisterPlayer", tpb.RegisterPlayerRequest(tournament_id=tid, bot="random"))
    call("StartTournament", tpb.StartTournamentRequest(tournament_id=tid))
    viewer = platform.player()
    context = signed_in(browser, viewer.token, _account(viewer))
    console = Console(context)
    page = context.new_page()
    page.set_viewport_size(LAPTOP)
    page.goto(f"{web}#/t/{tid}")
    expect(page.locator("#live-status")).to_contain_text("Final standings", timeout=90_000)
    return FinishedTournament(boss, tid, context, console, page)


def test_round_robin_standings_and_the_console_of_a_finished_tournament(
    platform: Running, web: str, browser: Browser
) -> None:
    """A round robin of four bots (its tie-breaks end with the win count): every standings column has its own
    name, the page and the home page have no console error, and it fits a phone; once it is finished, the
    operator console's buttons are all disabled."""
    boss, tid, context, console, page = _finished_bot_tournament(
        platform, web, browser, "Web round robin", tpb.TOURNAMENT_FORMAT_ROUND_ROBIN
    )
    headers = page.eval_on_selector_all("table.standings thead th", "ths => ths.map(t => t.textContent.trim())")
    assert len(headers) == len(set(headers)), f"a standings column named twice: {headers}"
    assert "Wins without byes" in headers and "Wins" in headers
    screenshot(page, "tournament-round-robin")
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the tournament page is {width} px wide on a phone"
    screenshot(page, "tournament-round-robin-phone")
    page.set_viewport_size(LAPTOP)
    page.goto(f"{web}#/")
    expect(page.get_by_role("link", name="Web round robin").first).to_be_visible(timeout=15_000)
    console.assert_clean()
    context.close()

    # the operator's console follows the tournament's state: nothing to press on a finished tournament
    desk = signed_in(browser, boss.token, _account(boss))
    desk_console = Console(desk)
    page = desk.new_page()
    page.set_viewport_size(LAPTOP)
    page.goto(f"{web}#/console/{tid}")
    expect(page.locator("#manage-status")).to_have_attribute("data-status", "finished", timeout=15_000)
    buttons = page.locator("#manage-panel button")
    assert buttons.count() >= 4
    for i in range(buttons.count()):
        expect(buttons.nth(i)).to_be_disabled()
    screenshot(page, "console-finished")
    desk_console.assert_clean()
    desk.close()


def test_a_signed_out_token_is_refused_everywhere(platform: Running, web: str, browser: Browser) -> None:
    """Sign in through the login page, press Sign out: the token the tab held is refused afterwards by the gateway
    (gRPC) and by the web bridge, and the sign-out is in the audit log; a second session of the account is not."""
    person = platform.player()
    assert person.account is not None
    other_session = platform.client()
    other_session.token = person.auth.Login(
        auth_pb2.LoginRequest(username=person.account.username, password=PASSWORD), timeout=20
    ).token
    context = signed_in(browser)
    console = Console(context)
    page = context.new_page()
    page.goto(f"{web}#/login?next=%23%2F")
    page.locator("#login-username").fill(person.account.username)
    page.locator("#login-password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    sign_out = page.get_by_role("button", name="Sign out")
    expect(sign_out).to_be_visible(timeout=15_000)
    token = page.evaluate("sessionStorage.getItem('gamehall.token')")
    assert token
    sign_out.click()
    expect(page.get_by_role("link", name="Sign in")).to_be_visible(timeout=15_000)
    assert page.evaluate("sessionStorage.getItem('gamehall.token')") is None
    with pytest.raises(grpc.RpcError) as refused:
        person.auth.WhoAmI(auth_pb2.WhoAmIRequest(), metadata=(("authorization", f"Bearer {token}"),), timeout=20)
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert "signed out" in (refused.value.details() or "")
    bridged = page.request.post(
        f"{web}gamehall.v1.AuthService/WhoAmI",
        data="{}",
        headers={"content-type": "application/json", "authorization": f"Bearer {token}"},
    )
    assert bridged.status == 401, bridged.text()
    still = other_session.auth.WhoAmI(auth_pb2.WhoAmIRequest(), metadata=other_session.metadata, timeout=20)
    assert still.account.username == person.account.username
    console.assert_clean()
    context.close()


def test_an_anonymous_visitor_follows_a_public_match_to_its_end_and_sees_no_hidden_information(
    platform: Running, web: str, browser: Browser
) -> None:
    """No sign-in: the home page lists the public match, the match page follows it live to its result, every view
    the page received (its WatchMatch network payloads) is exactly the engine's spectator view at that version, and
    the replay opens; a Swiss tournament's page follows it live to its final standings; a private match stays
    closed to the anonymous visitor. No console error anywhere."""
    first, second, match_id = _duel(platform)
    context = signed_in(browser)  # no token
    console = Console(context)
    page = context.new_page()
    page.set_viewport_size(LAPTOP)
    streams = tap_streams(page, "/gamehall.v1.MatchService/WatchMatch")
    page.goto(f"{web}#/")
    expect(page.get_by_role("link", name=f"Watch match {match_id[:8]}")).to_be_visible(timeout=15_000)
    page.goto(f"{web}#/m/{match_id}?delay=0")
    table = page.locator("#table")
    expect(table).to_have_attribute("data-version", "0", timeout=15_000)
    for turn in range(10):
        _play_one(first if turn % 2 == 0 else second, match_id)
    expect(page.locator("#outcome")).to_contain_text("Result", timeout=15_000)
    expect(table).to_have_attribute("data-version", "10")
    screenshot(page, "anonymous-spectator", full_page=False)
    views = _engine_views(first.match(match_id), first.replay(match_id))
    received = 0
    for body in streams():
        messages, _ = stream_messages(body, match_pb2.WatchMatchResponse)
        for message in messages:
            assert not message.HasField("seat")
            assert json.loads(message.view_json) == views[message.version], f"version {message.version} differs"
            assert all(not e.audience for e in message.events), "a seat's private event reached an anonymous visitor"
            received += 1
    assert received >= 10
    page.goto(f"{web}#/r/{match_id}")
    expect(page.locator("#step-label")).to_contain_text("Step 10 of 10", timeout=15_000)

    # a public tournament's page, live to its final standings, without signing in
    boss = operator(platform)
    request = tpb.CreateTournamentRequest(
        name="Open to all", game="high-card", format=tpb.TOURNAMENT_FORMAT_SWISS, rounds=2
    )
    tid = tournaments(boss).CreateTournament(request, metadata=boss.metadata, timeout=20).tournament.id
    for _ in range(4):
        tournaments(boss).RegisterPlayer(
            tpb.RegisterPlayerRequest(tournament_id=tid, bot="random"), metadata=boss.metadata, timeout=20
        )
    page.goto(f"{web}#/")
    expect(page.get_by_role("link", name="Open to all")).to_be_visible(timeout=15_000)
    page.goto(f"{web}#/t/{tid}")
    expect(page.locator("table.standings")).to_be_visible(timeout=15_000)
    countdown = page.locator("#countdown")
    expect(countdown).to_contain_text("Registration closes in 6 d", timeout=15_000)  # a week after it opened
    before = countdown.inner_text()
    expect(countdown).not_to_have_text(before, timeout=3_000)  # it ticks
    tournaments(boss).StartTournament(tpb.StartTournamentRequest(tournament_id=tid), metadata=boss.metadata, timeout=20)
    expect(page.locator("#live-status")).to_contain_text("Final standings", timeout=90_000)
    expect(page.locator("table.standings tbody tr")).to_have_count(4)
    screenshot(page, "anonymous-tournament", full_page=False)
    console.assert_clean()

    private = first.create("high-card", "duel", 2, public=False, join_seat=0).id
    with pytest.raises(grpc.RpcError) as refused:
        platform.client().matches.GetMatch(match_pb2.GetMatchRequest(match_id=private), timeout=20)
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    context.close()


def test_an_elimination_tournament_is_drawn_as_a_bracket(platform: Running, web: str, browser: Browser) -> None:
    """Four bots, single elimination: round 1's two tables on the left, the final to their right, level with the
    middle between them (where the bracket's lines meet); no console error."""
    _, _, context, console, page = _finished_bot_tournament(
        platform, web, browser, "Web knockout", tpb.TOURNAMENT_FORMAT_SINGLE_ELIMINATION
    )
    semis = page.locator('.bracket-match[data-round="1"]')
    final = page.locator('.bracket-match[data-round="2"]')
    expect(semis).to_have_count(2)
    expect(final).to_be_visible()
    # One reading of all three boxes in the page: a standings push may redraw the bracket between two reads.
    a, b, f = page.evaluate(
        """() => [...document.querySelectorAll('.bracket-match[data-round="1"]'),
                  document.querySelector('.bracket-match[data-round="2"]')]
                 .map(e => e.getBoundingClientRect())
                 .map(r => ({x: r.x, y: r.y, width: r.width, height: r.height}))"""
    )
    assert a["width"] > 0 and b["width"] > 0 and f["width"] > 0, f"a bracket match is not drawn: {a} {b} {f}"
    middle = lambda box: box["y"] + box["height"] / 2  # noqa: E731
    assert f["x"] > a["x"] + a["width"], "the final is not to the right of round 1"
    assert abs(middle(f) - (middle(a) + middle(b)) / 2) < 12, f"the final is not level with its pair: {a} {b} {f}"
    screenshot(page, "bracket-drawn")
    console.assert_clean()
    context.close()


def test_a_leaderboard_by_name_a_page_at_a_time_without_signing_in(
    platform: Running, web: str, browser: Browser
) -> None:
    """Two people finish a rated duel: the leaderboard of that game and mode lists players by username (as the
    API's entries, read without a token, say), one page at a time (Next, Previous); no console error."""
    first, second, match_id = _duel(platform)
    for turn in range(10):
        _play_one(first if turn % 2 == 0 else second, match_id)
    anonymous = mm_pb2_grpc.MatchmakingServiceStub(platform.client().channel)

    def board() -> Any:
        reply = anonymous.GetLeaderboard(mm_pb2.GetLeaderboardRequest(game="high-card", mode="duel"), timeout=20)
        ids = {e.account_id for e in reply.entries}
        return reply if {first.account.id, second.account.id} <= ids else None  # type: ignore[union-attr]

    entries = wait_for(board, timeout=60, what="both players on the leaderboard").entries
    assert all(e.username for e in entries), "a leaderboard entry without its player's name"
    context = signed_in(browser)
    console = Console(context)
    page = context.new_page()
    page.set_viewport_size(LAPTOP)
    page.goto(f"{web}#/leaderboard/high-card/duel?size=1")
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows).to_have_count(1, timeout=15_000)
    expect(rows.first).to_contain_text(entries[0].username)
    page.get_by_role("button", name="Next page").click()
    expect(rows.first).to_contain_text(entries[1].username)
    expect(rows.first.locator("td").first).to_have_text("2")
    page.get_by_role("button", name="Previous page").click()
    expect(rows.first.locator("td").first).to_have_text("1")
    screenshot(page, "leaderboard", full_page=False)
    console.assert_clean()
    context.close()


def test_the_operator_adds_a_player_by_username(platform: Running, web: str, browser: Browser) -> None:
    """The console's Register player takes a username (in any case); the entrant appears by name; an unknown name is
    refused on screen with NOT_FOUND; no console error but that refusal's failed request."""
    boss = operator(platform)
    person = platform.player()
    assert person.account is not None
    request = tpb.CreateTournamentRequest(name="By name", game="high-card", format=tpb.TOURNAMENT_FORMAT_SWISS)
    tid = tournaments(boss).CreateTournament(request, metadata=boss.metadata, timeout=20).tournament.id
    desk = signed_in(browser, boss.token, _account(boss))
    console = Console(desk)
    page = desk.new_page()
    page.set_viewport_size(LAPTOP)
    page.goto(f"{web}#/console/{tid}")
    expect(page.locator("#manage-status")).to_have_attribute("data-status", "registration", timeout=15_000)
    page.locator("#entrant-account").fill(person.account.username.upper())
    page.get_by_role("button", name="Register player").click()
    expect(page.locator("#console-result")).to_contain_text("Register player: done", timeout=15_000)
    expect(page.get_by_role("table", name=re.compile("Entrants"))).to_contain_text(person.account.username)
    page.locator("#entrant-account").fill("nobody-by-this-name")
    page.get_by_role("button", name="Register player").click()
    expect(page.locator("#console-result")).to_contain_text("NOT_FOUND", timeout=15_000)
    assert all("404" in e or "status of" in e for e in console.errors), console.errors  # the refused call only
    desk.close()
