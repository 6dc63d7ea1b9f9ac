# SPDX-License-Identifier: Apache-2.0
"""sue_rx_parser: RX frame parser over all six encapsulations (+802.1Q where allowed), W =
256/512/1024, FCS checked by SUE or not; random and mutated frames against the Python model
of DESIGN-RX.md; latency and throughput; lint at 512/1024 bits with 1024 XPUs."""

from __future__ import annotations

import json
import os
import re

import pytest

from common import GeneratorError, generate, paths, run_cocotb
from common.lint import assert_lints_clean

# (encap, vlan, dataWidth, fcs). Every encapsulation once, each width at least once and each option
# twice or more: the default suite builds six Verilator models. RX_FULL_MATRIX=1 runs all 18
# combinations. AFH Gen 1 + 802.1Q ran at 1024 bits until 2026-11 (the second 1024-bit model, the
# costliest to compile): it runs at 512 now; 1024 bits stay covered by AFH Gen 2 with the FCS (its
# header offsets and FCS strip against a 1024-bit beat) and by the lints below at 1024 bits (IPv6 +
# 802.1Q, AFH Gen 2 compressed); AFH Gen 1 + 802.1Q keeps its random and latency/throughput runs.
CONFIGS_FULL = [
    (0, False, 512, False), (0, True, 256, True), (0, False, 1024, True),
    (1, False, 256, False), (1, True, 512, True), (1, True, 1024, False),
    (2, False, 1024, False), (2, True, 256, True), (2, False, 512, True),
    (3, False, 256, False), (3, True, 1024, True), (3, False, 512, True),
    (4, False, 256, True), (4, False, 512, False), (4, False, 1024, True),
    (5, False, 256, False), (5, False, 512, True), (5, False, 1024, False),
]
CONFIGS_DEFAULT = [
    (0, True, 512, True), (1, False, 256, False), (2, True, 512, False),
    (3, True, 256, True), (4, False, 1024, True), (5, False, 512, False),
]
CONFIGS = CONFIGS_FULL if os.environ.get("RX_FULL_MATRIX") == "1" else CONFIGS_DEFAULT
NUM_XPUS = 16
FRAMES = int(os.environ.get("RX_FRAMES", "800"))


def ids(c):
    e, v, w, f = c
    return f"encap{e}{'-vlan' if v else ''}-w{w}{'-fcs' if f else ''}"


def run(encap, vlan, width, fcs, seed, testcase, frames=FRAMES, idle=0.2, bp=0.3, extra=None):
    design = generate("sue_rx_parser", {"dataWidth": width, "encap": encap, "vlan": vlan, "numXpus": NUM_XPUS})
    env = {"TB_ENCAP": str(encap), "TB_VLAN": "1" if vlan else "0", "TB_NUMXPUS": str(NUM_XPUS),
           "TB_FCS": "1" if fcs else "0", "TB_FRAMES": str(frames), "TB_SEED": str(seed),
           "TB_IDLE": str(idle), "TB_BP": str(bp), **(extra or {})}
    return run_cocotb(design, "tb_sue_rx_parser", extra_env=env, testcase=testcase)


@pytest.mark.parametrize("config", CONFIGS, ids=[ids(c) for c in CONFIGS])
def test_random_frames(config):
    run(*config, seed=1 + CONFIGS.index(config), testcase="random_traffic")


@pytest.mark.parametrize("config", CONFIGS, ids=[ids(c) for c in CONFIGS])
def test_latency_throughput(config):
    """Asserts (in the bench) throughput 1.0 and last-beat latency <= 4; records both as JSON
    (metrics rx.latency_cycles, rx.bus_utilization) under out/bench/."""
    out = paths.REPO_ROOT / "out" / "bench"
    out.mkdir(parents=True, exist_ok=True)
    lat_file = out / f"rx_parser_{ids(config)}.txt"
    lat_file.unlink(missing_ok=True)
    run(*config, seed=7, testcase="latency_throughput", extra={"TB_LAT_FILE": str(lat_file)})
    worst, best, thr = lat_file.read_text().split()
    cfg = {"block": "sue_rx_parser", "encap": config[0], "vlan": config[1], "dataWidth": config[2],
           "fcs": config[3]}
    with open(out / "rx_parser.json", "a") as fh:
        fh.write(json.dumps({"metric": "rx.latency_cycles", "config": cfg, "value": int(worst),
                             "unit": "cycles", "note": f"last MAC beat in -> last PDU beat out; best {best}"}) + "\n")
        fh.write(json.dumps({"metric": "rx.bus_utilization", "config": cfg, "value": float(thr),
                             "unit": "fraction", "target": 1.0}) + "\n")


@pytest.mark.parametrize("params", [
    {"dataWidth": 512, "encap": 0, "vlan": True, "numXpus": 1024},
    {"dataWidth": 1024, "encap": 1, "vlan": True, "numXpus": 1024},
    {"dataWidth": 1024, "encap": 5, "vlan": False, "numXpus": 1024},
    {"dataWidth": 512, "encap": 3, "vlan": False, "numXpus": 1024},
    {"dataWidth": 256, "encap": 4, "vlan": False, "numXpus": 1},
], ids=lambda p: "-".join(f"{k}{v}" for k, v in p.items()))
def test_lint_clean(params):
    assert_lints_clean("sue_rx_parser", params)


@pytest.mark.parametrize("params,message", [
    ({"encap": 4, "vlan": True}, "vlan=true needs a standard or AFH Gen 1 encapsulation"),
    ({"dataWidth": 128}, "dataWidth' = 128 is out of range"),
    ({"numXpus": 0}, "numXpus' = 0 is out of range"),
])
def test_rejects_invalid_parameters(params, message):
    with pytest.raises(GeneratorError, match=re.escape(message)):
        generate("sue_rx_parser", params)
