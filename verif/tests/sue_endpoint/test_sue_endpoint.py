# SPDX-License-Identifier: Apache-2.0
"""SUE endpoint (``sue_endpoint``): two instances back to back through a fault-injecting link.

The same Verilator model (256-bit buses, 4 XPUs, 2 VCs, small buffers) runs every scenario:
lossless; 1 % loss with corruption and duplication; 5 % loss with reordering delays; ACK-only
loss with a link-down window. Bidirectional traffic, PSNs starting near the 16-bit wrap, several
seeds. See tb_sue_pair.py for what is checked.
"""

from __future__ import annotations

import re

import pytest

from common import GeneratorError, generate, run_cocotb
from common.lint import assert_lints_clean
from common.pair_wrapper import pair_design

# Six simulations of the one model (~2 min at -O0 against ~0.5 min at -O1): compile it for speed
# (common.sim.OPT_PROFILES).
OPT = "sim"

PARAMS = {"dataWidth": 256, "xpus": 4, "vcs": 2, "cells": 768, "rxBufBytes": 16384, "encap": 0, "vlan": False}

SCENARIOS = {
    "lossless": {},
    "loss1_corrupt_dup": {"TB_DROP": "0.01", "TB_CORRUPT": "0.01", "TB_DUP": "0.01"},
    "loss5_reorder": {"TB_DROP": "0.05", "TB_CORRUPT": "0.01", "TB_DUP": "0.01", "TB_DELAY": "0.05",
                      "TB_REORDER": "1"},
    "ackloss_linkdown": {"TB_ACK_DROP": "0.3", "TB_DROP": "0.03", "TB_LINK_DOWN": "3000"},
}


def env_of(design, params) -> dict:
    """What every run of tb_sue_pair needs: the generated register module and the parameters."""
    return {"TB_REGS_DIR": str(design.dir), "TB_XPUS": str(params["xpus"]), "TB_VCS": str(params["vcs"]),
            "TB_CELLS": str(params["cells"]), "TB_RX_BUF": str(params["rxBufBytes"])}


# One seed per scenario: loss1_corrupt_dup also ran with seed 3 (until 2026-11), the same code paths and
# checks with another random stimulus; that scenario runs again through the 2- and 4-port pairs
# (test_sue_endpoint_ports.py, faulty and unordered links) and the narrow-port pair.
@pytest.mark.parametrize("scenario,seed", [("lossless", 1), ("loss1_corrupt_dup", 2), ("loss5_reorder", 4),
                                           ("ackloss_linkdown", 5)])
def test_pair(scenario, seed):
    design = generate("sue_endpoint", PARAMS)
    env = {**env_of(design, PARAMS), "TB_OPS": "300" if scenario == "lossless" else "800", **SCENARIOS[scenario]}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=seed, opt=OPT)


def test_registers_under_traffic():
    """The AXI4-Lite register map of endpoint A (cocotbext-axi AxiLiteMaster) while both
    endpoints carry traffic: ID against the parameters, read-after-write of every rw register,
    every status word, DECERR/SLVERR and their counters (tb_sue_pair.check_registers)."""
    design = generate("sue_endpoint", PARAMS)
    env = {**env_of(design, PARAMS), "TB_OPS": "200", "TB_REG_CHECK": "1"}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=8, opt=OPT)


def test_conn_error_raises_irq():
    """The link A -> B cut, A's ops to B go unacknowledged: after RETRY_LIMIT rewinds the
    connection enters error, which raises IRQ_CAUSE.conn_error, IRQ_PENDING and ``irq``
    (IRQ_ENABLE.conn_error), reports error on ``conn_state`` and in the status counters, and
    writing 1 to IRQ_CAUSE clears it (tb_sue_pair.conn_error_irq)."""
    design = generate("sue_endpoint", PARAMS)
    env = {**env_of(design, PARAMS), "TB_SCENARIO": "conn_error"}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=10, opt=OPT)


def test_control_frames_under_saturating_traffic():
    """Control frames (scapy ARP/LLDP, 14..1514 bytes) both ways through the AXI4-Lite ``ctl``
    block while both XPUs saturate the link (64-byte writes, never idle): byte-exact with the FCS
    SUE appends (zlib), received through irq, RX overflow dropped and counted, mac_rx_0_tready
    always 1, every op delivered (tb_sue_pair.exchange_control_frames)."""
    design = generate("sue_endpoint", PARAMS)
    # 5 frames each way: the edge lengths 14, 59, 60, 61 and the largest (tb_sue_pair's lengths()).
    # A sixth, of a random length, ran until 2026-11: this is the suite's longest pair simulation
    # (50.6 CPU-s with six, both XPUs saturating the link for as long as the frames take).
    env = {**env_of(design, PARAMS), "TB_SCENARIO": "throughput", "TB_OPS": "200", "TB_FCS": "1", "TB_CTL": "5"}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=9, opt=OPT)


def test_register_map_exports_agree():
    """The endpoint's exported SystemRDL, compiled by PeakRDL's systemrdl-compiler, places every
    register where the JSON report and the generated Python module do (one source, three routes)."""
    from systemrdl import RDLCompiler
    from systemrdl.node import RegNode

    from common.sue_endpoint_bench import block_registers, load_regs

    design = generate("sue_endpoint", PARAMS)
    compiler = RDLCompiler()
    compiler.compile_file(str(design.dir / "sue_endpoint.rdl"))
    # a register's path is block.REG, or block.record_4000.REG for a column of the per-destination
    # table (a regfile array: SystemRDL forbids interleaved arrays); the address is of entry 0
    rdl = {(n.get_path_segments()[1], n.get_path_segments()[-1].split("[")[0]): n.raw_absolute_address
           for n in compiler.elaborate().descendants(unroll=False) if isinstance(n, RegNode)}
    spec = design.report["register_map_spec"]
    json_map = {(b["name"], r["name"]): r["byte_address"] for b in spec["blocks"] for r in b["registers"]}
    regs = load_regs(design.dir)
    py = {(r.name.split("_", 1)[0], r.name.split("_", 1)[1]): r.address
          for b in (regs.cfg, regs.status, regs.endpoint, regs.ctl) for r in block_registers(b)}
    assert rdl == json_map == py
    assert {b for b, _ in json_map} == {"cfg", "status", "endpoint", "ctl"}


def test_fcs_by_sue_and_slow_xpu():
    """SUE appends and checks the FCS (corruption then shows as FCS drops); the receiving XPUs
    return credits slowly, so RX buffers fill and the protocol recovers the PDUs it could not store."""
    design = generate("sue_endpoint", PARAMS)
    env = {**env_of(design, PARAMS), "TB_OPS": "300", "TB_FCS": "1", "TB_CORRUPT": "0.02", "TB_XPU_RATE": "0.15"}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=6, opt=OPT)


def test_replay_fills_the_buffer():
    """A buffer whose cells beyond the XPU's credits (the replay store) hold only a few PDUs, a
    window far larger than that, and loss: unacknowledged PDUs fill the buffer again and again.
    Nothing may be lost (the default DEST_LIMIT once refused, i.e. dropped, ops of a destination
    whose replay cells filled the buffer) and nothing may hang (an early-closed PDU waiting for a
    cell only an ACK can free once stopped the frames that carry the ACKs)."""
    params = {**PARAMS, "cells": 320}
    design = generate("sue_endpoint", params)
    env = {**env_of(design, params), "TB_OPS": "400", "TB_WINDOW": "128", "TB_DROP": "0.01", "TB_CORRUPT": "0.01", "TB_DELAY": "0.02",
           "TB_REORDER": "1", "TB_TIMEOUT": "200000"}
    run_cocotb(pair_design(design), "tb_sue_pair", extra_env=env, seed=7)


# 1024 bits x 1024 XPUs x 4 VCs with IPv6. The 512-bit case (1024 x 4, IPv4) is the top's default
# configuration, which `make lint` lints (`make test` runs it before test-sim): it ran here as well
# until 2026-11 (43 CPU-s in a test-sim of its own; a lint cache hit after `make lint`).
@pytest.mark.parametrize("params", [
    {"dataWidth": 1024, "xpus": 1024, "vcs": 4, "cells": 4096, "rxBufBytes": 131072, "encap": 1},
], ids=["w1024-1024x4-ipv6"])
def test_lint_clean(params):
    assert_lints_clean("sue_endpoint", params)


@pytest.mark.parametrize("params,message", [
    ({"dataWidth": 128}, "'dataWidth' = 128"),
    ({"vcs": 3}, "'vcs' = 3 is out of range; valid values: 1, 2, 4"),
    ({"rxBufBytes": 5000}, "bufBytes must be"),
])
def test_rejects_invalid_parameters(params, message):
    with pytest.raises(GeneratorError, match=re.escape(message)):
        generate("sue_endpoint", {**PARAMS, **params})
