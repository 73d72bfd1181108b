"""web: `python -m gamehall_services.web`."""

from gamehall_services.web.app import main

if __name__ == "__main__":
    main()
