"""ai: `python -m gamehall_services.ai` (scale out by running more replicas)."""

from gamehall_services.ai.app import main

if __name__ == "__main__":
    main()
