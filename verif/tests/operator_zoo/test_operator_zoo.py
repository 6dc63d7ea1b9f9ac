# SPDX-License-Identifier: Apache-2.0
"""OperatorZoo: every DSL operator, emitted as SystemVerilog, simulated by
Verilator and compared with Python integer arithmetic (tb_operator_zoo.py,
zoo_model.py).

Widths: 1 (degenerate slices, shifts by 0, 1-bit selects), 7 (odd, non-power-
of-two bit index), 8, 33 (just above 32: literals switch from decimal to hex),
64, 65 (above 64 bits: BigInteger literals and wide Verilator words), 128.
"""

from __future__ import annotations

import pytest

from common import generate, run_cocotb

WIDTHS = [1, 7, 8, 33, 64, 65, 128]


@pytest.mark.parametrize("width", WIDTHS)
def test_operator_zoo(width):
    design = generate("operator_zoo", {"width": width})
    run_cocotb(
        design,
        "tb_operator_zoo",
        extra_env={
            "ZOO_WIDTH": str(width),
            "ZOO_REPORT": str(design.dir / "operator_zoo.json"),
            "ZOO_VECTORS": "600",
            "ZOO_SEED": str(1000 + width),
        },
    )
