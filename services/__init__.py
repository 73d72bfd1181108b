"""gamehall services: thin gRPC shells over the libraries in libs/ (one package per service)."""
