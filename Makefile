# gamehall: every target sets up what it needs (idempotent, quick when already done).
SHELL := /bin/bash
PY_BOOT ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
BUF_VERSION := 1.75.0
BUF := $(VENV)/buf/node_modules/.bin/buf

.PHONY: run test proto proto-check lint bench setup buf services-deps clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PY_BOOT) -m venv $(VENV) || python3 -m venv $(VENV)
	@$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip==25.3
	@$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $(STAMP)

setup: $(STAMP)

$(BUF):
	@mkdir -p $(VENV)/buf
	@npm install --silent --no-audit --no-fund --prefix $(VENV)/buf @bufbuild/buf@$(BUF_VERSION)

buf: $(BUF)

services-deps: $(STAMP)
	@bash deploy/local/ensure-postgres.sh

run: $(STAMP)
	@$(VENV)/bin/gamehall run

proto: $(STAMP)
	@$(PY) -m gamehall.protogen

lint: $(STAMP) $(BUF)
	@$(VENV)/bin/ruff check libs services tests
	@$(VENV)/bin/mypy libs/gamehall
	@cd protos && ../$(BUF) lint

test: $(STAMP) $(BUF)
	@BUF=$(abspath $(BUF)) $(PY) -m pytest

bench: $(STAMP)
	@$(PY) -m gamehall.bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
