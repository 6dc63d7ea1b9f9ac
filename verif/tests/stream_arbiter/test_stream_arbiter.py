# SPDX-License-Identifier: Apache-2.0
"""StreamArbiter: parameter matrix over inputs, data width, policy and packet locking.

Each configuration runs tb_stream_arbiter (data tests with idle insertion and
backpressure, the fairness bound) on Verilator; one more run proves the SVA is
live by breaking the input protocol on purpose.
"""

import pytest

from common import SimulationFailed, generate, run_cocotb

# (inputs, dataWidth, roundRobin, lockUntilLast)
CONFIGS = [
    (1, 8, True, True),
    (2, 16, False, True),
    (3, 32, True, True),
    (4, 32, True, False),
    (5, 64, False, False),
    (8, 8, True, True),
]


def config_id(c):
    n, w, rr, lock = c
    return f"n{n}-w{w}-{'rr' if rr else 'fixed'}-{'lock' if lock else 'beats'}"


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_stream_arbiter(config):
    n, w, rr, lock = config
    design = generate("stream_arbiter", {"inputs": n, "dataWidth": w, "roundRobin": rr, "lockUntilLast": lock})
    run_cocotb(design, "tb_stream_arbiter",
               extra_env={"TB_ROUND_ROBIN": str(int(rr)), "TB_LOCK": str(int(lock))})


def test_sva_stops_simulation_on_protocol_violation(capfd):
    design = generate("stream_arbiter", {"inputs": 2})
    with pytest.raises(SimulationFailed):
        run_cocotb(design, "tb_stream_arbiter_sva")
    # The simulator's own output must name the broken rule: proof it was the SVA that fired.
    assert "s_0: valid fell before the transfer" in capfd.readouterr().out
