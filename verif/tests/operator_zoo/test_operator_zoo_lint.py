# SPDX-License-Identifier: Apache-2.0
"""Lint operator_zoo at non-default parameters, which `make lint` (defaults only) never
sees: verilator --lint-only -Wall, iverilog -g2012 and yosys read_verilog -sv,
through verif/tools/lint_all.py. The project promises lint-clean SV at every
legal parameter set, with no waivers.
"""

from __future__ import annotations

import pytest

from common.lint import assert_lints_clean


# 1: degenerate slices and 1-bit selects; 2: 1-bit dynamic indices; 7, 33, 65: odd widths around
# the 32- and 64-bit word boundaries; 256: the widest allowed (512-bit products).
PARAMS = [{"width": w} for w in (1, 2, 7, 33, 64, 65, 256)]


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: "-".join(f"{k}{v}" for k, v in p.items()))
def test_operator_zoo_lints_clean(params):
    assert_lints_clean("operator_zoo", params)
