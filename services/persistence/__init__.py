"""persistence: the one writer of durable state, a gRPC shell over gamehall.store plus the outbox relay."""
