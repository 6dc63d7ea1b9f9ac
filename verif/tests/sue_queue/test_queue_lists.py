# SPDX-License-Identifier: Apache-2.0
"""queue_lists: random append/pop/peek every cycle against a dict-of-deques model, back-to-back
operations on one queue, exhausting every cell, destination limits (when the block has them:
destLimited; the queue manager's lists have none); small configurations (non-powers of two
included). The realistic size (1024 XPUs x 4 VCs, 8192 cells) is generated
and linted by test_queue_lint.py."""

import pytest

from common import SimulationFailed, generate, run_cocotb

# (xpus, vcs, cells, destLimited)
CONFIGS = [
    (4, 2, 64, True),
    (4, 2, 64, False),
    (2, 1, 8, True),
    (3, 4, 50, True),
    (3, 4, 50, False),
    (8, 8, 256, False),
]


@pytest.mark.parametrize("xpus,vcs,cells,limited", CONFIGS,
                         ids=[f"x{x}-v{v}-c{c}-{'lim' if lim else 'nolim'}" for x, v, c, lim in CONFIGS])
def test_queue_lists(xpus, vcs, cells, limited):
    design = generate("queue_lists", {"xpus": xpus, "vcs": vcs, "cells": cells, "destLimited": limited})
    run_cocotb(design, "tb_queue_lists", extra_env={"XPUS": str(xpus), "VCS": str(vcs), "CELLS": str(cells),
                                                    "DEST_LIMITED": str(int(limited))}, seed=1)


def test_sva_stops_simulation_on_bad_queue_id(capfd):
    design = generate("queue_lists", {"xpus": 3, "vcs": 2, "cells": 16})
    with pytest.raises(SimulationFailed):
        run_cocotb(design, "tb_queue_lists_sva")
    assert "queue id >= xpus * vcs" in capfd.readouterr().out
