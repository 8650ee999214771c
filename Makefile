# Every target creates and uses its own virtual environment in .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# the web client's tooling (the TypeScript compiler, pinned in package-lock.json)
NODE_STAMP := node_modules/.installed

.PHONY: run test lint typecheck typecheck-js warm unit durations coverage bench clean venv puzzles ranking-records

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# installed without compiling, then compiled on every core (pip compiles its bytecode on
	# one: 36 s of install become 17 + 9 on 2 cores); a file that does not compile is left to
	# Python, as pip leaves it
	$(BIN)/pip install --quiet --no-compile -e ".[all,test]"
	$(BIN)/python -m compileall -qq -j 0 $(VENV)/lib || true
	touch $(STAMP)

venv: $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --prefer-offline --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

## run: install everything and start the game
run: $(STAMP)
	$(BIN)/rummikub serve

## test: lint, type-check (the Python and the web client's JavaScript) and run the whole test suite
# the checks run side by side with the solver's first compile (each uses one core, for up to a
# minute on a fresh checkout), then the suite
test: $(STAMP) $(NODE_STAMP)
	$(MAKE) --no-print-directory -j4 --output-sync=target lint typecheck typecheck-js warm
	$(MAKE) --no-print-directory unit

## warm: compile (or load) the solver's kernels into their on-disk cache
warm: $(STAMP)
	$(BIN)/python -c "from rummikub.solver.warm import warm_up; print(f'solver kernels ready in {warm_up():.1f} s')"

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples

typecheck: $(STAMP)
	$(BIN)/mypy

## typecheck-js: the web client's JavaScript against its JSDoc types (tsconfig.json; needs npm)
typecheck-js: $(NODE_STAMP)
	node_modules/.bin/tsc -p .

# two test processes a core: most tests wait on a server, a browser or a database; worksteal
# keeps every process busy to the end
WORKERS := $$(( $$(nproc) * 2 ))

unit: $(STAMP)
	$(BIN)/pytest -n $(WORKERS) --dist worksteal -q --durations=25

## durations: run the suite and rewrite tests/durations.json (the long tests, which
## tests/conftest.py starts first): after a test's time has changed much
durations: $(STAMP)
	$(BIN)/pytest -n $(WORKERS) --dist worksteal -q --durations=0 --durations-min=1 | $(BIN)/python tests/durations.py

## coverage: the whole suite under coverage, with the processes it starts; prints the total
coverage: $(STAMP)
	$(BIN)/coverage erase
	$(BIN)/coverage run -m pytest -n $(WORKERS) --dist worksteal -q
	$(BIN)/coverage combine -q
	$(BIN)/coverage report --precision=1 | tail -n 1

bench: $(STAMP)
	$(BIN)/python bench/engine.py

## puzzles: rebuild the shipped puzzle set (docs/puzzles.md): self-play, full verification,
# then the bot levels' calibration of the ratings
puzzles: $(STAMP)
	mkdir -p build
	$(BIN)/rummikub puzzles make --self-play 330 --seed 1 -j 2 --out build/puzzles.jsonl.gz
	$(BIN)/python bench/puzzles.py calibrate --file build/puzzles.jsonl.gz \
		--write src/rummikub/puzzles/data/puzzles.jsonl.gz

## ranking-records: play again the bots' games the review's ranking test reads
## (tests/analysis/ranking_records.py), after a bot's play has changed
ranking-records: $(STAMP)
	$(BIN)/python -m tests.analysis.ranking_records

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache node_modules
