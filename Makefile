# The two commands of the README:  `make run`  and  `make test`.
# Each sets up its own virtual environment on first use (and again when pyproject.toml changes).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
ARGS   ?=

.PHONY: run test bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

run: $(BIN)/.installed
	$(BIN)/companion run --sim $(ARGS)

test: $(BIN)/.installed
	$(BIN)/python -m pytest -q $(ARGS)

bench: $(BIN)/.installed
	for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
