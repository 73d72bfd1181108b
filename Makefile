# gamehall: every target sets up what it needs (idempotent, quick when already done).
SHELL := /bin/bash
PY_BOOT ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
BUF_VERSION := 1.75.0
BUF := $(VENV)/buf/node_modules/.bin/buf
PIP := $(PY) -m pip install --quiet --disable-pip-version-check
# pytest: exit code 5 ("no tests collected") is a failure for us, as any other non-zero code.
PYTEST := $(PY) -m pytest
# Two workers (the machine has 2 cores). Tests sharing a costly session fixture (the e2e platform, the
# throwaway PostgreSQL, the rendered charts) stay together on one worker, other server tests with their
# module, unit tests are dealt out one by one (tests/conftest.py: xdist_group); groups are handed out in
# collection order, so the long e2e group starts first and the short unit tests fill the end.
# The 15 slowest tests are still printed at the end (addopts), and any failure still exits non-zero.
PARALLEL := -n 2 --dist loadgroup --no-loadscope-reorder
# The web pages: TypeScript in web/, its API client generated from protos/ (buf + protoc-gen-es), bundled by
# esbuild into the Python package (libs/gamehall/web/static, not committed), so `make run` needs no Node.
WEB_OUT := libs/gamehall/web/static
WEB_STAMP := $(WEB_OUT)/.built
WEB_DEPS := web/node_modules/.installed
WEB_SOURCES := $(shell find web/src web/index.html web/build.mjs web/buf.gen.yaml web/tsconfig.json protos/gamehall/v1 \
	-type f -not -path 'web/src/gen/*' 2>/dev/null)

.PHONY: help setup buf postgres chromium web run test test-fast simulate fuzz proto api-baseline lint bench strength soak chart images clean

help:
	@echo "make run    - set up and run the whole platform on embedded defaults (Ctrl-C stops it)"
	@echo "make web    - build the web pages (npm ci, buf generate, esbuild) into the Python package"
	@echo "make test   - set up and run the whole test suite"
	@echo "make bench  - speed table (ratios to baselines measured in the same run)"
	@echo "make strength - the bots' strength table (sequential tests on paired seeds; exit 1 if a claim fails)"
	@echo "make simulate - the random-simulation tests at full size (make test plays a quarter-sized sample)"
	@echo "make soak   - play while services, a NATS node and PostgreSQL are killed, then every invariant checked"
	@echo "make fuzz   - 10 minutes of drawn messages to every public RPC (FUZZ_SECONDS=..., FUZZ_SEED=random|<n>)"
	@echo "make proto  - regenerate Python code from protos/   make lint - ruff, mypy, buf lint"
	@echo "make chart  - render, lint and validate the Helm chart  make images - container images"

# The SDK (sdk/, the `gamehall-sdk` distribution the server depends on) first, editable in compat mode
# (a .pth entry, so mypy follows it), then the server.
$(STAMP): pyproject.toml sdk/pyproject.toml
	@command -v $(PY_BOOT) >/dev/null || PY_BOOT=python3; test -x $(PY) || $(PY_BOOT) -m venv $(VENV) || python3 -m venv $(VENV)
	@$(PIP) --upgrade pip==25.3
	@$(PIP) -e ./sdk --config-settings editable_mode=compat
	@$(PIP) -e '.[dev]'
	@touch $(STAMP)

setup: $(STAMP)

$(BUF):
	@mkdir -p $(VENV)/buf
	@npm install --silent --no-audit --no-fund --prefix $(VENV)/buf @bufbuild/buf@$(BUF_VERSION)

buf: $(BUF)

postgres:
	@bash deploy/local/ensure-postgres.sh >/dev/null

# Headless Chromium for the web pages' browser tests (Debian's package, installed with apt when missing).
chromium:
	@bash deploy/local/ensure-chromium.sh >/dev/null

$(WEB_DEPS): web/package.json web/package-lock.json
	@npm ci --silent --no-audit --no-fund --prefix web
	@touch $@

$(WEB_STAMP): $(WEB_DEPS) $(WEB_SOURCES)
	@cd web && node_modules/.bin/buf generate && node build.mjs
	@touch $@

web: $(WEB_STAMP)

run: $(STAMP) web
	@$(VENV)/bin/gamehall run

# (`make chart`'s checks run inside the suite: tests/unit/deploy/test_check_chart.py runs them all.)
test: $(STAMP) $(BUF) postgres chromium web
	@$(PYTEST) $(PARALLEL)

test-fast: $(STAMP)
	@$(PYTEST) $(PARALLEL) -m "not integration and not slow" -q

proto: $(STAMP)
	@$(PY) -m gamehall.protogen

# Accept the current protos as the API that later changes must not break (a deliberate, reviewed act).
api-baseline: $(BUF)
	@cd protos && ../$(BUF) build -o api-baseline.binpb && echo "protos/api-baseline.binpb renewed"

lint: $(STAMP) $(BUF) web
	@$(VENV)/bin/ruff check libs services tests deploy sdk
	@mkdir -p .mypy-paths && ln -sfn ../services .mypy-paths/gamehall_services
	@MYPYPATH=libs:.mypy-paths $(VENV)/bin/mypy -p gamehall -p gamehall_services -p gamehall_sdk
	@cd protos && ../$(BUF) lint
	@cd web && node_modules/.bin/tsc --noEmit -p .

bench: $(STAMP)
	@$(PY) -m gamehall.bench

strength: $(STAMP)
	@$(PY) -m gamehall.bench.strength

# The random-simulation tests (marked `slow`) at the counts they were written with (tests/support/sizes.py).
simulate: $(STAMP)
	@GAMEHALL_FULL_SIMULATIONS=1 $(PYTEST) $(PARALLEL) -m slow -p no:cacheprovider -q tests/unit

# The tables soak (60 s, SQLite), then faults at tournament scale (PostgreSQL, a 3-node JetStream cluster,
# 500 concurrent bot matches; about 8 minutes on 2 cores), then the database outages of tests/e2e/test_outages.py
# three times as long (PostgreSQL stopped for 3 minutes, full disks for 90 s), then the owners' clocks at full size
# (200 clocked matches, timeouts within 100 ms on the median). Each exits 1 on any finding.
soak: $(STAMP) postgres
	@$(PY) -m gamehall.bench.soak --faults
	@$(PY) -m gamehall.bench.soak_cluster
	@GAMEHALL_OUTAGE_SCALE=3 $(PYTEST) -n0 -p no:cacheprovider -q -s tests/e2e/test_outages.py
	@GAMEHALL_CLOCK_TEST_FULL=1 $(PYTEST) -n0 -p no:cacheprovider -q -s tests/e2e/test_owner_clocks.py

# The fuzzer of tests/e2e/test_fuzz.py (about 40 s inside `make test`, derandomized), run long with fresh
# random examples each time; a failure prints the call, the role, the message and a @reproduce_failure blob.
FUZZ_SECONDS ?= 600
FUZZ_SEED ?= random
fuzz: $(STAMP)
	@GAMEHALL_FUZZ_SECONDS=$(FUZZ_SECONDS) GAMEHALL_FUZZ_SEED=$(FUZZ_SEED) $(PYTEST) -n0 \
		tests/e2e/test_fuzz.py -q -s

chart: $(STAMP)
	@$(PY) deploy/check_chart.py

images:
	@bash deploy/build-images.sh

clean:
	rm -rf $(VENV) .venv-sdk .venv-sdk-testing .pytest_cache .mypy_cache .ruff_cache var web/node_modules web/src/gen $(WEB_OUT)
