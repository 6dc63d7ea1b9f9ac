# SPDX-License-Identifier: Apache-2.0
"""bit_synchronizer with 2, 3 and 4 flip-flops."""

import pytest

from common import generate, run_cocotb


@pytest.mark.parametrize("stages", [2, 3, 4])
def test_bit_synchronizer(stages):
    design = generate("bit_synchronizer", {"stages": stages})
    run_cocotb(design, "tb_bit_synchronizer", extra_env={"STAGES": str(stages)}, seed=1)
