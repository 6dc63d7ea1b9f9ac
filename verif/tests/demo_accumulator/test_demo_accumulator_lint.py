# SPDX-License-Identifier: Apache-2.0
"""Lint demo_accumulator at non-default parameters, which `make lint` (defaults only) never
sees: verilator --lint-only -Wall, iverilog -g2012 and yosys read_verilog -sv,
through verif/tools/lint_all.py. The project promises lint-clean SV at every
legal parameter set, with no waivers.
"""

from __future__ import annotations

import pytest

from common.lint import assert_lints_clean


# Extremes of both parameters (the defaults are 8 and 16).
PARAMS = [
    {"width": 1, "historyDepth": 2},
    {"width": 13, "historyDepth": 8},
    {"width": 64, "historyDepth": 1024},
]


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: "-".join(f"{k}{v}" for k, v in p.items()))
def test_demo_accumulator_lints_clean(params):
    assert_lints_clean("demo_accumulator", params)
