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


def test_catalog_needs_a_token(platform: Running) -> None:
    with pytest.raises(grpc.RpcError) as info:
        platform.client().catalog.ListGames(catalog_pb2.ListGamesRequest())
    assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
