"""gateway: `python -m gamehall_services.gateway`."""

from gamehall_services.gateway.app import main

if __name__ == "__main__":
    main()
