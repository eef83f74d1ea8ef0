# The two commands a person needs: `make run` and `make test`. Both build the virtualenv first.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
# Debian packages `make test` needs (a virtual X display with software GL for the UI tests).
TEST_DEBS := xvfb xauth libgl1 libgl1-mesa-dri

.PHONY: run test lint typecheck unit system-deps clean

# ---- virtualenv ---------------------------------------------------------------------------
# A stamp per extra, re-made whenever pyproject.toml changes.
$(VENV)/bin/python:
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is needed"' \
	  || { echo "Python 3.11 or newer is needed as '$(PYTHON)'"; exit 1; }
	$(PYTHON) -m venv $(VENV) || { echo "Could not create a virtualenv: install python3-venv (apt-get install python3-venv)"; exit 1; }
	$(PIP) install -q --upgrade pip

$(VENV)/.run-stamp: pyproject.toml | $(VENV)/bin/python
	$(PIP) install -q -e .
	@touch $@

$(VENV)/.test-stamp: pyproject.toml | $(VENV)/bin/python
	$(PIP) install -q -e '.[test]'
	@touch $@

# ---- the two README commands ----------------------------------------------------------------
run: $(VENV)/.run-stamp
	$(PY) -m companion_app $(ARGS)

test: $(VENV)/.test-stamp system-deps lint typecheck unit

# ---- pieces of `make test` ------------------------------------------------------------------
system-deps:
	@TEST_DEBS="$(TEST_DEBS)" sh .ci/system-deps.sh

lint: $(VENV)/.test-stamp
	$(VENV)/bin/ruff check companion_app tests firmware hardware bench
	$(VENV)/bin/ruff format --check companion_app tests firmware hardware bench

typecheck: $(VENV)/.test-stamp
	$(VENV)/bin/mypy

unit: $(VENV)/.test-stamp
	$(PY) -m pytest $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
