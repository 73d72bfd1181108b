"""matchmaking: `python -m gamehall_services.matchmaking` (replicas share state through JetStream KV)."""

from gamehall_services.matchmaking.app import main

if __name__ == "__main__":
    main()
