# Every target creates and uses its own virtual environment in .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit coverage bench clean venv

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[all,test]"
	touch $(STAMP)

venv: $(STAMP)

## run: install everything and start the game
run: $(STAMP)
	$(BIN)/rummikub serve

## test: lint, type-check and run the whole test suite
test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n auto -q --durations=25

## coverage: the whole suite under coverage, with the processes it starts; prints the total
coverage: $(STAMP)
	$(BIN)/coverage erase
	$(BIN)/coverage run -m pytest -n auto -q
	$(BIN)/coverage combine -q
	$(BIN)/coverage report --precision=1 | tail -n 1

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
