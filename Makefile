# LOOM-py. Two commands do everything on a fresh Debian machine:
#   make sim KERNEL=vecadd     the whole flow on one kernel
#   make test                  the regression
# Both bootstrap on their own (apt packages, .venv, editable install); stamp
# files in .stamps/ make second runs skip what is done.

SHELL   := /bin/bash
PYTHON  ?= python3
VENV    := .venv
STAMPS  := .stamps
RUN     := tools/run
KERNEL  ?= vecadd
SEED    ?= 1
JOBS    ?= 2
# make sim writes into gen/<kernel stem>/
KNAME    = $(basename $(basename $(notdir $(KERNEL))))

.PHONY: setup test test-slow sim bench clean help

help:
	@echo "make sim KERNEL=name-or-path [SEED=n]   compile, simulate and verify one kernel into gen/<name>/"
	@echo "make test                      the regression (pytest -n $(JOBS))"
	@echo "make test-slow                 the exhaustive runs behind the 'slow' marker"
	@echo "make bench                     benchmark tables (bench/*.py)"
	@echo "make setup                     only the bootstrap (apt, .venv)"

setup: $(STAMPS)/venv

$(STAMPS)/apt: tools/bootstrap-apt.sh
	@bash tools/bootstrap-apt.sh
	@mkdir -p $(STAMPS) && touch $@

$(STAMPS)/venv: pyproject.toml $(STAMPS)/apt
	@echo "bootstrap: creating $(VENV) and installing loom[dev]"
	@$(PYTHON) -m venv $(VENV)
	@$(VENV)/bin/python -m pip install -q --upgrade pip
	@$(VENV)/bin/python -m pip install -q -e '.[dev]'
	@touch $@

test: setup
	@$(RUN) pytest -q -n $(JOBS) -p no:cacheprovider

test-slow: setup
	@$(RUN) pytest -q -n $(JOBS) -p no:cacheprovider -m slow

sim: setup
	@$(RUN) loom sim $(KERNEL) --seed $(SEED) -o gen/$(KNAME)

bench: setup
	@for b in bench/*.py; do echo "== $$b"; $(RUN) python $$b || exit 1; done

clean:
	rm -rf gen $(STAMPS) $(VENV)
