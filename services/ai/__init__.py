"""The ai service: bot workers that take their turns from the JetStream work queue."""
