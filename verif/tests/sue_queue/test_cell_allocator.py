# SPDX-License-Identifier: Apache-2.0
"""cell_allocator: random alloc/free against a set model, exhaustion and recovery, full
rate, at power-of-two and other sizes; the SVA catches a free with every cell free."""

import pytest

from common import SimulationFailed, generate, run_cocotb

CELLS = [2, 3, 16, 64, 100]


@pytest.mark.parametrize("cells", CELLS, ids=[f"c{c}" for c in CELLS])
def test_cell_allocator(cells):
    design = generate("cell_allocator", {"cells": cells})
    run_cocotb(design, "tb_cell_allocator", extra_env={"CELLS": str(cells)}, seed=1)


def test_sva_stops_simulation_on_double_free(capfd):
    design = generate("cell_allocator", {"cells": 16})
    with pytest.raises(SimulationFailed):
        run_cocotb(design, "tb_cell_allocator_sva")
    assert "double free" in capfd.readouterr().out
