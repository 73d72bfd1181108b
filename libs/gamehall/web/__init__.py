"""The web pages' server side: the Connect protocol spoken to browsers (connect.py) and the built page assets
(static/, made by `make web` from web/ at the repository root)."""
