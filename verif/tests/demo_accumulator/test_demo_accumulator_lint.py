"""Lint demo_accumulator at non-default parameters, which `make lint` (defaults only) never
sees: verilator --lint-only -Wall, iverilog -g2012 and yosys read_verilog -sv,
through verif/tools/lint_all.py. The project promises lint-clean SV at every
legal parameter set, with no waivers.
"""

from __future__ import annotations

import sys

import pytest

from common import generate, paths

sys.path.insert(0, str(paths.REPO_ROOT / "verif" / "tools"))
import lint_all  # noqa: E402

# Extremes of both parameters (the defaults are 8 and 16).
PARAMS = [
    {"width": 1, "historyDepth": 2},
    {"width": 13, "historyDepth": 8},
    {"width": 64, "historyDepth": 1024},
]


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: "-".join(f"{k}{v}" for k, v in p.items()))
def test_demo_accumulator_lints_clean(params):
    design = generate("demo_accumulator", params)
    d = lint_all.load_design(design.dir, design.dir / "demo_accumulator.json", design.report)
    failures = [f"{c.tool}: {c.output}" for c in lint_all.lint_design(d) if not c.ok]
    assert not failures, "\n\n".join(failures)
