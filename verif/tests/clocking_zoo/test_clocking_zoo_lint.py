# SPDX-License-Identifier: Apache-2.0
"""Lint clocking_zoo at non-default parameters, which `make lint` (defaults only) never
sees: verilator --lint-only -Wall, iverilog -g2012 and yosys read_verilog -sv,
through verif/tools/lint_all.py. The project promises lint-clean SV at every
legal parameter set, with no waivers.
"""

from __future__ import annotations

import pytest

from common.lint import assert_lints_clean


# One byte lane with the smallest memory, power-of-two depths, the widest data.
PARAMS = [
    {"width": 8, "memDepth": 2},
    {"width": 24, "memDepth": 3},
    {"width": 72, "memDepth": 32},
    {"width": 128, "memDepth": 1024},
]


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: "-".join(f"{k}{v}" for k, v in p.items()))
def test_clocking_zoo_lints_clean(params):
    assert_lints_clean("clocking_zoo", params)
