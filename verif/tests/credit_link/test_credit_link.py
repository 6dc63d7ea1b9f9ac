# SPDX-License-Identifier: Apache-2.0
"""CreditSender + CreditReceiver in a closed loop: capacity x initial split x per-cycle limits.

Each configuration runs long random traffic with idle and backpressure
variants; one more run proves the overflow SVA fires on an invented credit.
"""

import pytest

from common import SimulationFailed, generate, run_cocotb

# (capacity, initialCredits, maxReturnPerCycle, maxFreePerCycle)
CONFIGS = [(1, 1, 1, 1), (4, 0, 1, 1), (8, 8, 2, 2), (16, 5, 3, 4), (32, 32, 1, 3)]


def run(capacity, initial, max_return, max_free, module="tb_credit_link"):
    design = generate("credit_link", {"capacity": capacity, "initialCredits": initial,
                                      "maxReturnPerCycle": max_return, "maxFreePerCycle": max_free})
    env = {"TB_CAPACITY": str(capacity), "TB_INITIAL": str(initial), "TB_MAX_RETURN": str(max_return),
           "TB_MAX_FREE": str(max_free)}
    return run_cocotb(design, module, extra_env=env)


@pytest.mark.parametrize("config", CONFIGS, ids=[f"cap{c}-init{i}-ret{r}-free{f}" for c, i, r, f in CONFIGS])
def test_credit_link(config):
    run(*config)


def test_sva_stops_simulation_on_invented_credit(capfd):
    with pytest.raises(SimulationFailed):
        run(8, 8, 2, 2, module="tb_credit_link_sva")
    assert "credit overflow: more credits returned than were spent" in capfd.readouterr().out
