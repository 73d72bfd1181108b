"""The `gamehall` command line (typer + rich)."""
