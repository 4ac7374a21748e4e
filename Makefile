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
# make sim IDEAL=1: no stalls, memory latency 1 (loom sim --ideal), for throughput
IDEAL   ?=
# make sim ADG=preset: run the kernel on that fabric (loom sim --adg; auto: the smallest)
ADG     ?=
# make sim IFACE=axi: the exported IP (loom export) under cocotbext-axi (loom sim --iface axi)
IFACE   ?=
JOBS    ?= 2
# make sim writes into gen/<kernel stem>/
KNAME    = $(basename $(basename $(notdir $(KERNEL))))

# make fuzz: N random kernels through every stage (see loom fuzz --help)
N       ?= 1000
# make mutate: the templates' mutants (loom mutate --help); TEMPLATE=name for one,
# CONFIG=kernel@adg for a mapped kernel's config words instead, AREA=lowering or
# AREA=golden for the compiler's Python (SAMPLE=n mutants of it, default 200)
TEMPLATE ?=
CONFIG   ?=
AREA     ?=
SAMPLE   ?= 200

.PHONY: setup test test-slow sim export fpga bench fuzz mutate clean help

help:
	@echo "make sim KERNEL=name-or-path [SEED=n]   compile, simulate and verify one kernel into gen/<name>/"
	@echo "make sim KERNEL=name-or-path IDEAL=1    the same without stalls (memory latency 1): cycles for throughput"
	@echo "make sim KERNEL=name-or-path ADG=preset on a fabric preset (loom adg --list; auto): map, config, run"
	@echo "make sim KERNEL=name-or-path IFACE=axi  the exported IP (AXI shell) under cocotbext-axi"
	@echo "make export KERNEL=name-or-path  the kernel as an IP folder (AXI shell, registers, driver) in gen/<name>/ip"
	@echo "make fpga KERNEL=name-or-path    LUTs, FFs, DSPs, BRAMs, Fmax of the exported IP on an ECP5 (Yosys, nextpnr)"
	@echo "make test                      the regression (pytest -n $(JOBS))"
	@echo "make test-slow                 the exhaustive runs behind the 'slow' marker"
	@echo "make bench                     benchmark tables (bench/*.py)"
	@echo "make fuzz [N=1000]             N random C kernels through every stage; failures reduced with cvise"
	@echo "make mutate [TEMPLATE=name | CONFIG=kernel@adg | AREA=lowering|golden [SAMPLE=n]]  seeded faults in the RTL templates (judged by their tests), a fabric config (judged by fabric runs) or the compiler's Python (cosmic-ray; judged by the area's tests), into gen/mutate"
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
	@$(RUN) pytest -q -n $(JOBS) --dist loadgroup -p no:cacheprovider --durations=25

test-slow: setup
	@$(RUN) pytest -q -n $(JOBS) --dist loadgroup -p no:cacheprovider -m slow --durations=25

sim: setup
	@$(RUN) loom sim $(KERNEL) $(if $(ADG),--adg $(ADG)) $(if $(IFACE),--iface $(IFACE)) $(if $(IDEAL),--ideal,--seed $(SEED)) -o gen/$(KNAME)

export: setup
	@$(RUN) loom export $(KERNEL) -o gen/$(KNAME)/ip

fpga: setup
	@$(RUN) loom fpga $(KERNEL) -o gen/$(KNAME)

$(STAMPS)/cvise: $(STAMPS)/apt
	@command -v cvise >/dev/null || { echo "bootstrap: installing cvise"; \
	  $$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get install -y -qq cvise >/dev/null; }
	@touch $@

fuzz: setup $(STAMPS)/cvise
	@$(RUN) loom fuzz --count $(N) -j $(JOBS) --reduce -o gen/fuzz

mutate: setup
	@$(RUN) loom mutate $(if $(CONFIG),--config $(CONFIG),$(if $(AREA),--python $(AREA) --sample $(SAMPLE),$(if $(TEMPLATE),--template $(TEMPLATE))) -j $(JOBS)) --progress -o gen/mutate$(if $(AREA),-$(AREA))

bench: setup
	@for b in bench/*.py; do echo "== $$b"; $(RUN) python $$b || exit 1; done

clean:
	rm -rf gen $(STAMPS) $(VENV)
