# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: run test test-fast bench lint clean mutate

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

run: $(STAMP)   ## build the official table, print its new-game expected score, compile the kernels
	$(BIN)/yahtzee solve --rules official
	$(BIN)/python -m solver.warmup official

test: $(STAMP)  ## the whole test suite
	$(BIN)/python -m pytest -q

test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow"

bench: $(STAMP) ## performance figures (wall time, states/s, peak memory)
	$(BIN)/python benchmarks/run_all.py

lint: $(STAMP)  ## ruff, and mypy on solver/ and advisor/
	$(BIN)/ruff check solver advisor tests benchmarks tools
	$(BIN)/mypy

clean:
	rm -rf $(VENV) tables/*.ytable

mutate: $(STAMP) ## deliberate bugs in scratch copies: which test catches each (slow)
	$(BIN)/python tools/mutate.py --jobs 2
