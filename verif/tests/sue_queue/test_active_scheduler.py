# SPDX-License-Identifier: Apache-2.0
"""active_scheduler: exact round-robin order against a cycle-accurate model under random
traffic, idle-system latency, paused VCs, parking/wake-up and HOL freedom, at small sizes
(the realistic size is linted by test_queue_lint.py)."""

import pytest

from common import SimulationFailed, generate, run_cocotb

# (xpus, vcs)
CONFIGS = [(4, 2), (2, 1), (3, 4), (8, 8)]


@pytest.mark.parametrize("xpus,vcs", CONFIGS, ids=[f"x{x}-v{v}" for x, v in CONFIGS])
def test_active_scheduler(xpus, vcs):
    design = generate("active_scheduler", {"xpus": xpus, "vcs": vcs})
    run_cocotb(design, "tb_active_scheduler", extra_env={"XPUS": str(xpus), "VCS": str(vcs)}, seed=1)


def test_sva_stops_simulation_on_done_without_grant(capfd):
    design = generate("active_scheduler", {"xpus": 4, "vcs": 2})
    with pytest.raises(SimulationFailed):
        run_cocotb(design, "tb_active_scheduler_sva")
    assert "DONE for a queue not in service" in capfd.readouterr().out
