#!/usr/bin/env bash
# Build the gamehall image (one image for every service) where a Docker engine answers.
# Detects the engine by pinging the daemon, not by finding the client binary.
set -euo pipefail
cd "$(dirname "$0")/.."
TAG="${GAMEHALL_IMAGE:-gamehall:dev}"
if ! command -v docker >/dev/null 2>&1 || ! docker info >/dev/null 2>&1; then
    echo "make images: no Docker engine answers on this machine (docker info failed); nothing was built." >&2
    echo "The containerised tests fall back to local processes; on a machine with Docker run: make images" >&2
    exit 0
fi
docker build -f deploy/Dockerfile -t "$TAG" .
echo "built $TAG"
