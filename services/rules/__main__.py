"""rules-<game>: `python -m gamehall_services.rules --game grimmoir` (or GAMEHALL_GAME)."""

from gamehall_services.rules.app import build_app, parse_args

if __name__ == "__main__":
    build_app(parse_args()).main()
