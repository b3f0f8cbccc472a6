# A quick development loop (CONTRIBUTING.md). Run it inside a virtualenv:
# `make dev` installs the extension into the active one.
.PHONY: dev release lint fix test test-quick test-rs test-py bench docs-tables

PYTHON ?= python

# A build of the dev profile (opt-level 2, debug assertions, no LTO) into
# the active virtualenv: quick to rebuild after an edit. Speed figures and
# benches want `make release`.
dev:
	maturin develop

# An optimised build, the one the benches and the speed figures use.
release:
	maturin develop --release

# Every check CI runs that is not a test, in CI's order.
lint:
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	ruff check .
	ruff format --check .
	$(PYTHON) -m mypy.stubtest ddz._ddz
	$(PYTHON) -m mypy python/ddz

# Rewrite what the linters can: Rust and Python formatting, ruff's fixes.
fix:
	cargo fmt
	ruff check --fix .
	ruff format .

# Exactly what CI runs: it installs the package with its extras (a release
# build), then the linters, `cargo test` and `pytest`.
test:
	.ci/run

# The quick loop (CONTRIBUTING.md): a dev build, the core's unit tests and
# its fastest integration suites, then the Python suites that pin counts,
# records and the golden playthroughs. Not CI: `make test` is.
QUICK_RS = --lib --test count_moves --test search_secrets --test examples
QUICK_PY = tests/test_golden.py tests/test_game_records.py tests/test_rules_getters.py \
	tests/test_docs_tables.py tests/test_types.py
test-quick: dev
	cargo test -p ddz-core $(QUICK_RS)
	$(PYTHON) -m pytest -q -n 0 -x $(QUICK_PY)

# The Rust tests of ddz-core whose name holds T (all of them without T):
# `make test-rs T=count`.
test-rs:
	cargo test -p ddz-core $(T)

# Python suites: the files in F (`make test-py F=tests/test_game.py`),
# else the quick loop's.
test-py:
	$(PYTHON) -m pytest -q -n 0 -x $(or $(F),$(QUICK_PY))

# The benches with timing on (pytest-benchmark), then criterion's.
bench:
	$(PYTHON) -m pytest benches --benchmark-enable
	cargo bench -p ddz-core

# Regenerate the docs' tables and the stub's option getters from the engine's
# declarations, which it reads through the built extension (hence `dev`).
docs-tables: dev
	$(PYTHON) tests/docs_tables.py
