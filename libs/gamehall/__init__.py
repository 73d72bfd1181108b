"""gamehall: pure libraries (engines, bots, pairing, runtime) the services are thin shells over."""

__version__ = "0.1.0"
