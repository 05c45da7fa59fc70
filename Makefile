# Shuffle Lab: setup, local server, tests.
#   make setup   Python venv + test deps, npm runtime, static/vendor/, Debian chromium
#   make serve   serve the site at http://localhost:8000/ (PORT=... for another port)
#   make test    setup, then every test (unit, MicroPython, golden, e2e in Chromium): what CI runs
#   make check   the fast loop, no browser (under a minute): ruff, unit tests, the core under MicroPython
#   make smoke   one end-to-end test a tab in Chromium (deal, seal, lab, your own shuffle, Play): about a minute
#   make check-clock  the same tests on a clock 10x slower and 10x faster: none may decide by the clock
#   make site    assemble the deployable site into _site/, the docs site in _site/docs/ (what GitHub Pages serves)
#   make bench   performance figures, printed side by side (scripts/bench/, a package; BENCH_ARGS=--quick)
#   make clean   remove everything the targets above made
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000

# Stamps live inside what they describe: deleting .venv or node_modules resets them.
PIP_STAMP := $(VENV)/.installed-test-deps
NPM_STAMP := node_modules/.installed-from-lock
VENDOR_STAMP := static/vendor/.copied

.PHONY: help setup setup-web chromium serve docs test check smoke check-clock bench site clean

help:
	@sed -n 's/^#   //p' $(MAKEFILE_LIST)

setup: setup-web chromium

# Everything but the browser.
setup-web: $(PIP_STAMP) $(VENDOR_STAMP)

$(PY):
	$(PYTHON) -m venv $(VENV)

$(PIP_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --disable-pip-version-check -q -e '.[test,docs]'
	touch $@

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

$(VENDOR_STAMP): $(NPM_STAMP) scripts/vendor.mjs scripts/stdlib_bytecode.py
	node scripts/vendor.mjs
	touch $@

# Debian's chromium, unless $$SHUFFLELAB_CHROMIUM or /usr/bin/chromium is already there
# (Playwright's own browser download can't be used here).
chromium:
	@if [ -n "$${SHUFFLELAB_CHROMIUM:-}" ] && [ -x "$$SHUFFLELAB_CHROMIUM" ]; then \
	  echo "chromium: $$SHUFFLELAB_CHROMIUM"; \
	elif [ -x /usr/bin/chromium ]; then \
	  echo "chromium: /usr/bin/chromium"; \
	else \
	  sudo=; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
	  echo "chromium: installing Debian's chromium"; \
	  $$sudo apt-get update && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y chromium; \
	fi

serve: setup-web docs
	PORT=$(PORT) $(PY) scripts/serve.py

# The documentation site (mkdocs.yml) into build/docs-site/, which `make serve` serves at /docs/. Strict:
# a broken link, a missing page or a page left out of nav fails.
docs: $(PIP_STAMP) $(VENDOR_STAMP)  # the vendored runtime: the docs compute its size
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --quiet

test: setup docs
	$(PY) -m ruff check py tests scripts
	$(PY) -m pytest --ignore=tests/e2e -n 2 --dist loadgroup             # no browser: both cores (a group, e.g. the wheel test, on one)
	$(PY) -m pytest tests/e2e -m "not timing" -n 2 --dist loadfile --durations=15  # two browsers at once, a file each
	$(PY) -m pytest tests/e2e -m timing --durations=8                    # what measures time runs alone

# No browser: unit and property tests, the golden vectors under CPython and under
# MicroPython in Node (tests/test_portable.py), and the linter.
check: setup-web
	$(PY) -m ruff check py tests scripts
	$(PY) -m pytest -q --ignore=tests/e2e -m "not slow" -n 2  # both cores: under a minute

# The smoke tier: one browser test a tab, two browsers at once. A quick look that the page still works end to end;
# make test runs these again with the rest.
smoke: setup
	$(PY) -m pytest tests/e2e -m smoke -n 2 --dist loadfile -q

# The suite without a browser on a clock 10x slower and 10x faster than the machine's (tests/plugins/clock_scale.py):
# a test that passes on one and fails on the other decides something by the clock. Not part of make test (2 x 70 s).
check-clock: setup-web
	for scale in 0.1 10; do \
	  echo "clock at $${scale}x the machine's"; \
	  PYTHONPATH=tests/plugins SHUFFLELAB_CLOCK_SCALE=$$scale $(PY) -m pytest -q -p clock_scale --ignore=tests/e2e -n 2 \
	    || exit 1; \
	done

bench: setup
	$(PY) scripts/bench $(BENCH_ARGS)

site: $(VENDOR_STAMP) $(PIP_STAMP)
	PYTHON=$(PY) bash scripts/build_site.sh _site

clean:
	rm -rf $(VENV) node_modules static/vendor _site build .pytest_cache test-results
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
