"""Issue 40, item 20: `gamehall play` draws every game's table with rich (one module per game,
`gamehall.cli.render_<game>`), after the web renderers. Each test renders a real view of a real match
played mid-game by seeded random moves, and checks what is drawn where: names and numbers from the view
in the panel they belong to, and no raw JSON."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from rich.console import Console, RenderableType

from gamehall.cli.play_render import RENDERERS, render_view, table_renderer
from gamehall.cli.render_common import content
from gamehall.engine import Game, all_games, get_game
from gamehall_sdk import View


def text_of(renderable: RenderableType, width: int = 140) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    output = console.file.getvalue()
    assert isinstance(output, str)
    return output


def panel_of(output: str, title: str) -> str:
    """The box titled `title` (from its top border to its bottom border, cut out of the boxes around it)."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if f"╭─ {title}" in line)
    column = lines[start].index(f"╭─ {title}")
    width = lines[start].index("╮", column) + 1 - column
    end = next(i for i in range(start + 1, len(lines)) if lines[i][column : column + 1] == "╰")
    return "\n".join(line[column : column + width] for line in lines[start : end + 1])


def flat(box: str) -> str:
    """A box's text as one line: borders dropped, wrapped lines joined."""
    return " ".join(box.replace("│", " ").split())


def mid_game(
    game_id: str, mode: str, seats: int, *, seed: int, until: Any, options: dict[str, Any] | None = None
) -> tuple[Game[Any], Any, int]:
    """A match played by seeded random moves until `until(view)` holds for the seat to act (at most 3000 steps)."""
    game = get_game(game_id)
    state = game.new_match(game.configure(mode, seats, options), seed)
    rng = random.Random(seed)
    for _ in range(3000):
        acting = sorted(game.to_act(state))
        assert acting, f"{game_id} {mode}: the match ended before the wanted moment"
        if until(game.view(state, acting[0])):
            return game, state, acting[0]
        state, _ = game.apply(state, acting[0], rng.choice(list(game.legal_actions(state, acting[0]))), trusted=True)
    raise AssertionError(f"{game_id} {mode}: the wanted moment never came")


def drawn(game: Game[Any], state: Any, seat: int) -> tuple[dict[str, Any], str]:
    data = json.loads(json.dumps(game.view(state, seat)))  # as it crosses the wire
    view = View(version=7, seat=seat, data=data, to_act=tuple(sorted(game.to_act(state))), outcome=None)
    output = text_of(render_view(view, game=game.id))
    assert "seat " in output and "v7" in output  # the panel title is kept
    assert '": ' not in output and "{" not in output and "}" not in output  # no raw JSON
    return data, output


FIXTURE_GAMES = {"high-card", "dice-nim"}


def test_item_20_every_registered_game_has_a_table_renderer() -> None:
    for game in all_games():
        if game.id in FIXTURE_GAMES:  # the tests' own games (GAMEHALL_GAME_MODULES in the suite's environment)
            continue
        assert game.id in RENDERERS, f"{game.id} has no terminal renderer"
        assert table_renderer(game.id) is not None
    assert table_renderer("high-card") is None  # a game without one keeps the field-by-field view


def test_item_20_grimm_world_campaign_draws_the_region_and_encounter_bar() -> None:
    game, state, seat = mid_game(
        "grimm-world", "campaign", 1, seed=5, until=lambda v: v["journey"] and len(v["journey"]["regions"]) >= 2
    )
    view, output = drawn(game, state, seat)
    journey = panel_of(output, "Journey")
    pages = {c["key"]: c["name"] for c in content("grimm_world", "lost_pages")["cards"]}
    regions = {r["key"]: r for r in content("grimm_world", "campaign")["regions"]}
    for key in view["journey"]["bar"]:
        assert f"{pages[key]} ({key})" in flat(journey)  # every card of the Encounter Bar by name
    for digit, key in view["journey"]["regions"].items():
        assert f"Region {digit}: {regions[key]['name']}" in journey  # every Region Card in play
    here = view["here"]
    assert f"@ {here['name']} ({here['number']})" in journey  # Martha's location marked on the map
    martha = panel_of(output, "Martha")
    assert f"Thalers {view['sheet']['thalers']}" in martha
    actions = {c["key"]: c["name"] for c in content("grimm_world", "action_cards")["cards"]}
    for key in view["sheet"]["hand"]:
        assert f"{actions[key]} ({key})" in martha
    assert "Battlefield" not in output  # no fight going on


def test_item_20_grimm_world_fight_draws_the_battlefield_grid() -> None:
    game, state, seat = mid_game("grimm-world", "skirmish", 1, seed=3, until=lambda v: v["fight"]["round"] >= 2)
    view, output = drawn(game, state, seat)
    grid = panel_of(output, "Battlefield").splitlines()
    board, martha = view["board"], view["martha"]
    assert len(grid) == board["height"] + 4  # borders, column numbers, one line per row of spaces, legend
    row = grid[2 + martha["y"]]
    assert row.split("│")[1].split()[0] == str(martha["y"]) and "M" in row  # Martha in her row
    foes = view["fight"]["foes"]
    for enemy, foe in zip(view["enemies"], foes, strict=True):
        if foe[3] > 0:
            assert f"{enemy['name'][0]}{foe[3]}" in grid[2 + enemy["y"]]  # initial and HP, in the enemy's row
    enemies = panel_of(output, "Enemies")
    for enemy, foe in zip(view["enemies"], foes, strict=True):
        assert enemy["name"] in enemies and f"{foe[3]}/{enemy['card']['constitution']}" in enemies
    assert "Journey" not in output


def test_item_20_grimslingers_duel_shows_own_hand_and_only_counts_of_others() -> None:
    game, state, me = mid_game("grimslingers", "versus-1v1", 2, seed=4, until=lambda v: v["turn"] >= 2 and v["hand"])
    view, output = drawn(game, state, me)
    mine = panel_of(output, f"Grimslinger {me + 1} (you)")
    other = 1 - me
    theirs = panel_of(output, f"Grimslinger {other + 1}")
    me_p, them_p = view["players"][me], view["players"][other]
    assert "HP" in mine and f"{me_p['hp']}/{me_p['max_hp']}" in mine and f"{me_p['ep']}/{me_p['max_ep']}" in mine
    for key in view["hand"]:
        assert key.title() in mine or key in mine  # element names as printed (FIRE -> Fire), signatures by name
    hand_line = next(line for line in theirs.splitlines() if "Hand" in line)
    assert f"{them_p['hand_size']} cards" in hand_line or (them_p["hand_size"] == 0 and "none" in hand_line)
    assert "On the table" in output


def test_item_20_grimslingers_tall_tale_draws_the_map_and_the_posse() -> None:
    game, state, seat = mid_game(
        "grimslingers",
        "tall-tale",
        2,
        seed=2,
        until=lambda v: v.get("tale") and v["tale"]["turn"] >= 2,
        options={"difficulty": "easy"},
    )
    view, output = drawn(game, state, seat)
    tale = panel_of(output, "Tall Tale")
    nodes = {n["key"]: n["name"] for n in content("grimslingers", "tall_tale")["map"]["nodes"]}
    assert f"@ {nodes[view['tale']['node']]}" in tale  # the posse's node on the trail
    for link in view["tale"]["links"]:
        assert f"→ {nodes[link]}" in tale  # where a path leads
    assert f"Defeats left {view['tale']['defeats_left']}" in tale
    assert "Grimslinger 1: level" in tale and "Grimslinger 2: level" in tale


def test_item_20_grimslingers_witch_king_has_the_creature_panel() -> None:
    game, state, seat = mid_game(
        "grimslingers", "witch-king", 2, seed=1, until=lambda v: v["turn"] >= 2, options={"difficulty": "hard"}
    )
    view, output = drawn(game, state, seat)
    creature = view["players"][view["creature"]["seat"]]
    box = panel_of(output, "Creature: Witch King")
    assert f"{creature['hp']}/{creature['max_hp']}" in box and f"{creature['hand_size']} cards" in box
    assert "Difficulty: Hard" in output


def test_item_20_grimmoir_draws_both_formations() -> None:
    game, state, seat = mid_game(
        "grimmoir", "duel", 2, seed=3, until=lambda v: v["phase"] == "battle" and v["round"] >= 2
    )
    view, output = drawn(game, state, seat)
    names = {c["id"]: c for c in content("grimmoir", "characters")["characters"]}
    field = panel_of(output, "Battlefield")
    lines = field.splitlines()
    for side, slots in enumerate(view["board"]):
        for index, unit in enumerate(slots):
            if unit is None:
                continue
            card = names[unit["character"]]
            row = "front" if index < 3 else "back"
            # the unit's name sits on the line of its side's row label, its strength left on the next
            at = next(i for i, line in enumerate(lines) if f"Player {side + 1}" in line and card["name"] in line)
            assert row in lines[at + 1]
            assert f"♥{max(0, card['strength'] - unit['wounds'])}/{card['strength']}" in lines[at + 1]
    for side in (0, 1):
        box = panel_of(output, f"Player {side + 1}")
        assert f"Coins {view['coins'][side]}" in box
        for fallen in view["fallen"][side]:
            assert names[fallen]["name"] in box


def test_item_20_tiny_epic_quest_draws_the_kingdom() -> None:
    game, state, seat = mid_game("tiny-epic-quest", "standard", 2, seed=3, until=lambda v: v["round"] >= 2)
    view, output = drawn(game, state, seat)
    kingdom = panel_of(output, "The kingdom")
    for colour in ("Red", "Blue", "Green", "Yellow"):
        assert f"{colour} castle" in kingdom  # the four castles of the Bright side
    colours = [p["color"] for p in content("tiny_epic_quest", "players")]
    for hero in range(len(view["hslot"])):
        token = f"{colours[view['color'][hero // 3]][0].upper()}{hero % 3 + 1}"
        assert token in kingdom  # every hero on the map
    quests = content("tiny_epic_quest", "quests")
    middle = flat(panel_of(output, "Quests, movement and dice"))
    for q in view["row"]:
        assert quests[q]["title"] in middle
    for p in range(2):
        box = panel_of(output, f"{colours[view['color'][p]].title()} (player {p + 1})")
        assert f"VP {view['victory_points'][p]}" in box and f"{view['health'][p]}/{view['max_health'][p]}" in box


@pytest.mark.parametrize("game_id", sorted(RENDERERS))
def test_item_20_the_first_view_of_every_mode_draws(game_id: str) -> None:
    """Every mode's opening view (and the spectator's) draws without raising and without raw JSON."""
    game = get_game(game_id)
    for mode in game.modes:
        state = game.new_match(game.configure(mode.id, mode.seats[-1]), 1)
        for seat in (min(game.to_act(state)), None):
            output = text_of(table_renderer(game_id)(json.loads(json.dumps(game.view(state, seat)))))  # type: ignore[misc]
            assert "{" not in output and '": ' not in output
