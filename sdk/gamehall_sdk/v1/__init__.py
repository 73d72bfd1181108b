"""Generated from protos/ by `make proto`; do not edit."""
