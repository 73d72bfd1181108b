"""The matchmaking service: queues, ratings and tournaments over the pure matchmaking/tournaments libraries."""
