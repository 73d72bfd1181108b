"""matchmaking: `python -m gamehall_services.matchmaking` (stateless: replicas share state through persistence)."""

from gamehall_services.matchmaking.app import main

if __name__ == "__main__":
    main()
