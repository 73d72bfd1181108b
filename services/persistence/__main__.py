"""persistence: `python -m gamehall_services.persistence [--migrate-only]`."""

from gamehall_services.persistence.app import main

if __name__ == "__main__":
    main()
