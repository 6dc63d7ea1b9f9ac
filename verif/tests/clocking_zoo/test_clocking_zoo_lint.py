"""Lint clocking_zoo at non-default parameters, which `make lint` (defaults only) never
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

# One byte lane with the smallest memory, power-of-two depths, the widest data.
PARAMS = [
    {"width": 8, "memDepth": 2},
    {"width": 24, "memDepth": 3},
    {"width": 72, "memDepth": 32},
    {"width": 128, "memDepth": 1024},
]


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: "-".join(f"{k}{v}" for k, v in p.items()))
def test_clocking_zoo_lints_clean(params):
    design = generate("clocking_zoo", params)
    d = lint_all.load_design(design.dir, design.dir / "clocking_zoo.json", design.report)
    failures = [f"{c.tool}: {c.output}" for c in lint_all.lint_design(d) if not c.ok]
    assert not failures, "\n\n".join(failures)
