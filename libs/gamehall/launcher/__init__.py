"""Start the platform as local processes: nats-server, every service, ready checks, clean stop."""
