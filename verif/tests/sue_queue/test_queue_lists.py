# SPDX-License-Identifier: Apache-2.0
"""queue_lists: random append/pop/peek every cycle against a dict-of-deques model, back-to-back
operations on one queue, exhausting every cell, destination limits; small configurations
(non-powers of two included). The realistic size (1024 XPUs x 4 VCs, 8192 cells) is generated
and linted by test_queue_lint.py."""

import pytest

from common import SimulationFailed, generate, run_cocotb

# (xpus, vcs, cells)
CONFIGS = [
    (4, 2, 64),
    (2, 1, 8),
    (3, 4, 50),
    (8, 8, 256),
]


@pytest.mark.parametrize("xpus,vcs,cells", CONFIGS, ids=[f"x{x}-v{v}-c{c}" for x, v, c in CONFIGS])
def test_queue_lists(xpus, vcs, cells):
    design = generate("queue_lists", {"xpus": xpus, "vcs": vcs, "cells": cells})
    run_cocotb(design, "tb_queue_lists", extra_env={"XPUS": str(xpus), "VCS": str(vcs), "CELLS": str(cells)},
               seed=1)


def test_sva_stops_simulation_on_bad_queue_id(capfd):
    design = generate("queue_lists", {"xpus": 3, "vcs": 2, "cells": 16})
    with pytest.raises(SimulationFailed):
        run_cocotb(design, "tb_queue_lists_sva")
    assert "queue id >= xpus * vcs" in capfd.readouterr().out
