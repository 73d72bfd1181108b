"""Shared fixtures of the Grimm World tests."""

from .builders import draws

__all__ = ["draws"]
