# SPDX-License-Identifier: Apache-2.0
"""sue_axi_bridge: the AXI4 XPU bridge alone, its FIFO side looped back by a model of SUE's XPU
interfaces (tb_sue_axi_bridge.py), AxiMaster on s_axi and AxiRam on m_axi."""

import pytest

from common import generate, run_cocotb

# (dataWidth, xpus, destBits, cmdCredits, dataCredits)
CONFIGS = [
    (512, 4, 2, 8, 16),
    (512, 4, 4, 3, 4),  # the fewest credits the largest op needs; destinations 4..15 unmapped
    (256, 16, 5, 4, 12),
    (1024, 3, 2, 2, 2),
]


def run_bridge(width, xpus, dest_bits, cmd, data, testcase):
    params = {"dataWidth": width, "xpus": xpus, "addrBits": 20, "idBits": 6, "destLsb": 14, "destBits": dest_bits,
              "cmdCredits": cmd, "dataCredits": data}
    design = generate("sue_axi_bridge", params)
    env = {"TB_CMD_CREDITS": str(cmd), "TB_DATA_CREDITS": str(data), "TB_XPUS": str(xpus), "TB_DEST_LSB": "14",
           "TB_DEST_BITS": str(dest_bits), "TB_SEED": str(width + xpus)}
    run_cocotb(design, "tb_sue_axi_bridge", extra_env=env, testcase=testcase)


@pytest.mark.parametrize("width,xpus,dest_bits,cmd,data", CONFIGS)
def test_sue_axi_bridge(width, xpus, dest_bits, cmd, data):
    run_bridge(width, xpus, dest_bits, cmd, data, "random_traffic_and_bad_input")


@pytest.mark.parametrize("width,xpus,dest_bits,cmd,data", [CONFIGS[0], CONFIGS[2]])
def test_w_aw_apart(width, xpus, dest_bits, cmd, data):
    """W long before its AW (within and beyond the W buffer) and AW long before its W (issue 14)."""
    run_bridge(width, xpus, dest_bits, cmd, data, "w_and_aw_apart")


@pytest.mark.parametrize("params", [
    {"dataWidth": 256, "addrBits": 64, "idBits": 16, "destLsb": 54, "destBits": 10, "xpus": 1024},
    {"dataWidth": 1024, "addrBits": 12, "idBits": 1, "destLsb": 0, "destBits": 1, "xpus": 1},
])
def test_lint(params):
    """Lint-clean (verilator -Wall, iverilog, yosys, slang) at the extremes; `make lint` lints the
    defaults (every top at its defaults; `make test` runs it before test-sim)."""
    from common.lint import assert_lints_clean

    assert_lints_clean("sue_axi_bridge", params)

