"""A bare service (harness + diagnostics echo) for the echo baseline."""

from gamehall.runtime.service import ServiceApp
from gamehall.runtime.settings import Settings

if __name__ == "__main__":
    ServiceApp(Settings()).main()
