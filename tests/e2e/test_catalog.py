"""The catalog through the gateway: every game with its modes, flags and JSON Schemas of actions and views."""

from __future__ import annotations

import json

import grpc
import jsonschema
import pytest

from gamehall.engine import get_game
from gamehall_sdk.v1 import catalog_pb2
from tests.e2e.conftest import Running, game_ids


def test_catalog_lists_every_game_with_schemas(platform: Running) -> None:
    player = platform.player()
    games = {g.id: g for g in player.catalog.ListGames(catalog_pb2.ListGamesRequest(), metadata=player.metadata).games}
    assert set(games) == set(game_ids())
    for game in games.values():
        assert game.modes and all(m.seats for m in game.modes)
        actions, views = json.loads(game.action_schema_json), json.loads(game.view_schema_json)
        assert actions and views["type"] == "object" and (views.get("properties") or views.get("anyOf")), game.id
        jsonschema.Draft202012Validator.check_schema(views)
        assert views == get_game(game.id).view_schema(), f"{game.id}: the catalog serves the schema of its view types"


def test_anonymous_visitors_list_the_games_and_a_bad_token_is_still_refused(platform: Running) -> None:
    """Issue 38: the catalogue is public (the home page lists it signed out); a token that is sent must be good."""
    listed = platform.client().catalog.ListGames(catalog_pb2.ListGamesRequest())
    assert {g.id for g in listed.games} >= set(game_ids())
    with pytest.raises(grpc.RpcError) as info:
        platform.client().catalog.ListGames(
            catalog_pb2.ListGamesRequest(), metadata=(("authorization", "Bearer not-a-token"),)
        )
    assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_a_platform_serves_its_first_calls_as_soon_as_it_reports_ready(platform: Running) -> None:
    """Issue 20, finding 3: the first ListGames after `make run` once ran into its deadline for minutes, and the
    first CreateMatch took 21 s. The shared platform made these calls the moment it reported ready."""
    calls = platform.first_calls
    assert [c.what for c in calls][:2] == ["Register", "ListGames"]
    assert {c.what for c in calls} >= {f"CreateMatch {game}" for game in game_ids()}
    failed = [c for c in calls if c.code != grpc.StatusCode.OK]  # each had FIRST_CALL_DEADLINE_SECONDS
    assert not failed, failed
