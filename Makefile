# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Two installs: `make run` needs the project and its runtime dependencies only
# (RUN_STAMP); the tests and tools need the dev extras too (STAMP, which implies both).
RUN_STAMP := $(VENV)/.run-stamp
STAMP     := $(VENV)/.installed-stamp
# The venv's own pip (ensurepip's) installs an editable pyproject build (pip >= 21.3),
# so it is not upgraded first; no pip version check either. Whatever pip prints (its
# warnings too, e.g. from the machine's pip configuration) goes to a log, shown only
# when pip fails.
PIP_LOG := $(VENV)/pip.log
PIP = @echo "installing $(2) into $(VENV) (pip's output: $(PIP_LOG))"; \
	$(BIN)/python -m pip install --disable-pip-version-check $(1) >$(PIP_LOG) 2>&1 || \
	{ cat $(PIP_LOG); echo "make: pip failed (its output above, also in $(PIP_LOG))" >&2; exit 1; }

.PHONY: run test test-fast bench lint clean mutate

$(RUN_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(call PIP,-e .,the project and its dependencies)
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(call PIP,-e ".[dev]",the project with its test and lint tools)
	touch $(RUN_STAMP) $(STAMP)

run: $(RUN_STAMP)   ## build the official table, print its new-game expected score, warm up
	$(BIN)/yahtzee solve --rules official
	$(BIN)/yahtzee warmup
	@echo
	@echo "Ready. The command is $(BIN)/yahtzee; to type it as plain 'yahtzee', first run"
	@echo "    source $(VENV)/bin/activate"
	@echo "in this shell (once per shell), then for example:"
	@echo "    yahtzee advise 22256"

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
