# rulelab: two commands for a new user (see README.md)
#   make reproduce   set up .venv, run every notebook (FULL) through papermill, write figures and REPORT.md
#   make test        set up .venv, run the unit tests and every notebook (QUICK) under nbval
#   make lab         set up .venv and open the notebooks in JupyterLab, with the data found

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# The benchmark data sit beside the project in ../shared/data when it is checked out that way;
# otherwise rulelab uses (and fills) its per-user cache.
RULELAB_DATA ?= $(if $(wildcard ../shared/data/MANIFEST.csv),$(abspath ../shared/data),)
export RULELAB_DATA
# One BLAS thread per process: the experiments parallelise over folds with joblib instead.
export OMP_NUM_THREADS ?= 1
export OPENBLAS_NUM_THREADS ?= 1
export MKL_NUM_THREADS ?= 1
JOBS ?= 2

.PHONY: setup reproduce quick test unit notebooks bench lab clean lint format figures verify

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[repro,dev,bench]"
	$(PY) -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (ipykernel)" >/dev/null
	touch $@

setup: $(VENV)/.installed
	@# RIPPER (notebooks 02, 03, 07) is Weka's JRip, run in Java from Debian's weka package:
	@# installed here as root when missing; anyone else is told the command.
	@if ! command -v java >/dev/null || [ ! -f "$${WEKA_JAR:-/usr/share/java/weka.jar}" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      --no-install-recommends weka default-jre-headless >/dev/null \
	      || echo "note: installing weka failed; RIPPER needs it: apt-get install weka"; \
	  else \
	    echo "note: RIPPER runs Weka's JRip; install Java and Weka with: sudo apt-get install weka"; \
	  fi; \
	fi

reproduce: setup
	$(PY) -m repro.pipeline --mode full --jobs $(JOBS)

# Recompute a seeded sample of the committed fits with an empty cache and compare them and
# every table with the committed ones (SAMPLE units of each kind; ONLY=05 for one notebook).
SAMPLE ?= 1
verify: setup
	$(PY) -m repro.pipeline --verify --jobs $(JOBS) --sample $(SAMPLE) $(if $(ONLY),--only $(ONLY))

quick: setup
	$(PY) -m repro.pipeline --mode quick --jobs $(JOBS)

# The notebooks first: each runs whole on one worker (loadfile), and the longest started
# last left one worker running it alone at the end; the slowest tests are listed.
test: setup
	RULELAB_QUICK=1 RULELAB_HEADLESS=1 $(PY) -m pytest -n $(JOBS) --nbval-lax --dist loadfile \
		--durations=15 notebooks tests

unit: setup
	$(PY) -m pytest -n $(JOBS) tests

# ruff (configured in pyproject.toml): the linter, and the formatter in check mode
lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: setup
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# The benchmarks (benchmarks/README.md); PART=library or PART=repro runs one folder.
bench: setup
	$(PY) benchmarks/run_all.py $(if $(PART),--part $(PART))

# Every figure redrawn from results/ (no fitting, no data sets), with REPORT.md and the README's
# results table; STYLE=<matplotlib style name or style file> restyles all figures at once.
figures: setup
	$(PY) -m repro.core.figures $(if $(STYLE),--style "$(STYLE)")

# JupyterLab from .venv with RULELAB_DATA exported as above. A notebook run there writes
# under runs/<its non-default parameters>/ (runs/quick for QUICK = True); only a FULL run
# with the defaults (or INTO_COMMITTED = True) writes the committed results/ and figures/.
lab: setup
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks

clean:
	rm -rf $(VENV) .pytest_cache runs .cache
