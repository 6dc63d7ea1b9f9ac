#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compile one design with slang (pyslang) as its command-line tool would, and count diagnostics.

Usage: slang_check.py --top TOP FILE...   (one design: its files in dependency order)
       slang_check.py OUT_ROOT             (every design under OUT_ROOT, as lint_all.py finds them)

slang runs with its default warning set (what ``slang --top TOP FILES`` reports): the
parse, elaboration and analysis stages, among them IEEE 1800 rules other tools accept
silently (a variable driven from two always_ff blocks, 9.2.2.4). A design passes with zero
errors and zero warnings. Exit status: 0 when every design passes, 1 otherwise, 2 on bad usage.
With OUT_ROOT each design is compiled in a child process (slang keeps global state per
compilation, and a crash must not stop the others).
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from pathlib import Path

import pyslang


def check(top: str, files: list[str]) -> tuple[int, int]:
    """Compiles one design, slang writing its diagnostics to stderr: (errors, warnings)."""
    driver = pyslang.driver.Driver()
    driver.addStandardArgs()
    args = " ".join(["slang", "--top", shlex.quote(top), *map(shlex.quote, files)])
    if not driver.parseCommandLine(args, pyslang.driver.CommandLineOptions()) or not driver.processOptions():
        print(f"slang rejected the command line: {args}", file=sys.stderr)
        return 1, 0
    driver.setTerminalColorsEnabled(False)
    driver.parseAllSources()
    driver.runFullCompilation(quiet=True)
    return driver.diagEngine.numErrors, driver.diagEngine.numWarnings


def check_in_subprocess(top: str, files: list[str]) -> tuple[bool, str]:
    """(passed, slang's report) for one design, compiled in a child process (slang prints to fd 1)."""
    p = subprocess.run([sys.executable, __file__, "--top", top, *files], capture_output=True, text=True)
    return p.returncode == 0, (p.stderr.strip() + "\n" + p.stdout.strip()).strip()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", help="top module (with FILE...)")
    ap.add_argument("paths", nargs="+", type=Path, help="the design's files, or one OUT_ROOT")
    args = ap.parse_args(argv)
    if args.top:
        errors, warnings = check(args.top, [str(p) for p in args.paths])
        sys.stderr.flush()
        print(f"slang {pyslang.__version__}: {errors} error(s), {warnings} warning(s)")
        return 1 if errors or warnings else 0
    if len(args.paths) != 1 or not args.paths[0].is_dir():
        ap.error("without --top, give one OUT_ROOT directory")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from lint_all import find_designs  # noqa: E402  (the designs make lint finds)

    designs = [d for d in find_designs(args.paths[0]) if not d.error]
    failed = 0
    for d in designs:
        ok, report = check_in_subprocess(d.top, [str(f) for f in d.files])
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'}  {d.name:<40} {report.splitlines()[-1] if report else ''}", flush=True)
        if not ok:
            print("      " + "\n      ".join(report.splitlines()[:-1]), flush=True)
    print(f"{len(designs) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
