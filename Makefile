# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Two installs: `make run` needs the project and its runtime dependencies only
# (RUN_STAMP); the tests and tools need the dev extras too (STAMP, which implies both).
RUN_STAMP := $(VENV)/.run-stamp
STAMP     := $(VENV)/.installed-stamp
# The venv's own pip (ensurepip's) installs an editable pyproject build (pip >= 21.3),
# so it is not upgraded first; no pip version check either.
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check

.PHONY: run test test-fast bench lint clean mutate

$(RUN_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) -e .
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) -e ".[dev]"
	touch $(RUN_STAMP) $(STAMP)

run: $(RUN_STAMP)   ## build the official table, print its new-game expected score, compile the kernels
	$(BIN)/yahtzee solve --rules official
	$(BIN)/python -m solver.warmup official

# Two pytest-xdist workers: both cores (tests/conftest.py shares the session's tables and
# statistics between them and hands out the longest tests first). A plain `pytest` runs in
# one process, as before.
TEST_WORKERS ?= 2
XDIST := -n $(TEST_WORKERS) --dist loadgroup

test: $(STAMP)  ## the whole test suite
	$(BIN)/python -m pytest -q $(XDIST)

test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow" $(XDIST)

bench: $(STAMP) ## performance figures (wall time, states/s, peak memory)
	$(BIN)/python benchmarks/run_all.py

lint: $(STAMP)  ## ruff, and mypy on solver/ and advisor/
	$(BIN)/ruff check solver advisor tests benchmarks tools
	$(BIN)/mypy

clean:
	rm -rf $(VENV) tables/*.ytable

mutate: $(STAMP) ## deliberate bugs in scratch copies: which test catches each (slow)
	$(BIN)/python tools/mutate.py --jobs 2
