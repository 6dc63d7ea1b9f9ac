# SPDX-License-Identifier: Apache-2.0
"""sue_xpu_tx: XPU TX interface over N = 256/512/1024, clean and with injected violations,
plus lint of non-default parameters."""

import importlib.util
import sys

import pytest

from common import generate, paths, run_cocotb

# (dataWidth, cmdCredits, dataCredits, violations, stall VC 0, fifoDepth (0 = overflow-free),
#  tx_reset_in rate)
CONFIGS = [
    (256, 4, 12, False, False, 0, 0.0),
    (256, 4, 12, True, False, 0, 0.0),
    (256, 3, 8, True, True, 0, 0.0),
    (256, 8, 32, True, False, 8, 0.0),  # small register FIFO: overflow drops
    (256, 4, 12, True, False, 0, 0.005),  # tx_reset_in at random points
    (512, 3, 6, True, False, 0, 0.0),
    (512, 2, 5, False, True, 0, 0.0),
    (1024, 2, 4, False, False, 0, 0.0),
    (1024, 2, 4, True, False, 0, 0.0),
    (1024, 5, 9, True, True, 0, 0.0),
    (1024, 8, 16, True, False, 6, 0.005),
    (128, 4, 20, True, True, 0, 0.005),  # 16 beats per 256-byte op: tx_cycle uses all 4 bits
    # a plane of 4 ports x 4 VCs at 256 bits (SueTx.creditsPerVc, maxXpuFifo): a 2048-beat FIFO
    (256, 256, 256, True, True, 0, 0.0),
]


def run(width, cmd, data, violations, stall, depth, reset_rate, module="tb_sue_xpu_tx", seed=1, ops=500):
    depth = depth or 4 * (cmd + data)  # 4 * (cmd + data) never overflows (see the Javadoc)
    design = generate("sue_xpu_tx", {"dataWidth": width, "cmdCredits": cmd, "dataCredits": data,
                                     "fifoDepth": depth})
    env = {"TB_CMD_CREDITS": str(cmd), "TB_DATA_CREDITS": str(data), "TB_VIOLATIONS": "1" if violations else "0",
           "TB_SEED": str(seed), "TB_OPS": str(ops), "TB_STALL_VC": "1" if stall else "0",
           "TB_FIFO_DEPTH": str(depth), "TB_RESET_RATE": str(reset_rate), "TB_LATENCY": "2" if depth <= 8 else "3"}
    return run_cocotb(design, module, extra_env=env)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("config", CONFIGS,
                         ids=[f"n{w}-cmd{c}-data{d}{'-violations' if v else ''}{'-stall_vc0' if st else ''}"
                              f"{f'-fifo{f}' if f else ''}{'-resets' if r else ''}"
                              for w, c, d, v, st, f, r in CONFIGS])
def test_sue_xpu_tx(config, seed):
    run(*config, seed=seed)


@pytest.mark.parametrize("width", [256, 1024])
def test_latency_register_fifo(width):
    design = generate("sue_xpu_tx", {"dataWidth": width, "cmdCredits": 2, "dataCredits": 8, "fifoDepth": 8})
    run_cocotb(design, "tb_sue_xpu_tx", extra_env={"TB_LATENCY": "2", "TB_OPS": "20", "TB_FIFO_DEPTH": "8"},
               testcase="latency")


_spec = importlib.util.spec_from_file_location("lint_all", paths.REPO_ROOT / "verif" / "tools" / "lint_all.py")
lint_all = importlib.util.module_from_spec(_spec)
sys.modules["lint_all"] = lint_all
_spec.loader.exec_module(lint_all)

LINT = [
    {"dataWidth": 128, "cmdCredits": 1, "dataCredits": 1, "fifoDepth": 2},
    {"dataWidth": 512, "cmdCredits": 255, "dataCredits": 4095, "fifoDepth": 4096},
    {"dataWidth": 1024, "cmdCredits": 3, "dataCredits": 7, "fifoDepth": 40},
    {"dataWidth": 2048, "cmdCredits": 16, "dataCredits": 16, "fifoDepth": 9},
]


@pytest.mark.parametrize("params", LINT, ids=["-".join(f"{k}{v}" for k, v in p.items()) for p in LINT])
def test_lint_clean(params):
    d = generate("sue_xpu_tx", params)
    design = lint_all.load_design(d.dir, d.dir / "sue_xpu_tx.json", d.report)
    failures = [f"{c.tool}:\n{c.output}" for c in lint_all.lint_design(design, paths.OUT_ROOT / "lint_cache") if not c.ok]
    assert not failures, "\n".join(failures)
