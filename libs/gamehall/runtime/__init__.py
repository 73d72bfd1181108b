"""The shared service runtime: settings, logging, metrics, the gRPC harness and the NATS bus."""
