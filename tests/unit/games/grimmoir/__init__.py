"""Tests of the GrimmoiR engine (gamehall.games.grimmoir)."""
