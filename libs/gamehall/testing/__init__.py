"""Small games and servers shared by tests, benchmarks and `make strength` (so `gamehall.bench` never imports tests).

- `high_card`: a two-seat game of simultaneous secret choices (the cheapest full platform match);
- `dice_nim`: a sequential game with chance where skill clearly matters (the bots' strength ladder);
- `postgres`: a throwaway PostgreSQL server (Docker, local binaries, or one named by the environment).
"""
