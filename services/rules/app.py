"""Assemble a rules host: the harness plus the RulesService of the chosen game."""

from __future__ import annotations

import argparse
import os

from gamehall.engine import get_game
from gamehall.internal.v1 import rules_pb2, rules_pb2_grpc
from gamehall.runtime.service import ServiceApp
from gamehall.runtime.settings import Settings
from gamehall_services.rules.servicer import RulesServicer

SERVICE_NAME = rules_pb2.DESCRIPTOR.services_by_name["RulesService"].full_name


def parse_args(argv: list[str] | None = None) -> Settings:
    parser = argparse.ArgumentParser(prog="python -m gamehall_services.rules", description=__doc__)
    parser.add_argument("--game", default=os.environ.get("GAMEHALL_GAME", ""), help="id of the game to serve")
    args = parser.parse_args(argv)
    if not args.game:
        parser.error("--game (or GAMEHALL_GAME) is required")
    overrides = {"game": args.game}
    if "GAMEHALL_SERVICE" not in os.environ:
        overrides["service"] = f"rules-{args.game}"
    return Settings(**overrides)


def build_app(settings: Settings) -> ServiceApp:
    game = get_game(settings.game)
    app = ServiceApp(settings)
    app.add_servicer(rules_pb2_grpc.add_RulesServiceServicer_to_server, RulesServicer(game), SERVICE_NAME)
    return app
