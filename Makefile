# Two set-up commands: `make demo` (set up, then run the pipeline on the embedded demo corpus)
# and `make test` (set up, then the test suite). Both create .venv on first use. `make lint` runs
# the static checks (ruff, mypy).
PYTHON ?= python3
VENV ?= .venv
BIN := $(abspath $(VENV))/bin
export PATH := $(BIN):$(PATH)
# offline by construction: no model hub, no dataset hub, no DVC analytics
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export HF_DATASETS_OFFLINE := 1
export DVC_NO_ANALYTICS := 1
# what plugins/deduce_cache.py needs, as pyproject.toml pins it
DEDUCE := $(shell grep -oE '"(deduce|filelock)[=<>][^"]*"' pyproject.toml | tr -d '"')

define VENV_PATH_PTH
import pathlib, sysconfig
line = ('import os, sys; d = os.path.dirname(sys.executable); p = os.environ.get("PATH", ""); '
        'os.environ["PATH"] = p if p.startswith(d + os.pathsep) else d + os.pathsep + p')
pathlib.Path(sysconfig.get_paths()["purelib"], "synthdeid-venv-path.pth").write_text(line + "\n")
endef
export VENV_PATH_PTH

.PHONY: setup demo test test-fast lint docs bench bench-paper budget clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || (echo "synthdeid needs Python >= 3.11" && exit 1)
	$(PYTHON) -m venv $(VENV)
	# the venv's python puts the venv's bin first on PATH, as `activate` does: `.venv/bin/dvc repro`
	# then runs the stages' `python -m synthdeid.stages...` with this python, activated or not
	$(BIN)/python -c "$$VENV_PATH_PTH"
	$(BIN)/python -m pip install --quiet --upgrade pip
	# the CPU build of torch first: a looser spec would pull gigabytes of CUDA packages
	$(BIN)/python -m pip install --quiet torch==2.13.0
	# DEDUCE next: it builds its lookup cache, a minute on one core, while pip fetches and
	# installs the rest; if that build fails it runs again once the rest is installed
	$(BIN)/python -m pip install --quiet $(foreach r,$(DEDUCE),"$(r)")
	$(BIN)/python -P plugins/deduce_cache.py > $(VENV)/deduce-build.log 2>&1 & build=$$!; \
	$(BIN)/python -m pip install --quiet -e ".[test,dp]" || { wait $$build; exit 1; }; \
	wait $$build || { cat $(VENV)/deduce-build.log; $(BIN)/python -P plugins/deduce_cache.py; }
	touch $@

$(VENV)/.example-plugin: $(VENV)/.installed examples/synthdeid-example-plugin/pyproject.toml examples/synthdeid-lang-de/pyproject.toml
	$(BIN)/python -m pip install --quiet --no-deps -e examples/synthdeid-example-plugin -e examples/synthdeid-lang-de
	touch $@

# the export targets' libraries (Hugging Face datasets, spaCy), for their round-trip tests
$(VENV)/.export: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e ".[export]"
	touch $@

# Ray Data and pyarrow (the ray extra), for `deidentify --engine ray`'s tests; `make demo` needs neither
$(VENV)/.ray: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e ".[ray]"
	touch $@

# ruff and mypy (the lint extra); mypy needs the export and ray extras too, for their types
$(VENV)/.lint: $(VENV)/.export $(VENV)/.ray
	$(BIN)/python -m pip install --quiet -e ".[lint]"
	touch $@

# mkdocs and its theme (the docs extra), for `make docs`
$(VENV)/.docs: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e ".[docs]"
	touch $@

# Debian's chromium for the reviewer-page browser test (playwright's own browser download does not
# work offline); playwright itself comes with the test extra
$(VENV)/.browser:
	test -x /usr/bin/chromium || (apt-get update -qq && apt-get install -y -qq chromium)
	touch $@

setup: $(VENV)/.installed

demo: setup
	dvc repro
	python -m synthdeid.report.repro

# two workers of one thread each (pytest-xdist): a file's tests stay in one worker, the two
# longest files start first (tests/conftest.py); a passive OpenMP wait keeps torch from spinning
test: setup $(VENV)/.example-plugin $(VENV)/.browser $(VENV)/.export $(VENV)/.ray
	OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE python -m pytest -n 2 --dist loadfile
	python -m pytest examples/synthdeid-lang-de/tests

# the inner loop: every test but those marked slow (the pipeline, Ray, training, subprocess suites)
test-fast: setup $(VENV)/.example-plugin $(VENV)/.browser $(VENV)/.export $(VENV)/.ray
	OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE python -m pytest -n 2 --dist loadfile -m "not slow" --durations=5

# ruff's lint rules and format (`ruff format core plugins stages tests` fixes the format), and
# mypy over the package as installed (.ci/typecheck.py); configured in pyproject.toml
lint: setup $(VENV)/.lint
	ruff check core plugins stages tests
	ruff format --check core plugins stages tests
	python .ci/typecheck.py

# the documentation site (mkdocs.yml) into build/site; --strict: a broken link or a page left out
# of the nav fails it
docs: setup $(VENV)/.docs
	python .ci/typecheck.py --tree-only   # the package as folders, where mkdocstrings finds its docstrings
	NO_MKDOCS_2_WARNING=1 mkdocs build --strict

bench: setup
	python bench/generation.py
	python bench/privacy.py
	python bench/tagger.py --train-docs 400
	python bench/thresholds.py
	python bench/deidentify.py
	python bench/leftover_phi.py
	python bench/note_length.py
	python bench/note_length.py --deduce
	$(MAKE) $(VENV)/.ray && python bench/deidentify_ray.py

# the privacy audit at paper scale: 52M real x 1M synthetic tokens (about 15 minutes, 6 GB; not part of CI)
bench-paper: setup
	python bench/privacy.py --scale paper

# the demo's time and memory from a fresh clone of HEAD (minutes; not part of CI)
budget:
	$(PYTHON) bench/budget.py

clean:
	rm -rf $(VENV)
