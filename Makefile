# A quick development loop (CONTRIBUTING.md). Run it inside a virtualenv:
# `make dev` installs the extension into the active one.
.PHONY: dev release lint fix test bench docs-tables

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

# The benches with timing on (pytest-benchmark), then criterion's.
bench:
	$(PYTHON) -m pytest benches --benchmark-enable
	cargo bench -p ddz-core

# Regenerate the docs' tables from the engine's declarations.
docs-tables:
	$(PYTHON) tests/docs_tables.py
