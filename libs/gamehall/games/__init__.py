"""The games gamehall hosts, each a package registering one `Game` (entry point group gamehall.games)."""
